# frozen_string_literal: true

require "monitor"
require_relative "native_call"
require_relative "callback_guard"
require_relative "request_cache"

module Courier
  # Owns one courier_client and the RequestCache of its plain sends, and frees both exactly once:
  # on Client#close, from the Client's finalizer when it is collected unclosed, or at exit. It
  # never references its Client, so the finalizer can hold it without keeping the Client alive.
  #
  # At exit every handle still open is freed in an at_exit hook, before Ruby stops other threads:
  # courier_client_free returns at once and lets sends in flight finish with their own outcome,
  # while the client's threads end and its connections close, so no library thread is left
  # running into a torn-down interpreter.
  #
  # A finalizer runs where Ruby forbids locks (as in a signal trap), so it only queues its handle;
  # the queue is drained, and those clients freed, when the next client is made and at exit.
  class ClientHandle
    LIVE = {}
    LIVE_LOCK = Monitor.new
    COLLECTED = Thread::Queue.new

    def self.open_handles
      LIVE_LOCK.synchronize { LIVE.keys }
    end

    def self.close_all
      close_collected
      open_handles.each(&:close)
    end

    # Frees the clients whose Client objects were collected unclosed.
    def self.close_collected
      COLLECTED.pop(true).close until COLLECTED.empty?
    rescue ThreadError
      nil
    end

    # A proc for ObjectSpace.define_finalizer that queues `handle` to be freed (made here so it
    # captures no Client).
    def self.finalizer(handle)
      proc { COLLECTED.push(handle) }
    end

    attr_reader :requests

    def initialize(pointer, base_url)
      ClientHandle.close_collected
      @pointer = pointer
      @requests = RequestCache.new(base_url)
      @lock = Monitor.new
      LIVE_LOCK.synchronize { LIVE[self] = true }
    end

    # The client's pointer; ClosedError once it was freed.
    def pointer
      current = @lock.synchronize { @pointer }
      raise ClosedError.new("the client is closed", code: 2) unless current

      current
    end

    def closed?
      @lock.synchronize { @pointer.nil? }
    end

    # Frees the client once; later calls do nothing.
    def close
      freed = @lock.synchronize do
        current = @pointer
        @pointer = nil
        current
      end
      LIVE_LOCK.synchronize { LIVE.delete(self) }
      @requests.close if freed
      CallbackGuard.calling_out { Native.courier_client_free(freed) } if freed
      nil
    end

    at_exit { close_all }
  end
end
