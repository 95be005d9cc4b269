"""Python interceptors: live views of the exchange, and the trampolines the library calls.

One cffi callback per callback type is created once, here; `user_data` is a key in the handle
table. Each trampoline catches everything: a Python exception fails the send with
COURIER_E_INTERCEPTOR naming the interceptor, and the exception becomes the `__cause__` of the
InterceptorError the caller sees.
"""
from __future__ import annotations

import json as jsonlib
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

from ._builtins import Builtin
from ._calls import check, encode, from_error, invoke, remember
from ._courier_cffi import ffi
from ._errors import ClosedError, CourierError
from ._handles import ReleasedByTheLibrary, handles
from ._lib import lib, new_struct
from ._models import Headers, Response
from ._native import (
    _string,
    new_response,
    request_headers,
    response_body,
    response_headers,
)

NULL = ffi.NULL
CONTINUE, RESPOND, FAIL, RETRY = 0, 1, 2, 3
_MISBEHAVED = 99


class _Retry:
    """What `exchange.retry()` returns; returning it (or nothing, after calling retry) retries."""

    def __repr__(self) -> str:
        return "courier.RETRY"


RETRY_SENTINEL = _Retry()


class _Live:
    def __init__(self, exchange: Exchange) -> None:
        self._exchange = exchange

    def _pointer(self) -> Any:
        raise NotImplementedError

    def _check(self) -> None:
        if self._exchange._closed:
            raise ClosedError("an exchange view is live only while its interceptor callback runs", code=2)


class LiveHeaders(MutableMapping[str, str]):
    """The header fields of the request or response in a running exchange, edited in place."""

    def __init__(self, owner: Any, kind: str) -> None:
        self._owner = owner
        self._kind = kind

    def _call(self, name: str) -> Any:
        return getattr(lib, f"courier_{self._kind}_{name}")

    def snapshot(self) -> Headers:
        """A copy of the current lines."""
        pointer = self._owner._pointer()
        return request_headers(pointer) if self._kind == "request" else response_headers(pointer)

    def get_list(self, name: str) -> list[str]:
        return self.snapshot().get_list(name)

    def multi_items(self) -> list[tuple[str, str]]:
        return self.snapshot().multi_items()

    def add(self, name: str, value: str) -> None:
        invoke(self._call("add_header"), self._owner._pointer(), encode(name, "a header name"),
               encode(value, f"the value of header {name!r}"))

    def __getitem__(self, name: str) -> str:
        value = ffi.new("const char **")
        box = ffi.new("courier_error **")
        code = self._call("header")(self._owner._pointer(), encode(name, "a header name"), value, box)
        if code == 17:
            lib.courier_error_free(box[0])
            raise KeyError(name)
        if code:
            check(code, box)
        return _string(value[0])

    def __setitem__(self, name: str, value: str) -> None:
        invoke(self._call("set_header"), self._owner._pointer(), encode(name, "a header name"),
               encode(value, f"the value of header {name!r}"))

    def __delitem__(self, name: str) -> None:
        box = ffi.new("courier_error **")
        code = self._call("remove_header")(self._owner._pointer(), encode(name, "a header name"), box)
        if code == 17:
            lib.courier_error_free(box[0])
            raise KeyError(name)
        if code:
            check(code, box)

    def __iter__(self) -> Iterator[str]:
        return iter(self.snapshot())

    def __len__(self) -> int:
        return len(self.snapshot())

    def __repr__(self) -> str:
        return f"LiveHeaders({self.multi_items()!r})"


class RequestView(_Live):
    """The request of a running exchange: read and edit it in place."""

    def _pointer(self) -> Any:
        self._check()
        return self._exchange._request_pointer()

    @property
    def headers(self) -> LiveHeaders:
        return LiveHeaders(self, "request")

    @property
    def method(self) -> str:
        value = ffi.new("const char **")
        invoke(lib.courier_request_method, self._pointer(), value)
        return _string(value[0])

    @method.setter
    def method(self, method: str) -> None:
        invoke(lib.courier_request_set_method, self._pointer(), encode(method.upper(), "the method"))

    @property
    def url(self) -> str:
        value = ffi.new("const char **")
        invoke(lib.courier_request_url, self._pointer(), value)
        return _string(value[0])

    @url.setter
    def url(self, url: str) -> None:
        invoke(lib.courier_request_set_url, self._pointer(), encode(url, "the URL"))

    @property
    def content(self) -> bytes:
        """The body when it is in memory; CourierError (unsupported) for a file or stream body."""
        data = ffi.new("const void **")
        length = ffi.new("size_t *")
        invoke(lib.courier_request_body, self._pointer(), data, length)
        return ffi.buffer(data[0], length[0])[:] if length[0] else b""

    @content.setter
    def content(self, body: bytes) -> None:
        data = bytes(body)
        invoke(lib.courier_request_set_body_bytes, self._pointer(), data, len(data), NULL)

    def add_query(self, name: str, value: str | None = None) -> None:
        invoke(lib.courier_request_add_query, self._pointer(), encode(name, "a query name"),
               encode(value, "a query value") if value is not None else NULL)

    def __repr__(self) -> str:
        return "<RequestView (closed)>" if self._exchange._closed else f"<RequestView [{self.method} {self.url}]>"


