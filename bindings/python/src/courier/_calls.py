"""Calling libcourier: Python text in as C strings, a courier_error out as the exception for it.

Apart from _errors so that the exception classes, and the models that raise them, know nothing of
the FFI: this is the one place that reads a courier_error.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

from ._courier_cffi import ffi
from ._errors import CourierError, InvalidRequest, error_class
from ._lib import lib
from ._models import Request, Response

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
