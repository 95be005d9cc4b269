"""The exception hierarchy, shaped like httpx's, one class per courier_code.

Plain Python, as httpx's `_exceptions` is: building one from the library's courier_error is
`_calls.from_error`'s, so that these classes, and the models that raise them, need no library.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._models import Request, Response


class CourierError(Exception):
    """Any failure from Courier: `code` is the courier_code, `stage` where it arose."""

    def __init__(
        self,
        message: str,
        *,
        code: int = 19,
        stage: str | None = None,
        request: Request | None = None,
        response: Response | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.stage = stage
        self.request = request
        self.response = response


class RequestError(CourierError):
    """A failure while sending a request."""


class TransportError(RequestError):
    """The transport failed."""


class ConnectError(TransportError):
    """No connection could be made (COURIER_E_CANNOT_CONNECT)."""


class TimeoutException(TransportError):
    """A deadline passed (COURIER_E_TIMED_OUT)."""


class ProtocolError(TransportError):
    """The reply was not valid HTTP, or broke off (COURIER_E_INVALID_RESPONSE)."""


class TLSError(TransportError):
    """TLS failed or was refused (COURIER_E_INSECURE)."""


class Cancelled(RequestError):
    """The send was cancelled (COURIER_E_CANCELLED)."""


class TooManyRedirects(RequestError):
    """Too many redirects, or a loop (COURIER_E_TOO_MANY_REDIRECTS)."""


class LimitExceeded(RequestError):
    """A configured bound was exceeded (COURIER_E_LIMIT_EXCEEDED)."""


class DecodingError(RequestError):
    """A body could not be decoded (COURIER_E_DECODING, or JSON from Response.json())."""


class InterceptorError(RequestError):
    """An interceptor failed; `stage` names it, and a Python exception is the `__cause__`."""


class BodyNotReplayable(RequestError):
    """A one-shot body would have been sent twice (COURIER_E_BODY_NOT_REPLAYABLE)."""


class HTTPStatusError(CourierError):
    """A response had an unacceptable status (raise_for_status, or COURIER_E_UNACCEPTABLE_STATUS)."""


class AuthenticationError(HTTPStatusError):
    """Credentials were refused and could not be refreshed (COURIER_E_AUTHENTICATION); `response`
    is the refusal, as httpx's raise_for_status would report the 401."""


class UnacceptableContentType(CourierError):
    """A response had an unacceptable content type (COURIER_E_UNACCEPTABLE_CONTENT_TYPE)."""


class InvalidRequest(CourierError, ValueError):
    """Bad input: an invalid URL, method, header, query item or body."""


class PluginError(CourierError):
    """A plugin could not be loaded or unloaded (COURIER_E_PLUGIN)."""


class WouldBlock(CourierError, RuntimeError):
    """A blocking call from inside a Courier callback, where it would deadlock (COURIER_E_WOULD_BLOCK)."""


class ClosedError(CourierError, RuntimeError):
    """The client, or an exchange view outside its callback, is no longer usable."""


class StreamError(CourierError, RuntimeError):
    """A streaming response was used in a way its state does not allow."""


class Unsupported(CourierError):
    """The library cannot do what was asked (COURIER_E_UNSUPPORTED): a transport it was built
    without (transport="ahc" on the default library, which the message says how to replace), or
    an option the transport cannot honour, named in the message."""


class ForkError(CourierError, RuntimeError):
    """A client was used in a process made by fork() after the client was created
    (COURIER_E_FORKED): its connections and threads stay with the parent. Create clients in the
    child: in multiprocessing's initializer, gunicorn's post_fork, or lazily per process."""


_CLASSES: dict[int, type[CourierError]] = {
    1: InvalidRequest,
    2: ClosedError,
    3: InvalidRequest,
    4: InvalidRequest,
    5: BodyNotReplayable,
    6: ConnectError,
    7: TimeoutException,
    8: Cancelled,
    9: TLSError,
    10: ProtocolError,
    11: HTTPStatusError,
    12: LimitExceeded,
    13: TooManyRedirects,
    14: InterceptorError,
    15: PluginError,
    16: WouldBlock,
    17: CourierError,
    18: Unsupported,
    19: CourierError,
    20: UnacceptableContentType,
    21: DecodingError,
    22: AuthenticationError,
    23: ForkError,
}


def error_class(code: int) -> type[CourierError]:
    """The exception class for a courier_code (CourierError for one this binding does not know)."""
    return _CLASSES.get(code, CourierError)
