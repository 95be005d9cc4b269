# frozen_string_literal: true

module Courier
  # Maps small integers to the Ruby objects that C callbacks need (interceptors, stream
  # consumers), so the library is handed a number as `user_data` and never an object's address:
  # a moved or collected object can never be reached through a stale pointer, and an object stays
  # referenced, so alive, for exactly as long as the library may call back with its key.
  class HandleTable
    def initialize
      @mutex = Mutex.new
      @objects = {}
      @next_key = 0
    end

    # Stores `object` and returns its key, never 0 (so that NULL is never a key).
    def add(object)
      @mutex.synchronize do
        @next_key += 1
        @objects[@next_key] = object
        @next_key
      end
    end

    # The object stored under `key`, or nil once it was released.
    def [](key)
      @mutex.synchronize { @objects[key] }
    end

    def release(key)
      @mutex.synchronize { @objects.delete(key) }
    end

    def size
      @mutex.synchronize { @objects.size }
    end

    # The process-wide table the trampolines read.
    INSTANCE = new
  end
end
