# frozen_string_literal: true

require_relative "native_call"
require_relative "native_response"

module Courier
  # The header fields of the request or response in a running exchange, edited in place in the
  # library's object, so the next stage of the chain sees the change.
  class LiveHeaders
    include Enumerable

    # `owner` is a RequestView or ResponseView (its #pointer checks the exchange is live);
    # `kind` is :request or :response.
    def initialize(owner, kind)
      @owner = owner
      @kind = kind
    end

    def [](name)
      out = FFI::MemoryPointer.new(:pointer)
      box = FFI::MemoryPointer.new(:pointer)
      code = Native.public_send(:"courier_#{@kind}_header", @owner.pointer, NativeCall.text(name, "a header name"), out, box)
      if code == 17
        Native.courier_error_free(box.read_pointer)
        return nil
      end
      raise NativeCall.error_from(code, box.read_pointer) unless code.zero?

      NativeCall.read_string(out)
    end

    # Replaces every line named `name`.
    def []=(name, value)
      NativeCall.invoke(:"courier_#{@kind}_set_header", @owner.pointer, NativeCall.text(name, "a header name"),
                        NativeCall.text(value, "the value of header #{name.to_s.inspect}"))
    end

    # Adds a line, keeping the lines of that name already there.
    def add(name, value)
      NativeCall.invoke(:"courier_#{@kind}_add_header", @owner.pointer, NativeCall.text(name, "a header name"),
                        NativeCall.text(value, "the value of header #{name.to_s.inspect}"))
    end

    # Removes every line named `name`; returns whether there was one.
    def delete(name)
      box = FFI::MemoryPointer.new(:pointer)
      code = Native.public_send(:"courier_#{@kind}_remove_header", @owner.pointer, NativeCall.text(name, "a header name"), box)
      if code == 17
        Native.courier_error_free(box.read_pointer)
        return false
      end
      raise NativeCall.error_from(code, box.read_pointer) unless code.zero?

      true
    end

    # A copy of the current lines, as Courier::Headers.
    def snapshot
      NativeResponse.headers(@owner.pointer, :"courier_#{@kind}")
    end

    def each(&block)
      snapshot.each(&block)
    end

    def to_h
      snapshot.to_h
    end
  end
end
