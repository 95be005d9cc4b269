"""Building library requests from Python arguments and copying library responses into Python.

The layer that knows both sides: the models below know nothing of the library, so this hands a
Response the function that reads the rest of its handle (take_head).
"""
from __future__ import annotations

import datetime
import json as jsonlib
import os
import threading
from collections.abc import Iterable, Mapping
from typing import Any, Union

from ._calls import check, encode, invoke
from ._cookie_jar import cookie_header_items
from ._courier_cffi import ffi
from ._errors import ClosedError, InvalidRequest
from ._handles import handles
from ._lib import abi_minor, lib
from ._models import Headers, HeaderTypes, Metrics, Request, Response, ResponseHead, garbage

NULL = ffi.NULL
QueryTypes = Union[Mapping[str, Any], Iterable[tuple[str, Any]], None]
FileContent = Union[bytes, str, "os.PathLike[str]", Any]


def _string(pointer: Any) -> str:
    return ffi.string(pointer).decode("utf-8", "replace") if pointer != NULL else ""


def _query_value(value: Any) -> str | bytes | None:
    if value is None:
        return None
    if value is True:
        return "true"
    if value is False:
        return "false"
    return value if isinstance(value, (str, bytes)) else str(value)


def _pairs(items: Any, what: str) -> list[tuple[Any, Any]]:
    if items is None:
        return []
    source = items.multi_items() if isinstance(items, Headers) else (
        items.items() if isinstance(items, Mapping) else items)
    pairs: list[tuple[Any, Any]] = []
    try:
        for name, value in source:
            if isinstance(value, (list, tuple)) and what != "files":
                pairs.extend((name, item) for item in value)
            else:
                pairs.append((name, value))
    except (TypeError, ValueError) as error:
        raise TypeError(f"{what} must be a mapping or a list of (name, value) pairs") from error
    return pairs


