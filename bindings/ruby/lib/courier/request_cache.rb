# frozen_string_literal: true

require_relative "native"
require_relative "native_request"

module Courier
  # The courier_requests of a client's sends that give only a method and a URL, built once and
  # reused: building one (checking the inputs, resolving against base_url, reading back the
  # final URL) cost as much as a third of such a send. Reuse is safe because a send copies its
  # request, and nothing else varies: the client's default headers, cookies and interceptors are
  # applied by the library inside the send, to that copy.
  #
  # A send takes an entry out and puts it back after, so one request is never in two sends at
  # once: threads sending the same URL together each get their own, and a thread that ends leaves
  # nothing behind. At most KEYS method and URL pairs are kept (the oldest pair is dropped first),
  # with at most PER_KEY idle requests each. #close frees every idle request; one out in a send
  # when the cache closes is freed when it comes back.
  class RequestCache
    KEYS = 16
    PER_KEY = 4

    # A built request: its key, the courier_request and what it describes (a Request).
    Entry = Struct.new(:key, :pointer, :info)

    def initialize(base_url)
      @base_url = base_url
      @lock = Mutex.new
      @idle = {}
      @closed = false
    end

    # An entry for `method` and `url` that the caller holds alone until #release; built (with
    # NativeRequest's checks, so bad input raises as for any request) when none is idle.
    def acquire(method, url)
      key = [method, url]
      entry = @lock.synchronize { @idle[key]&.pop }
      return entry if entry

      built = NativeRequest.new(method, url, base_url: @base_url)
      # Every Response of the entry's sends shares its Request: frozen, so none can change it.
      built.info.method.freeze
      built.info.url.freeze
      Entry.new([frozen(method), frozen(url)].freeze, built.pointer, built.info)
    end

    # Puts `entry` back for the next send, or frees it when the cache is closed or full.
    def release(entry)
      dropped = @lock.synchronize { keep(entry) }
      dropped.each { |one| Native.courier_request_free(one.pointer) }
      nil
    end

    # Frees the idle requests; entries released afterwards are freed, not kept.
    def close
      idle = @lock.synchronize do
        @closed = true
        taken = @idle.values.flatten
        @idle = {}
        taken
      end
      idle.each { |entry| Native.courier_request_free(entry.pointer) }
      nil
    end

    # The number of idle requests (for tests).
    def size
      @lock.synchronize { @idle.values.sum(&:size) }
    end

    private

    # `value` as a Hash key that the caller's later changes cannot alter.
    def frozen(value)
      value.frozen? ? value : value.dup.freeze
    end

    # Keeps `entry` (under the lock) and returns the entries to free instead.
    def keep(entry)
      return [entry] if @closed

      list = @idle[entry.key]
      unless list
        dropped = @idle.size >= KEYS ? @idle.shift[1] : []
        @idle[entry.key] = [entry]
        return dropped
      end
      return [entry] if list.size >= PER_KEY

      list.push(entry)
      []
    end
  end
end
