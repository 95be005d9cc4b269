# frozen_string_literal: true

require "json"
require_relative "live_headers"

module Courier
  # The response of a running exchange (in on_response), read and edited in place; usable only
  # while the interceptor callback that received it runs (ClosedError afterwards).
  class ResponseView
    def initialize(exchange)
      @exchange = exchange
    end

    def pointer
      @exchange.response_pointer
    end

    def headers
      LiveHeaders.new(self, :response)
    end

    def status
      NativeResponse.status(pointer)
    end

    def status=(code)
      raise InvalidRequestError.new("a status must be an Integer, not #{code.class}", code: 1) unless code.is_a?(Integer)

      NativeCall.invoke(:courier_response_set_status, pointer, code)
    end

    def url
      NativeResponse.url(pointer)
    end

    def body
      NativeResponse.body(pointer)
    end

    def body=(bytes)
      raise InvalidRequestError.new("a response body must be a String, not #{bytes.class}", code: 1) unless bytes.is_a?(String)

      NativeCall.invoke(:courier_response_set_body, pointer, FFI::MemoryPointer.from_string(bytes), bytes.bytesize)
    end

    def json
      JSON.parse(body)
    end

    def inspect
      @exchange.open? ? "#<Courier::ResponseView #{status}>" : "#<Courier::ResponseView (closed)>"
    end
  end
end