class ResponseView(_Live):
    """The response of a running exchange: read and edit it in place."""

    def _pointer(self) -> Any:
        self._check()
        pointer = self._exchange._response_pointer()
        if pointer is None:
            raise CourierError("the exchange has no response yet", code=17)
        return pointer

    @property
    def headers(self) -> LiveHeaders:
        return LiveHeaders(self, "response")

    @property
    def status_code(self) -> int:
        status = ffi.new("int *")
        invoke(lib.courier_response_status, self._pointer(), status)
        return int(status[0])

    @status_code.setter
    def status_code(self, status: int) -> None:
        invoke(lib.courier_response_set_status, self._pointer(), int(status))

    @property
    def url(self) -> str:
        value = ffi.new("const char **")
        invoke(lib.courier_response_url, self._pointer(), value)
        return _string(value[0])

    @property
    def content(self) -> bytes:
        return response_body(self._pointer())

    @content.setter
    def content(self, body: bytes) -> None:
        data = bytes(body)
        invoke(lib.courier_response_set_body, self._pointer(), data, len(data))

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")

    def json(self) -> Any:
        return jsonlib.loads(self.content)

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    def __repr__(self) -> str:
        return "<ResponseView (closed)>" if self._exchange._closed else f"<ResponseView [{self.status_code}]>"


class Exchange:
    """One pass of a request through one interceptor; live only while its callback runs."""

    def __init__(self, pointer: Any, phase: str) -> None:
        self._exchange = pointer
        self.phase = phase
        self._closed = False
        self._retry = False
        self._request: Any = None
        self.request = RequestView(self)

    def _request_pointer(self) -> Any:
        if self._request is None:
            box = ffi.new("courier_request **")
            invoke(lib.courier_exchange_request, self._exchange, box)
            self._request = box[0]
        return self._request

    def _response_pointer(self) -> Any:
        box = ffi.new("courier_response **")
        error = ffi.new("courier_error **")
        code = lib.courier_exchange_response(self._exchange, box, error)
        if code == 17:
            lib.courier_error_free(error[0])
            return None
        if code:
            check(code, error)
        return box[0]

    @property
    def response(self) -> ResponseView | None:
        """The response once there is one (on_response, or around after call_next); else None."""
        if self._closed:
            raise ClosedError("an exchange is live only while its interceptor callback runs", code=2)
        return ResponseView(self) if self._response_pointer() is not None else None

    @property
    def attempt(self) -> int:
        """Which pass of this send is under way, from 1."""
        value = ffi.new("int *")
        invoke(lib.courier_exchange_attempt, self._exchange, value)
        return int(value[0])

    @property
    def request_id(self) -> str:
        """The identifier of this send, shared by all its passes."""
        value = ffi.new("const char **")
        invoke(lib.courier_exchange_request_id, self._exchange, value)
        return _string(value[0])

    def retry(self) -> _Retry:
        """From on_response: send the (possibly edited) request through the rest of the chain again."""
        if self.phase != "response":
            raise CourierError("retry() is allowed only in on_response", code=1)
        self._retry = True
        return RETRY_SENTINEL

    def __repr__(self) -> str:
        return f"<Exchange {self.phase}{' (closed)' if self._closed else ''}>"


class InterceptorEntry(ReleasedByTheLibrary):
    """What the handle table holds for one registered Python interceptor."""

    def __init__(self, interceptor: Any, name: str) -> None:
        self.interceptor = interceptor
        self.name = name


def _fail(exchange: Any, name: str, error: BaseException) -> int:
    if isinstance(error, CourierError) and getattr(error, "_from_proceed", False):
        code, text = error.code, error.message
    else:
        code = 14
        text = f"{type(error).__name__}: {error} {remember(error)}"
    data = text.encode("utf-8", "replace").replace(b"\0", b"?")
    if lib.courier_exchange_fail(exchange, code, data, NULL) != 0:
        return _MISBEHAVED
    return FAIL


