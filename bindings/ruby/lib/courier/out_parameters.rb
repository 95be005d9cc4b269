# frozen_string_literal: true

require "ffi"

module Courier
  # The out parameters of one send and of reading its response (the response and error boxes, a
  # pointer, a size and an int), kept per fiber and reused: allocating five FFI::MemoryPointers
  # for every request cost more than the calls they serve.
  #
  # A send takes the fiber's set and gives it back when done; a send nested inside it (from an
  # interceptor's callback on the same thread) finds none and makes its own, so no two calls
  # ever write to the same memory.
  class OutParameters
    KEY = :courier_out_parameters

    attr_reader :response, :error, :pointer, :size, :int

    # The fiber's set, which the caller then holds alone until #give_back.
    def self.take
      current = Thread.current[KEY]
      return new unless current

      Thread.current[KEY] = nil
      current
    end

    def initialize
      @response = FFI::MemoryPointer.new(:pointer)
      @error = FFI::MemoryPointer.new(:pointer)
      @pointer = FFI::MemoryPointer.new(:pointer)
      @size = FFI::MemoryPointer.new(:size_t)
      @int = FFI::MemoryPointer.new(:int)
    end

    # Clears the boxes the library writes on a send, so nothing from an earlier send is read.
    def clear
      @response.put_pointer(0, FFI::Pointer::NULL)
      @error.put_pointer(0, FFI::Pointer::NULL)
      self
    end

    # Returns the set to the fiber for its next send.
    def give_back
      Thread.current[KEY] = self
      nil
    end
  end
end
