# frozen_string_literal: true

require_relative "live_headers"

module Courier
  # The request of a running exchange, read and edited in place; usable only while the
  # interceptor callback that received it runs (ClosedError afterwards).
  class RequestView
    def initialize(exchange)
      @exchange = exchange
    end

    # The library's courier_request; ClosedError once the callback has returned.
    def pointer
      @exchange.request_pointer
    end

    def headers
      LiveHeaders.new(self, :request)
    end

    def method
      NativeCall.fetch_string(:courier_request_method, pointer)
    end

    def method=(name)
      NativeCall.invoke(:courier_request_set_method, pointer, NativeCall.text(name, "the method").upcase)
    end

    def url
      NativeCall.fetch_string(:courier_request_url, pointer)
    end

    def url=(url)
      NativeCall.invoke(:courier_request_set_url, pointer, NativeCall.text(url, "the URL"))
    end

    # The body when it is in memory; UnsupportedError for a body streamed from a file.
    def body
      NativeResponse.body(pointer, :courier_request)
    end

    def body=(bytes)
      raise InvalidRequestError.new("a request body must be a String, not #{bytes.class}", code: 1) unless bytes.is_a?(String)

      NativeCall.invoke(:courier_request_set_body_bytes, pointer, FFI::MemoryPointer.from_string(bytes), bytes.bytesize, nil)
    end

    # Appends a query item; a nil value appends the bare flag.
    def add_query(name, value = nil)
      NativeCall.invoke(:courier_request_add_query, pointer, NativeCall.text(name, "a query name"),
                        value.nil? ? nil : NativeCall.text(value, "a query value"))
    end

    def inspect
      @exchange.open? ? "#<Courier::RequestView #{method} #{url}>" : "#<Courier::RequestView (closed)>"
    end
  end
end