def _finish(view: Exchange, name: str, result: Any) -> int:
    if result is RETRY_SENTINEL or (result is None and view._retry):
        return RETRY
    if result is None or isinstance(result, ResponseView):
        return CONTINUE
    if isinstance(result, Response):
        pointer = new_response(result)
        box = ffi.new("courier_error **")
        code = lib.courier_exchange_respond(view._exchange, pointer, box)
        if code:
            lib.courier_response_free(pointer)
            check(code, box)
        return RESPOND
    raise TypeError(f"an interceptor returns None, a courier.Response or exchange.retry(), not {type(result).__name__}")


def _run(user_data: Any, exchange: Any, phase: str) -> int:
    entry = handles.get(user_data)
    if entry is None:
        return _MISBEHAVED
    view = Exchange(exchange, phase)
    try:
        if phase == "request":
            result = entry.interceptor.on_request(view)
        elif phase == "response":
            result = entry.interceptor.on_response(view)
        else:
            def call_next(request: Any = None) -> ResponseView:
                box = ffi.new("courier_error **")
                code = lib.courier_exchange_proceed(exchange, box)
                if code:
                    try:
                        error = from_error(box[0])
                    finally:
                        lib.courier_error_free(box[0])
                    error._from_proceed = True  # type: ignore[attr-defined]
                    raise error
                return ResponseView(view)

            result = entry.interceptor.around(view.request, call_next)
        return _finish(view, entry.name, result)
    except BaseException as error:  # noqa: BLE001 - every failure fails the send, never the process
        try:
            return _fail(exchange, entry.name, error)
        except BaseException:  # noqa: BLE001
            return _MISBEHAVED
    finally:
        view._closed = True


@ffi.callback("courier_exchange_fn", error=_MISBEHAVED)
def _on_request_trampoline(user_data: Any, exchange: Any) -> int:
    return _run(user_data, exchange, "request")


@ffi.callback("courier_exchange_fn", error=_MISBEHAVED)
def _on_response_trampoline(user_data: Any, exchange: Any) -> int:
    return _run(user_data, exchange, "response")


@ffi.callback("courier_exchange_fn", error=_MISBEHAVED)
def _around_trampoline(user_data: Any, exchange: Any) -> int:
    return _run(user_data, exchange, "around")


@ffi.callback("courier_destroy_fn")
def _destroy_trampoline(user_data: Any) -> None:
    handles.pop(user_data)


def interceptor_name(interceptor: Any) -> str:
    name = getattr(interceptor, "name", None)
    return name if isinstance(name, str) and name else type(interceptor).__name__


def register(client: Any, interceptor: Any) -> str:
    """Appends a Python interceptor to a courier_client's chain; returns its name."""
    if isinstance(interceptor, Builtin):
        return interceptor._add_to(client)
    around = getattr(interceptor, "around", None)
    on_request = getattr(interceptor, "on_request", None)
    on_response = getattr(interceptor, "on_response", None)
    if around is None and on_request is None and on_response is None:
        raise TypeError(f"{interceptor!r} has none of on_request, on_response and around")
    if around is not None and (on_request is not None or on_response is not None):
        raise TypeError(f"{interceptor!r}: give either around or on_request/on_response, not both")
    name = interceptor_name(interceptor)
    struct = new_struct("courier_interceptor")
    name_c = ffi.new("char[]", encode(name, "the interceptor's name"))
    struct.name = name_c
    struct.on_request = _on_request_trampoline if on_request is not None else NULL
    struct.on_response = _on_response_trampoline if on_response is not None else NULL
    struct.around = _around_trampoline if around is not None else NULL
    user_data = handles.add(InterceptorEntry(interceptor, name))
    struct.user_data = user_data
    struct.destroy = _destroy_trampoline
    try:
        invoke(lib.courier_client_add_interceptor, client, struct)
    except BaseException:
        handles.pop(user_data)
        raise
    return name


class EventHooks:
    """httpx-style `event_hooks`: request hooks get the live request, response hooks the live response."""

    name = "event_hooks"

    def __init__(self, request: list[Callable[[Any], Any]], response: list[Callable[[Any], Any]]) -> None:
        self._request = list(request)
        self._response = list(response)
        if not self._request:
            self.on_request = None  # type: ignore[assignment]
        if not self._response:
            self.on_response = None  # type: ignore[assignment]

    def on_request(self, exchange: Exchange) -> None:
        for hook in self._request:
            hook(exchange.request)

    def on_response(self, exchange: Exchange) -> None:
        for hook in self._response:
            hook(exchange.response)

