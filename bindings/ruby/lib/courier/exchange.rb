# frozen_string_literal: true

require_relative "native_call"
require_relative "request_view"
require_relative "response_view"
require_relative "native_response"

module Courier
  # One pass of a request through a Ruby interceptor: live views of its request and response,
  # and what the interceptor decides. Valid only while the callback runs, because the library's
  # exchange handle is; afterwards every view raises ClosedError instead of touching freed memory.
  #
  # The callback decides by calling one of #respond, #retry and #fail (or by raising, which fails
  # the send with InterceptorError); doing none of them goes on.
  class Exchange
    CONTINUE = 0
    RESPOND = 1
    FAIL = 2
    RETRY = 3

    # The courier_code of each failure an interceptor may name in #fail.
    FAILURE_CODES = {
      interceptor: 14, unacceptable_status: 11, unacceptable_content_type: 20, authentication: 22,
      invalid_request: 3, cancelled: 8, decoding: 21, limit_exceeded: 12
    }.freeze

    attr_reader :action

    def initialize(pointer, phase)
      @pointer = pointer
      @phase = phase
      @open = true
      @action = CONTINUE
    end

    def open?
      @open
    end

    # Ends the exchange's life: called by the trampoline when the callback returns.
    def close
      @open = false
    end

    def request
      RequestView.new(self)
    end

    # The response (on_response only); Courier::Error in on_request, where there is none yet.
    def response
      ResponseView.new(self)
    end

    # Which pass of this send is under way, from 1 (a retry makes it 2).
    def attempt
      NativeCall.fetch_int(:courier_exchange_attempt, live_pointer)
    end

    # The identifier of this send, shared by its passes.
    def request_id
      NativeCall.fetch_string(:courier_exchange_request_id, live_pointer)
    end

    # Answers with `response` (a Courier::Response, or status:/headers:/body:), skipping the rest
    # of the chain.
    def respond(response = nil, status: 200, headers: {}, body: "")
      response ||= Response.new(status: status, headers: headers, body: body)
      raise InvalidRequestError.new("respond takes a Courier::Response, not #{response.class}", code: 1) unless response.is_a?(Response)

      native = NativeResponse.create(response)
      box = FFI::MemoryPointer.new(:pointer)
      code = Native.courier_exchange_respond(live_pointer, native, box)
      unless code.zero?
        Native.courier_response_free(native)
        raise NativeCall.error_from(code, box.read_pointer)
      end
      @action = RESPOND
    end

    # From on_response: sends the (possibly edited) request through the rest of the chain again.
    def retry
      raise InvalidRequestError.new("retry is only possible from on_response", code: 1) unless @phase == :on_response

      live_pointer
      @action = RETRY
    end

    # Fails the send with `message`; `code` names the failure (see FAILURE_CODES), so the caller
    # sees its exception class (:unacceptable_status gives HTTPError).
    def fail(message, code: :interceptor)
      number = FAILURE_CODES.fetch(code) do
        raise InvalidRequestError.new("unknown failure #{code.inspect}; one of #{FAILURE_CODES.keys.join(", ")}", code: 1)
      end
      NativeCall.invoke(:courier_exchange_fail, live_pointer, number, NativeCall.text(message, "the failure message"))
      @action = FAIL
    end

    def request_pointer
      NativeCall.fetch_pointer(:courier_exchange_request, live_pointer)
    end

    def response_pointer
      NativeCall.fetch_pointer(:courier_exchange_response, live_pointer)
    end

    private

    def live_pointer
      raise ClosedError.new("an exchange is usable only while its interceptor callback runs", code: 2) unless @open

      @pointer
    end
  end
end
