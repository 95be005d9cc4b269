"""The exception hierarchy, shaped like httpx's, one class per courier_code."""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from ._courier_cffi import ffi
from ._lib import lib

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

# Python exceptions raised in callbacks, keyed by the token their failure message carries, so
# the error that surfaces from the send can name them as its __cause__. Bounded: a failure an
# outer interceptor swallows never collects its entry.
_pending_lock = threading.Lock()
_pending: OrderedDict[int, BaseException] = OrderedDict()
_next_token = 0
_TOKEN = re.compile(r"\[py#(\d+)\]")


def remember(exception: BaseException) -> str:
    """Keeps `exception` for the failure that will carry the returned tag."""
    global _next_token
    with _pending_lock:
        _next_token += 1
        token = _next_token
        _pending[token] = exception
        while len(_pending) > 1024:
            _pending.popitem(last=False)
    return f"[py#{token}]"


def _take(message: str) -> BaseException | None:
    match = _TOKEN.search(message)
    if match is None:
        return None
    with _pending_lock:
        return _pending.pop(int(match.group(1)), None)


def error_class(code: int) -> type[CourierError]:
    return _CLASSES.get(code, CourierError)


def from_error(error: Any, request: Request | None = None, response: Response | None = None) -> CourierError:
    """Builds the exception for a courier_error * (not freed here)."""
    code = int(lib.courier_error_code(error))
    message = ffi.string(lib.courier_error_message(error)).decode("utf-8", "replace")
    stage_pointer = lib.courier_error_stage(error)
    stage = ffi.string(stage_pointer).decode("utf-8", "replace") if stage_pointer != ffi.NULL else None
    cause = _take(message)
    if cause is not None:
        message = _TOKEN.sub("", message).replace("  ", " ").strip()
    if response is None:
        status = int(lib.courier_error_status(error))
        if status > 0:
            from ._models import Response
            response = Response(status, request=request, url=request.url if request is not None else "")
    exception = error_class(code)(message, code=code, stage=stage, request=request, response=response)
    if cause is not None:
        exception.__cause__ = cause
    return exception


def check(code: int, error_box: Any, request: Request | None = None) -> None:
    """Raises the exception for a failed call's `courier_error **` box, freeing the error."""
    if code == 0:
        return
    error = error_box[0]
    if error == ffi.NULL:
        name = ffi.string(lib.courier_strerror(code)).decode()
        raise error_class(code)(name, code=code, request=request)
    try:
        raise from_error(error, request)
    finally:
        lib.courier_error_free(error)
        error_box[0] = ffi.NULL


def invoke(function: Any, *args: Any, request: Request | None = None) -> None:
    """Calls a fallible library function with a fresh error box and raises on failure."""
    box = ffi.new("courier_error **")
    code = function(*args, box)
    if code:
        check(code, box, request)


def encode(value: str | bytes, what: str) -> bytes:
    """UTF-8 bytes for a C string; NUL and unencodable text are InvalidRequest."""
    if isinstance(value, str):
        try:
            data = value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise InvalidRequest(f"{what} is not valid UTF-8: {error}", code=1) from error
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        raise TypeError(f"{what} must be str or bytes, not {type(value).__name__}")
    if b"\0" in data:
        raise InvalidRequest(f"{what} contains a NUL character", code=1)
    return data
