# frozen_string_literal: true

require_relative "native"
require_relative "headers"

module Courier
  # The head (final URL and header lines) of a received response, left in the library's
  # courier_response until first asked for: copying every header line out costs two ffi calls a
  # line, and most callers read only the status and body. The first read copies both out and
  # frees the handle; later reads return the copies.
  #
  # The read runs under a Mutex, so threads sharing a Response read the head once and the handle
  # is freed once. A head never read is not freed by its finalizer, which runs where Ruby forbids
  # locks and library calls: it only queues the handle (the proc holds the state Array, never the
  # head), and the queue is freed by the next send and at exit (ReceivedHead.free_garbage).
  class ReceivedHead
    GARBAGE = Thread::Queue.new

    # Frees the handles of heads collected unread.
    def self.free_garbage
      Native.courier_response_free(GARBAGE.pop(true)) until GARBAGE.empty?
    rescue ThreadError
      nil
    end

    # A proc for ObjectSpace.define_finalizer that queues the handle still in `state` (made here
    # so it captures no head).
    def self.finalizer(state)
      proc do
        pointer = state[0]
        GARBAGE.push(pointer) if pointer
      end
    end

    # Takes ownership of `pointer`, a courier_response.
    def initialize(pointer)
      @state = [pointer]
      @lock = Mutex.new
      @url = nil
      @headers = nil
      @taken = false
      ObjectSpace.define_finalizer(self, ReceivedHead.finalizer(@state))
    end

    def url
      take unless @taken
      @url
    end

    def headers
      take unless @taken
      @headers
    end

    private

    # Copies the URL and header lines out and frees the handle, once.
    def take
      @lock.synchronize do
        pointer = @state[0]
        next unless pointer

        begin
          @url = NativeResponse.url(pointer)
          @headers = NativeResponse.headers(pointer)
        ensure
          @headers ||= Headers.new
          @state[0] = nil
          ObjectSpace.undefine_finalizer(self)
          Native.courier_response_free(pointer)
          @taken = true
        end
      end
    end

    at_exit { free_garbage }
  end
end
