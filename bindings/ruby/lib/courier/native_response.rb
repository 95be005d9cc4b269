# frozen_string_literal: true

require_relative "native_call"
require_relative "response"
require_relative "received_head"

module Courier
  # Copies the library's courier_response into a Courier::Response: all of it at once (#read, for
  # a response an interceptor sees), or the status and body at once and the head when first
  # asked for (#received, for what a send returns).
  #
  # These getters run for every response, so they pass no error box (the library then allocates
  # no error): a failure, which only an invalid handle could cause, still raises, with the
  # code's description.
  module NativeResponse
    module_function

    def check(code)
      raise NativeCall.error_from(code, FFI::Pointer::NULL) unless code.zero?
    end

    def status(pointer)
      out = FFI::MemoryPointer.new(:int)
      check(Native.courier_response_status(pointer, out, nil))
      out.read_int
    end

    def url(pointer)
      out = FFI::MemoryPointer.new(:pointer)
      check(Native.courier_response_url(pointer, out, nil))
      NativeCall.read_string(out)
    end

    # The count and line getters of a response's and a request's header lines.
    HEADER_FUNCTIONS = {
      courier_response: %i[courier_response_header_count courier_response_header_at],
      courier_request: %i[courier_request_header_count courier_request_header_at]
    }.freeze

    # The header lines of a response (`prefix` :courier_response) or request (:courier_request),
    # read through the fiber's reused out parameters (the name into `pointer`, the value into
    # `response`).
    def headers(pointer, prefix = :courier_response)
      count_function, at_function = HEADER_FUNCTIONS.fetch(prefix)
      out = OutParameters.take
      check(Native.public_send(count_function, pointer, out.size, nil))
      name = out.pointer
      value = out.response
      lines = Array.new(out.size.read(:size_t)) do |index|
        check(Native.public_send(at_function, pointer, index, name, value, nil))
        [NativeCall.read_string(name), NativeCall.read_string(value)]
      end
      Headers.new(lines)
    ensure
      out&.give_back
    end

    # The body when it is in memory; the request's of a file body raises UnsupportedError.
    def body(pointer, prefix = :courier_response)
      data = FFI::MemoryPointer.new(:pointer)
      length = FFI::MemoryPointer.new(:size_t)
      NativeCall.invoke(:"#{prefix}_body", pointer, data, length)
      size = length.read(:size_t)
      size.zero? ? "".b : data.read_pointer.read_bytes(size)
    end

    # The Response a send returns, owning `pointer` from here (through its ReceivedHead), with
    # status and body read through `out` (an OutParameters).
    def received(pointer, out, request)
      check(Native.courier_response_status(pointer, out.int, nil))
      status = out.int.read_int
      check(Native.courier_response_body(pointer, out.pointer, out.size, nil))
      size = out.size.read(:size_t)
      body = size.zero? ? "".b : out.pointer.read_pointer.read_bytes(size)
    rescue StandardError
      Native.courier_response_free(pointer)
      raise
    else
      Response.received(status, body, ReceivedHead.new(pointer), request)
    end

    def read(pointer, request: nil)
      Response.new(status: status(pointer), headers: headers(pointer), body: body(pointer), url: url(pointer),
                   request: request)
    end

    # A new courier_response holding `response` (a Courier::Response), for an interceptor's answer.
    def create(response)
      pointer = NativeCall.fetch_pointer(:courier_response_new, response.status)
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
