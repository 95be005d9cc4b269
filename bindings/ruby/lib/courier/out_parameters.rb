# frozen_string_literal: true

require "ffi"

module Courier
  # The out parameters of one send and of reading its response (the response and error boxes, a
  # pointer, a size and an int), kept per fiber and reused rather than allocated as new
  # FFI::MemoryPointers (each a Ruby object and a malloc) for every call.
  #
  # A caller takes a set from its fiber's spares and gives it back when done; a call nested inside
  # it (from an interceptor's callback on the same thread) takes another spare, made the first
  # time, so no two calls ever write to the same memory and nesting allocates only once.
  class OutParameters
    KEY = :courier_out_parameters
    SPARES = 4

    attr_reader :response, :error, :pointer, :size, :int

    # A set of the fiber's, which the caller then holds alone until #give_back.
    def self.take
      spares = Thread.current[KEY]
      (spares && spares.pop) || new
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

    # Returns the set to the fiber's spares for its next call.
    def give_back
      spares = (Thread.current[KEY] ||= [])
      spares.push(self) if spares.size < SPARES
      nil
    end
  end
end