def milliseconds_of(seconds: Any, what: str) -> int:
    """Seconds as whole milliseconds for the library (at least 1 when positive); InvalidRequest
    for a negative, NaN, infinite or absurdly large value, or a non-number."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"{what} must be a number of seconds, not {type(seconds).__name__}")
    if not (0 <= seconds <= 10**12):  # also refuses NaN
        raise InvalidRequest(f"{what} must be from 0 to 10**12 seconds, not {seconds}", code=1)
    return max(1, round(seconds * 1000)) if seconds else 0


def new_request(method: str | bytes, url: str | bytes, base_url: str | None) -> Any:
    """A new courier_request * for `url`, resolved against `base_url` when it is relative."""
    method_bytes = encode(method.upper() if isinstance(method, str) else method, "the method")
    url_bytes = encode(url, "the URL")
    box = ffi.new("courier_request **")
    if base_url is not None and b"://" not in url_bytes:
        invoke(lib.courier_request_new_endpoint, method_bytes, encode(base_url, "base_url"), url_bytes, box)
    else:
        invoke(lib.courier_request_new, method_bytes, url_bytes, box)
    return box[0]


def _add_file_part(request: Any, name: bytes, value: Any) -> None:
    filename: Any = None
    content_type: Any = None
    content = value
    if isinstance(value, tuple):
        if not 1 <= len(value) <= 3:
            raise TypeError("a file tuple is (filename, content[, content_type])")
        filename = value[0]
        content = value[1] if len(value) > 1 else None
        content_type = value[2] if len(value) > 2 else None
    filename_c = encode(filename, "a file name") if filename is not None else NULL
    type_c = encode(content_type, "a file's content type") if content_type is not None else NULL
    if isinstance(content, os.PathLike):
        invoke(lib.courier_request_add_multipart_file, request, name,
               encode(os.fspath(content), "a file path"), filename_c, type_c)
        return
    if hasattr(content, "read"):
        if filename is None and isinstance(getattr(content, "name", None), str):
            filename_c = encode(os.path.basename(content.name), "a file name")
        content = content.read()
    if isinstance(content, str):
        content = content.encode("utf-8")
    if not isinstance(content, (bytes, bytearray, memoryview)):
        raise TypeError(f"file content must be bytes, str, a path or a file object, not {type(content).__name__}")
    data = bytes(content)
    if filename_c is NULL:
        filename_c = name
    invoke(lib.courier_request_add_multipart_data, request, name, filename_c, type_c, data, len(data))


def build_request(
    method: str | bytes,
    url: str | bytes,
    *,
    base_url: str | None = None,
    default_headers: Headers | None = None,
    params: QueryTypes = None,
    headers: HeaderTypes = None,
    json: Any = None,
    data: Any = None,
    form: Any = None,
    files: Any = None,
    content: Any = None,
    auth: tuple[str, str] | None = None,
    bearer: str | None = None,
    timeout: float | None = None,
    cookies: Any = None,
) -> Any:
    """A courier_request * with every argument applied; the caller frees it."""
    if data is not None and not isinstance(data, Mapping) and not isinstance(data, list):
        if content is not None:
            raise InvalidRequest("give the body as `content` or `data`, not both", code=1)
        content, data = data, None
    if form is not None:
        if data is not None:
            raise InvalidRequest("give the form as `form` or `data`, not both", code=1)
        data = form
    bodies = [name for name, value in (("json", json), ("content", content), ("data", data), ("files", files))
              if value is not None]
    if len(bodies) > 1 and bodies != ["data", "files"]:
        raise InvalidRequest(f"give one body, not {' and '.join(bodies)}", code=1)
    request = new_request(method, url, base_url)
    try:
        for name, value in _pairs(params, "params"):
            raw = _query_value(value)
            invoke(lib.courier_request_add_query, request, encode(str(name), "a query name"),
                   encode(raw, "a query value") if raw is not None else NULL)
        merged = Headers(default_headers) if default_headers else Headers()
        extra = _pairs(headers, "headers")
        for name in {str(name).lower() for name, _ in extra}:
            merged.pop(name, None)
        lines = merged.multi_items() + extra
        for name, value in lines:
            invoke(lib.courier_request_add_header, request, encode(name, "a header name"),
                   encode(value, f"the value of header {name!r}"))
        for name, value in cookie_header_items(cookies).items():
            invoke(lib.courier_request_add_cookie, request, encode(name, "a cookie name"),
                   encode(value, "a cookie value"))
        if auth is not None:
            if not (isinstance(auth, tuple) and len(auth) == 2):
                raise TypeError("auth must be a (username, password) tuple")
            invoke(lib.courier_request_set_basic_auth, request, encode(auth[0], "the username"),
                   encode(auth[1], "the password"))
        if bearer is not None:
            invoke(lib.courier_request_set_bearer_auth, request, encode(bearer, "the bearer token"))
        if timeout is not None:
            milliseconds = milliseconds_of(timeout, "timeout")
            if milliseconds == 0:
                raise InvalidRequest(f"timeout must be positive, not {timeout}", code=1)
            invoke(lib.courier_request_set_timeout_ms, request, milliseconds)
        if json is not None:
            try:
                text = jsonlib.dumps(json, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError) as error:
                raise InvalidRequest(f"json is not serializable: {error}", code=4) from error
            invoke(lib.courier_request_set_body_json, request, encode(text, "the JSON body"))
        elif content is not None:
            _set_content(request, content)
        elif files is not None:
            for name, value in _pairs(data, "data"):
                invoke(lib.courier_request_add_multipart_field, request, encode(str(name), "a form name"),
                       encode(str(value), "a form value"))
            for name, value in _pairs(files, "files"):
                _add_file_part(request, encode(str(name), "a file field name"), value)
        elif data is not None:
            for name, value in _pairs(data, "data"):
                invoke(lib.courier_request_add_form_field, request, encode(str(name), "a form name"),
                       encode(str(value) if not isinstance(value, (str, bytes)) else value, "a form value"))
    except BaseException:
        lib.courier_request_free(request)
        raise
    return request


def _set_content(request: Any, content: Any) -> None:
    if isinstance(content, str):
        body = encode(content, "the body")
        invoke(lib.courier_request_set_body_bytes, request, body, len(body), b"text/plain; charset=utf-8")
    elif isinstance(content, (bytes, bytearray, memoryview)):
        body = bytes(content)
        invoke(lib.courier_request_set_body_bytes, request, body, len(body), NULL)
    elif isinstance(content, os.PathLike):
        invoke(lib.courier_request_set_body_file, request, encode(os.fspath(content), "the body's path"), NULL)
    elif hasattr(content, "read") or isinstance(content, Iterable):
        source = _BodySource(content)
        user_data = handles.add(source)
        box = ffi.new("courier_error **")
        code = lib.courier_request_set_body_callback(request, _read_trampoline, user_data, _release_trampoline,
                                                     -1, NULL, box)
        if code:
            handles.pop(user_data)
            check(code, box)
    else:
        raise TypeError(f"content must be bytes, str, a path, a binary file or an iterable of bytes, "
                        f"not {type(content).__name__}")


class _BodySource:
    """A one-shot request body read from a binary file object or an iterable of bytes."""

    def __init__(self, content: Any) -> None:
        self._file = content if hasattr(content, "read") else None
        self._chunks = None if self._file is not None else iter(content)
        self._pending = b""

    def read(self, capacity: int) -> bytes:
        if self._file is not None:
            data = self._file.read(capacity)
            if isinstance(data, str):
                raise TypeError("a file body must be opened in binary mode")
            return bytes(data or b"")
        while not self._pending:
            chunk = next(self._chunks, None)  # type: ignore[arg-type]
            if chunk is None:
                return b""
            self._pending = chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
        data, self._pending = self._pending[:capacity], self._pending[capacity:]
        return data


@ffi.callback("courier_read_fn", error=-1)
def _read_trampoline(user_data: Any, buffer: Any, capacity: int) -> int:
    source = handles.get(user_data)
    if source is None:
        return -1
    try:
        data = source.read(capacity)
    except Exception:  # noqa: BLE001 - aborts the send with COURIER_E_ENCODING
        return -1
    ffi.memmove(buffer, data, len(data))
    return len(data)


@ffi.callback("courier_destroy_fn")
def _release_trampoline(user_data: Any) -> None:
    handles.pop(user_data)


def _lines(pointer: Any, count_function: Any, at_function: Any) -> Headers:
    """Header lines read with NULL error boxes: these readers fail only for a dead handle."""
    count = ffi.new("size_t *")
    if count_function(pointer, count, NULL):
        raise ClosedError("the handle is no longer valid", code=2)
    name = ffi.new("const char **")
    value = ffi.new("const char **")
    lines = []
    string = ffi.string
    for index in range(count[0]):
        if at_function(pointer, index, name, value, NULL):
            raise ClosedError("the handle is no longer valid", code=2)
        lines.append((string(name[0]).decode("utf-8", "replace"), string(value[0]).decode("utf-8", "replace")))
    headers = Headers()
    headers._items = lines
    return headers


def request_headers(request: Any) -> Headers:
    return _lines(request, lib.courier_request_header_count, lib.courier_request_header_at)


def snapshot_request(request: Any) -> Request:
    """A Python copy of a courier_request's method, URL and headers."""
    method = ffi.new("const char **")
    url = ffi.new("const char **")
    invoke(lib.courier_request_method, request, method)
    invoke(lib.courier_request_url, request, url)
    return Request(_string(method[0]), _string(url[0]), request_headers(request))


