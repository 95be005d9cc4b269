# frozen_string_literal: true

require_relative "native_call"
require_relative "response"

module Courier
  # Copies the library's courier_response (status, URL, header lines, body) into a
  # Courier::Response, which then owns no native memory.
  module NativeResponse
    module_function

    def status(pointer)
      out = FFI::MemoryPointer.new(:int)
      NativeCall.invoke(:courier_response_status, pointer, out)
      out.read_int
    end

    def url(pointer)
      out = FFI::MemoryPointer.new(:pointer)
      NativeCall.invoke(:courier_response_url, pointer, out)
      NativeCall.read_string(out)
    end

    def headers(pointer, prefix = :courier_response)
      count = FFI::MemoryPointer.new(:size_t)
      NativeCall.invoke(:"#{prefix}_header_count", pointer, count)
      name = FFI::MemoryPointer.new(:pointer)
      value = FFI::MemoryPointer.new(:pointer)
      lines = Array.new(count.read(:size_t)) do |index|
        NativeCall.invoke(:"#{prefix}_header_at", pointer, index, name, value)
        [NativeCall.read_string(name), NativeCall.read_string(value)]
      end
      Headers.new(lines)
    end

    def body(pointer, prefix = :courier_response)
      data = FFI::MemoryPointer.new(:pointer)
      length = FFI::MemoryPointer.new(:size_t)
      NativeCall.invoke(:"#{prefix}_body", pointer, data, length)
      size = length.read(:size_t)
      size.zero? ? "".b : data.read_pointer.read_bytes(size)
    end

    def read(pointer, request: nil)
      Response.new(status: status(pointer), headers: headers(pointer), body: body(pointer), url: url(pointer),
                   request: request)
    end

    # A new courier_response holding `response` (a Courier::Response), for an interceptor's answer.
    def create(response)
      out = FFI::MemoryPointer.new(:pointer)
      NativeCall.invoke(:courier_response_new, response.status, out)
      pointer = out.read_pointer
      begin
        response.headers.each do |name, value|
          NativeCall.invoke(:courier_response_add_header, pointer, NativeCall.text(name, "a header name"),
                            NativeCall.text(value, "the value of header #{name.inspect}"))
        end
        body = response.body.to_s
        NativeCall.invoke(:courier_response_set_body, pointer, FFI::MemoryPointer.from_string(body), body.bytesize)
      rescue StandardError
        Native.courier_response_free(pointer)
        raise
      end
      pointer
    end
  end
end
