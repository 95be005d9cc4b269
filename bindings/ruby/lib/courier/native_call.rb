# frozen_string_literal: true

require_relative "native"
require_relative "errors"
require_relative "out_parameters"

module Courier
  # Calling the library: each function's last parameter is a `courier_error **`, and a failed
  # call becomes the exception of its code, with the library's message and stage, and the
  # library's error freed exactly once.
  module NativeCall
    module_function

    # Calls Native.<function>(*arguments, error_box) and raises on a non-zero code. The error
    # box is the fiber's reused one (OutParameters), not a new allocation per call.
    def invoke(function, *arguments, request: nil)
      out = OutParameters.take.clear
      code = Native.public_send(function, *arguments, out.error)
      raise error_from(code, out.error.read_pointer, request: request) unless code.zero?

      nil
    ensure
      out&.give_back
    end

    # Calls `function` with `arguments` and one pointer out parameter (the fiber's reused one);
    # returns the pointer the library wrote.
    def fetch_pointer(function, *arguments, request: nil)
      with_out_parameters do |out|
        invoke(function, *arguments, out.pointer, request: request)
        out.pointer.read_pointer
      end
    end

    # As #fetch_pointer, for a borrowed `const char *`: copied into a UTF-8 String (nil for NULL).
    def fetch_string(function, *arguments)
      with_out_parameters do |out|
        invoke(function, *arguments, out.pointer)
        read_string(out.pointer)
      end
    end

    # As #fetch_pointer, for an `int` out parameter.
    def fetch_int(function, *arguments)
      with_out_parameters do |out|
        invoke(function, *arguments, out.int)
        out.int.read_int
      end
    end

    # Lends the fiber's reused out parameters to the block, and takes them back however it ends.
    def with_out_parameters
      out = OutParameters.take
      yield out
    ensure
      out&.give_back
    end

    # The exception for `code` and the library's error at `pointer` (freed here; may be NULL).
    def error_from(code, pointer, request: nil, cause_message: nil)
      if pointer.null?
        message = Native.courier_strerror(code)
        stage = nil
        status = 0
      else
        message = Native.courier_error_message(pointer).dup.force_encoding(Encoding::UTF_8)
        stage_pointer = Native.courier_error_stage(pointer)
        stage = stage_pointer.null? ? nil : stage_pointer.read_string.force_encoding(Encoding::UTF_8)
        status = Native.courier_error_status(pointer)
        Native.courier_error_free(pointer)
      end
      message = "#{message}: #{cause_message}" if cause_message
      Courier.error_class(code).new(message, code: code, stage: stage, request: request,
                                             status: status.zero? ? nil : status)
    end

    # A borrowed `const char *` from an out parameter, copied into a UTF-8 String.
    def read_string(out)
      pointer = out.read_pointer
      pointer.null? ? nil : pointer.read_string.force_encoding(Encoding::UTF_8)
    end

    # `value` as text for the library: a String (or Symbol) of valid UTF-8 without NUL bytes,
    # which C strings cannot carry; InvalidRequestError naming `what` otherwise.
    def text(value, what)
      value = value.to_s if value.is_a?(Symbol) || value.is_a?(Numeric)
      raise InvalidRequestError.new("#{what} must be a String, not #{value.class}", code: 1) unless value.is_a?(String)

      value = value.dup.force_encoding(Encoding::UTF_8) if value.encoding == Encoding::BINARY
      value = value.encode(Encoding::UTF_8) unless value.encoding == Encoding::UTF_8 || !value.valid_encoding?
      raise InvalidRequestError.new("#{what} is not valid UTF-8: #{value.inspect}", code: 1) unless value.valid_encoding?
      raise InvalidRequestError.new("#{what} contains a NUL byte: #{value.inspect}", code: 1) if value.include?("\0")

      value
    end
  end
end