def response_headers(response: Any) -> Headers:
    return _lines(response, lib.courier_response_header_count, lib.courier_response_header_at)


def response_body(response: Any) -> bytes:
    data = ffi.new("const void **")
    length = ffi.new("size_t *")
    invoke(lib.courier_response_body, response, data, length)
    return ffi.buffer(data[0], length[0])[:] if length[0] else b""


class _OutParameters(threading.local):
    """One thread's out-parameters for a send (blocking or not) and the reads after it, made once.

    A send from a callback on this thread (refused with COURIER_E_WOULD_BLOCK) ends before the
    call it interrupts returns, and every call's outputs are read right after that call, so the
    two never see each other's values.
    """

    def __init__(self) -> None:
        self.response = ffi.new("courier_response **")
        self.call = ffi.new("courier_call **")
        self.error = ffi.new("courier_error **")
        self.status = ffi.new("int *")
        self.data = ffi.new("const void **")
        self.length = ffi.new("size_t *")


out_parameters = _OutParameters()
_status = lib.courier_response_status
_body = lib.courier_response_body
_buffer = ffi.buffer


def received_response(response: Any, request: Request | None, elapsed: datetime.timedelta | float,
                      shares_request: bool = False) -> Response:
    """A Response that owns `response`: the status and body copied now, the URL and headers on
    first use (Response._materialize calls take_head). Frees the handle when it cannot be read.
    Allocates nothing for the reads (see _OutParameters): a blocking send makes one per request."""
    out = out_parameters
    if _status(response, out.status, NULL) or _body(response, out.data, out.length, NULL):
        lib.courier_response_free(response)
        raise ClosedError("the response handle is no longer valid", code=2)
    length = out.length[0]
    return Response._received(out.status[0], _buffer(out.data[0], length)[:] if length else b"", response,
                              take_head, request, elapsed, shares_request)


