# frozen_string_literal: true

module Courier
  # Any failure from Courier. `code` is the courier_code (COURIER_E_* of courier.h), `stage` the
  # pipeline stage it arose in (an interceptor's name, "transport"), `request` what was sent
  # (a Courier::Request) and `response` the response when there was one, so a handler can tell
  # what failed where without parsing the message.
  class Error < StandardError
    attr_reader :code, :stage, :request, :response, :status

    def initialize(message = nil, code: 19, stage: nil, request: nil, response: nil, status: nil)
      super(message)
      @code = code
      @stage = stage
      @request = request
      @response = response
      @status = status || response&.status
    end
  end

  # A failure while sending a request.
  class RequestError < Error; end
  # The transport failed.
  class TransportError < RequestError; end
  # No connection could be made (COURIER_E_CANNOT_CONNECT).
  class ConnectionError < TransportError; end
  # A deadline passed (COURIER_E_TIMED_OUT).
  class TimeoutError < TransportError; end
  # TLS failed or was refused (COURIER_E_INSECURE).
  class TLSError < TransportError; end
  # The reply was not valid HTTP, or broke off (COURIER_E_INVALID_RESPONSE).
  class ProtocolError < TransportError; end
  # The send was cancelled (COURIER_E_CANCELLED): a stream's block stopped it, or the thread was interrupted.
  class CancelledError < RequestError; end
  # Too many redirects, or a loop (COURIER_E_TOO_MANY_REDIRECTS).
  class TooManyRedirectsError < RequestError; end
  # A configured bound was exceeded (COURIER_E_LIMIT_EXCEEDED).
  class LimitExceededError < RequestError; end
  # A body could not be decoded (COURIER_E_DECODING, or JSON from Response#json).
  class DecodingError < RequestError; end
  # An interceptor failed; `stage` names it, and a Ruby exception raised in it is the `cause`.
  class InterceptorError < RequestError; end
  # A one-shot body would have been sent twice (COURIER_E_BODY_NOT_REPLAYABLE).
  class BodyNotReplayableError < RequestError; end
  # A response had an unacceptable status (raise_for_status, or COURIER_E_UNACCEPTABLE_STATUS).
  class HTTPError < Error; end
  # Credentials were refused and could not be refreshed (COURIER_E_AUTHENTICATION).
  class AuthenticationError < HTTPError; end
  # A response had an unacceptable content type (COURIER_E_UNACCEPTABLE_CONTENT_TYPE).
  class UnacceptableContentTypeError < Error; end
  # Bad input: an invalid URL, method, header, query item, body or option.
  class InvalidRequestError < Error; end
  # A plugin could not be loaded or unloaded (COURIER_E_PLUGIN).
  class PluginError < Error; end
  # A blocking call from inside a Courier callback, where it would deadlock (COURIER_E_WOULD_BLOCK).
  class WouldBlockError < Error; end
  # The client is closed, or an exchange was used after its callback returned (COURIER_E_INVALID_HANDLE).
  class ClosedError < Error; end
  # The library cannot do what was asked (COURIER_E_UNSUPPORTED), such as a transport it lacks.
  class UnsupportedError < Error; end
  # A client made before fork() was used in the child (COURIER_E_FORKED); make clients in the child.
  class ForkError < Error; end

  # The exception class of each courier_code; Courier::Error for a code this gem does not know.
  ERROR_CLASSES = {
    1 => InvalidRequestError, 2 => ClosedError, 3 => InvalidRequestError, 4 => InvalidRequestError,
    5 => BodyNotReplayableError, 6 => ConnectionError, 7 => TimeoutError, 8 => CancelledError,
    9 => TLSError, 10 => ProtocolError, 11 => HTTPError, 12 => LimitExceededError,
    13 => TooManyRedirectsError, 14 => InterceptorError, 15 => PluginError, 16 => WouldBlockError,
    17 => Error, 18 => UnsupportedError, 19 => Error, 20 => UnacceptableContentTypeError,
    21 => DecodingError, 22 => AuthenticationError, 23 => ForkError
  }.freeze

  def self.error_class(code)
    ERROR_CLASSES.fetch(code, Error)
  end
end