def copy_response(response: Any, request: Request | None, elapsed: datetime.timedelta | None,
                  take: bool = False) -> Response:
    """A Python Response with the status and body copied out of a courier_response.

    With `take`, the Response owns the handle (received_response); without, everything is
    copied now and the caller still owns the handle.
    """
    if take:
        return received_response(response, request, elapsed if elapsed is not None else datetime.timedelta(0))
    status = ffi.new("int *")
    invoke(lib.courier_response_status, response, status)
    copied = Response(status[0], request=request, elapsed=elapsed)
    copied._content = response_body(response)
    copied._set_head(*read_head(response))
    return copied


def read_head(response: Any) -> ResponseHead:
    """The URL ("" when the library reports none), header lines, redirect history and metrics of
    `response`."""
    url = ffi.new("const char **")
    url_text = _string(url[0]) if lib.courier_response_url(response, url, NULL) == 0 else ""
    return url_text, response_headers(response), response_history(response), response_metrics(response)


def response_metrics(response: Any) -> Metrics | None:
    """The timings and connection facts of `response` in seconds (courier_metrics has
    microseconds, -1 for what was not measured); None when the library is older than ABI 1.4."""
    if abi_minor < 4:
        return None
    metrics = ffi.new("courier_metrics *")
    metrics.struct_size = ffi.sizeof("courier_metrics")
    invoke(lib.courier_response_metrics, response, metrics)

    def seconds(microseconds: int) -> float | None:
        return None if microseconds < 0 else microseconds / 1_000_000

    def count(value: int) -> int | None:
        return None if value < 0 else value

    def text(pointer: Any) -> str | None:
        return None if pointer == NULL else _string(pointer)

    return Metrics(
        queued=seconds(metrics.queued_us), dns=seconds(metrics.dns_us), connect=seconds(metrics.connect_us),
        tls=seconds(metrics.tls_us), send=seconds(metrics.send_us), wait=seconds(metrics.wait_us),
        receive=seconds(metrics.receive_us), total=seconds(metrics.total_us),
        redirect=seconds(metrics.redirect_us), redirect_count=metrics.redirect_count,
        reused_connection=None if metrics.reused_connection < 0 else bool(metrics.reused_connection),
        remote_address=text(metrics.remote_address), remote_port=count(metrics.remote_port),
        http_version=text(metrics.http_version), tls_version=text(metrics.tls_version),
        request_bytes=count(metrics.request_bytes), response_bytes=count(metrics.response_bytes),
        decoded_body_bytes=count(metrics.decoded_body_bytes),
    )


def take_head(response: Any) -> ResponseHead:
    """read_head, then frees `response`, even when reading it failed: what a Response built by
    received_response calls on the first read of its URL or headers."""
    try:
        return read_head(response)
    finally:
        lib.courier_response_free(response)


def response_history(response: Any) -> list[Response] | None:
    """Copies of the redirect responses that led to `response`; None when the library is older
    than ABI 1.3 and cannot say (Response.history then raises Unsupported)."""
    if abi_minor < 3:
        return None
    count = ffi.new("size_t *")
    invoke(lib.courier_response_history_count, response, count)
    history = []
    for index in range(count[0]):
        hop = ffi.new("courier_response **")
        invoke(lib.courier_response_history_at, response, index, hop)
        try:
            history.append(copy_response(hop[0], None, None))
        finally:
            lib.courier_response_free(hop[0])
    return history


def free_garbage() -> None:
    """Frees the handles of Responses collected unread (see _models.garbage)."""
    while garbage:
        try:
            handle = garbage.pop()
        except IndexError:
            return
        lib.courier_response_free(handle)


def new_response(response: Response) -> Any:
    """A new courier_response * from a Python Response; the caller owns it."""
    box = ffi.new("courier_response **")
    invoke(lib.courier_response_new, int(response.status_code), box)
    pointer = box[0]
    try:
        for name, value in response.headers.multi_items():
            invoke(lib.courier_response_add_header, pointer, encode(name, "a header name"),
                   encode(value, f"the value of header {name!r}"))
        body = response.content
        if body:
            invoke(lib.courier_response_set_body, pointer, body, len(body))
    except BaseException:
        lib.courier_response_free(pointer)
        raise
    return pointer
