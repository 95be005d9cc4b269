"""Client, AsyncClient and streaming responses over courier_client."""
from __future__ import annotations

import asyncio
import atexit
import codecs
import collections
import datetime
import os
import queue
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable, TypedDict, Union

if TYPE_CHECKING:
    from typing_extensions import Unpack

from ._courier_cffi import ffi
from ._errors import (
    ClosedError,
    CourierError,
    InvalidRequest,
    PluginError,
    StreamError,
    check,
    encode,
    from_error,
    invoke,
)
from ._exchange import EventHooks, register
from ._handles import handles
from ._lib import lib
from ._models import Headers, HeaderTypes, Request, Response
from ._native import QueryTypes, build_request, copy_response, free_garbage, milliseconds_of, snapshot_request

NULL = ffi.NULL
_TRANSPORTS = {"curl": 0, "ahc": 1, "async-http-client": 1}


class Plugin:
    """A C plugin to load into a client, in its place in the interceptor chain: Plugin(path, config)."""

    def __init__(self, path: str | os.PathLike[str], config: str | None = None) -> None:
        self.path = os.fspath(path)
        self.config = config
        self.name: str | None = None
        self.version: str | None = None
        self._handle: Any = None

    def unload(self) -> None:
        """Removes the plugin's interceptors from its client (the shared object stays mapped)."""
        if self._handle is None:
            raise PluginError("the plugin is not loaded", code=15)
        handle, self._handle = self._handle, None
        try:
            invoke(lib.courier_plugin_unload, handle)
        finally:
            lib.courier_plugin_free(handle)

    def __repr__(self) -> str:
        return f"<Plugin {self.name or self.path} {self.version or ''}>".replace(" >", ">")


class RequestOptions(TypedDict, total=False):
    """The per-request keyword arguments of request(), get(), post() and the others."""

    params: QueryTypes
    headers: HeaderTypes
    json: Any
    data: Any
    form: Any
    files: Any
    content: Any
    auth: tuple[str, str]
    bearer: str
    timeout: float
    cookies: Mapping[str, str]


InterceptorTypes = Sequence[Union[Any, Plugin, tuple[str, Union[str, None]]]]

# Every live courier_client, so that interpreter exit frees them; and calls under way, so that
# exit cancels them first. Clients dropped without close() are queued here by __del__ (which
# never calls the library) and freed on the next ordinary call.
_registry_lock = threading.RLock()  # re-entrant: __del__ may run while this thread holds it
_live_clients: dict[int, Any] = {}
_dropped: list[Any] = []
_in_flight: set[Any] = set()
_dropped_calls: list[Any] = []
_dropped_requests: list[Any] = []


def _free_dropped() -> None:
    with _registry_lock:
        dropped = _dropped[:]
        _dropped.clear()
        calls = [state for state in _dropped_calls if state.done.is_set()]
        _dropped_calls[:] = [state for state in _dropped_calls if not state.done.is_set()]
        requests = _dropped_requests[:]
        _dropped_requests.clear()
    for request in requests:
        lib.courier_request_free(request)
    for state in calls:
        state.release()
    for pointer in dropped:
        lib.courier_client_free(pointer)


@atexit.register
def _shutdown() -> None:
    with _registry_lock:
        calls = list(_in_flight)
    for send in calls:
        send.cancel()
    for send in calls:
        send.wait(5.0)
    with _registry_lock:
        clients = list(_live_clients.values()) + _dropped
        _live_clients.clear()
        _dropped.clear()
    for pointer in clients:
        lib.courier_client_free(pointer)


class _ClientCore:
    """Options shared by Client and AsyncClient, and the courier_client they own."""

    def __init__(
        self,
        *,
        base_url: str | None,
        headers: HeaderTypes,
        timeout: float | None,
        connect_timeout: float | None,
        follow_redirects: bool,
        max_redirects: int,
        max_body_bytes: int | None,
        verify: bool,
        transport: str,
        callback_threads: int | None,
        interceptors: InterceptorTypes,
        plugins: Sequence[tuple[str | os.PathLike[str], str | None]],
        event_hooks: Mapping[str, Sequence[Callable[[Any], Any]]] | None,
    ) -> None:
        _free_dropped()
        if transport not in _TRANSPORTS:
            raise InvalidRequest(f"transport must be 'curl' or 'ahc', not {transport!r}", code=1)
        if base_url is not None:
            encode(base_url, "base_url")
        self.base_url = base_url
        self.headers = Headers(headers)
        self.plugins: list[Plugin] = []
        self._local = threading.local()
        self._cached: set[Any] = set()
        options = ffi.new("courier_client_options *")
        lib.courier_client_options_init(options)
        options.transport = _TRANSPORTS[transport]
        options.timeout_ms = 0 if timeout is None else _milliseconds(timeout, "timeout")
        if connect_timeout is not None:
            options.connect_timeout_ms = _milliseconds(connect_timeout, "connect_timeout")
        options.follow_redirects = 1 if follow_redirects else 0
        options.max_redirects = _int32(max_redirects, "max_redirects")
        if max_body_bytes is not None:
            if isinstance(max_body_bytes, bool) or not isinstance(max_body_bytes, int):
                raise TypeError("max_body_bytes must be an int")
            if not 0 <= max_body_bytes < 2**63:
                raise InvalidRequest(f"max_body_bytes is out of range: {max_body_bytes}", code=1)
            options.max_body_bytes = max_body_bytes
        options.verify_tls = 1 if verify else 0
        if callback_threads is not None:
            options.callback_threads = _int32(callback_threads, "callback_threads")
        box = ffi.new("courier_client **")
        invoke(lib.courier_client_new, options, box)
        self.pointer = box[0]
        with _registry_lock:
            _live_clients[id(self)] = self.pointer
        try:
            for item in interceptors:
                if isinstance(item, Plugin):
                    self.load_plugin(item)
                elif isinstance(item, tuple):
                    self.load_plugin(Plugin(*item))
                else:
                    register(self.pointer, item)
            for path, config in plugins:
                self.load_plugin(Plugin(path, config))
            if event_hooks:
                unknown = set(event_hooks) - {"request", "response"}
                if unknown:
                    raise TypeError(f"event_hooks keys are 'request' and 'response', not {sorted(unknown)}")
                register(self.pointer, EventHooks(list(event_hooks.get("request", [])),
                                                  list(event_hooks.get("response", []))))
        except BaseException:
            self.close()
            raise

    def live(self) -> Any:
        pointer = self.pointer
        if pointer is None:
            raise ClosedError("the client is closed", code=2)
        return pointer

    def load_plugin(self, plugin: Plugin) -> Plugin:
        box = ffi.new("courier_plugin **")
        config = encode(plugin.config, "the plugin's config") if plugin.config is not None else NULL
        invoke(lib.courier_plugin_load, self.live(), encode(plugin.path, "the plugin's path"), config, box)
        plugin._handle = box[0]
        value = ffi.new("const char **")
        if lib.courier_plugin_name(box[0], value, NULL) == 0:
            plugin.name = ffi.string(value[0]).decode("utf-8", "replace")
        if lib.courier_plugin_version(box[0], value, NULL) == 0:
            plugin.version = ffi.string(value[0]).decode("utf-8", "replace")
        self.plugins.append(plugin)
        return plugin

    def close(self) -> None:
        with _registry_lock:
            pointer, self.pointer = self.pointer, None
            _live_clients.pop(id(self), None)
            cached, self._cached = self._cached, set()
        for request in cached:
            lib.courier_request_free(request)
        if pointer is not None:
            for plugin in self.plugins:
                if plugin._handle is not None:
                    lib.courier_plugin_free(plugin._handle)
                    plugin._handle = None
            lib.courier_client_free(pointer)

    def drop(self) -> None:
        """From __del__: hands the courier_client to the next ordinary call to free."""
        with _registry_lock:
            pointer, self.pointer = getattr(self, "pointer", None), None
            _live_clients.pop(id(self), None)
            if pointer is not None:
                _dropped.append(pointer)
            _dropped_requests.extend(getattr(self, "_cached", ()))
            self._cached = set()

    def build(self, method: str, url: str, kwargs: Mapping[str, Any]) -> Any:
        return build_request(method, url, base_url=self.base_url, default_headers=self.headers, **kwargs)

    def acquire(self, method: str, url: str, kwargs: Mapping[str, Any]) -> tuple[Any, Request, bool]:
        """The courier_request to send, its snapshot, and whether the caller must free it.

        A request with nothing but a method and a URL is built once per thread and reused (sends
        copy it): building one costs more than the rest of the Python side of a send. Only the
        thread that built it uses it; close() frees it, which the library allows mid-send.
        """
        if any(value is not None for value in kwargs.values()) or not isinstance(method, str) \
                or not isinstance(url, str):
            pointer = self.build(method, url, kwargs)
            try:
                return pointer, snapshot_request(pointer), True
            except BaseException:
                lib.courier_request_free(pointer)
                raise
        cache: dict[Any, tuple[Any, Request]] | None = getattr(self._local, "cache", None)
        if cache is None:
            cache = self._local.cache = {}
        key = (method, url, tuple(self.headers.multi_items()) if self.headers else ())
        entry = cache.get(key)
        if entry is None:
            pointer = self.build(method, url, kwargs)
            try:
                entry = (pointer, snapshot_request(pointer))
            except BaseException:
                lib.courier_request_free(pointer)
                raise
            with _registry_lock:
                closed = self.pointer is None
                if not closed:
                    self._cached.add(pointer)
            if closed:
                lib.courier_request_free(pointer)
                raise ClosedError("the client is closed", code=2)
            cache[key] = entry
            if len(cache) > 8:
                oldest = next(iter(cache))
                evicted, _ = cache.pop(oldest)
                with _registry_lock:
                    self._cached.discard(evicted)
                lib.courier_request_free(evicted)
        pointer, snapshot = entry
        return pointer, Request(snapshot.method, snapshot.url, snapshot.headers), False


def _milliseconds(seconds: float, what: str) -> int:
    return milliseconds_of(seconds, what)


def _int32(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    if not -(2**31) <= value < 2**31:
        raise InvalidRequest(f"{what} is out of range: {value}", code=1)
    return value


_CLIENT_DOC_ARGS = """
    base_url: resolves relative URLs (RFC 3986, like urljoin); headers: sent with every request;
    timeout: seconds for a whole exchange (None: no limit); follow_redirects; transport: "curl"
    (default) or "ahc"; interceptors: Python interceptors and Plugin(path, config) in chain order
    (first is outermost); plugins: (path, config) pairs loaded after them; event_hooks:
    {"request": [...], "response": [...]}.
"""


class _SendState:
    """One asynchronous send under way: the call handle, and what the completion settles."""

    def __init__(self, request: Request, on_done: Callable[[Response | CourierError], None]) -> None:
        self.request = request
        self.on_done = on_done
        self.lock = threading.Lock()
        self.call: Any = None
        self.done = threading.Event()
        self.started = time.perf_counter()
        self.sink: Callable[[bytes], int] | None = None
        self.sink_error: BaseException | None = None
        self.finished = False
        self.on_cancel: Callable[[], None] | None = None

    def attach(self, call: Any) -> None:
        with self.lock:
            self.call = call
        with _registry_lock:
            if not self.finished:
                _in_flight.add(self)

    def cancel(self) -> None:
        if self.on_cancel is not None:
            self.on_cancel()
        with self.lock:
            call = self.call
        if call is not None and not self.done.is_set():
            lib.courier_call_cancel(call, NULL)

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)

    def release(self) -> None:
        """Frees the call handle once the completion has run."""
        with self.lock:
            call, self.call = self.call, None
        if call is not None:
            lib.courier_call_free(call)

    def complete(self, response: Any, error: Any) -> None:
        elapsed = datetime.timedelta(seconds=time.perf_counter() - self.started)
        try:
            if response != NULL:
                outcome: Response | CourierError = copy_response(response, self.request, elapsed, take=True)
            else:
                outcome = from_error(error, self.request)
                if self.sink_error is not None:
                    outcome.__cause__ = self.sink_error
        except BaseException as failure:  # noqa: BLE001
            outcome = CourierError(f"cannot read the outcome: {failure}", request=self.request)
        finally:
            if error != NULL:
                lib.courier_error_free(error)
        with _registry_lock:
            self.finished = True
            _in_flight.discard(self)
        try:
            self.on_done(outcome)
        finally:
            self.done.set()


@ffi.callback("courier_completion_fn")
def _completion_trampoline(user_data: Any, response: Any, error: Any) -> None:
    state = handles.pop(user_data)
    if state is None:
        if response != NULL:
            lib.courier_response_free(response)
        if error != NULL:
            lib.courier_error_free(error)
        return
    state.complete(response, error)


@ffi.callback("courier_data_fn", error=1)
def _data_trampoline(user_data: Any, data: Any, length: int) -> int:
    state = handles.get(user_data)
    if state is None or state.sink is None:
        return 1
    try:
        return state.sink(ffi.buffer(data, length)[:])
    except BaseException as failure:  # noqa: BLE001 - aborts the download; the caller sees it
        state.sink_error = failure
        return 1


def _start(core: _ClientCore, request_pointer: Any, state: _SendState, streaming: bool) -> None:
    options = NULL
    user_data = handles.add(state)
    if streaming:
        options = ffi.new("courier_send_options *")
        lib.courier_send_options_init(options)
        options.on_data = _data_trampoline
        options.user_data = user_data
    call = ffi.new("courier_call **")
    box = ffi.new("courier_error **")
    try:
        code = lib.courier_client_send_async(core.live(), request_pointer, options, _completion_trampoline,
                                             user_data, call, box)
    except BaseException:
        handles.pop(user_data)
        raise
    if code:
        handles.pop(user_data)
        check(code, box, state.request)
    state.attach(call[0])


class _LineSplitter:
    """Splits text arriving in pieces into lines ended by \n or \r\n."""

    def __init__(self) -> None:
        self.buffer = ""

    def feed(self, text: str) -> list[str]:
        *complete, self.buffer = (self.buffer + text).split("\n")
        return [line[:-1] if line.endswith("\r") else line for line in complete]

    def finish(self) -> list[str]:
        rest, self.buffer = self.buffer, ""
        return [rest[:-1] if rest.endswith("\r") else rest] if rest else []


def _lines(texts: Iterator[str]) -> Iterator[str]:
    splitter = _LineSplitter()
    for text in texts:
        yield from splitter.feed(text)
    yield from splitter.finish()


class _Pipe:
    """Carries a streamed body from on_data (a library thread) to the reader, with backpressure.

    It holds no reference to the StreamingResponse, so a response nobody closes can be collected,
    and its __del__ closes the pipe: on_data then aborts the download.
    """

    def __init__(self, max_chunks: int) -> None:
        self.chunks: queue.Queue[Any] = queue.Queue(maxsize=max_chunks)
        self.closed = threading.Event()
        self.outcome: Response | CourierError | None = None

    def put(self, chunk: bytes) -> int:
        while not self.closed.is_set():
            try:
                self.chunks.put(chunk, timeout=0.05)
                return 0
            except queue.Full:
                continue
        return 1

    def settle(self, outcome: Response | CourierError) -> None:
        self.outcome = outcome
        while not self.closed.is_set():
            try:
                self.chunks.put(None, timeout=0.05)
                return
            except queue.Full:
                continue


class StreamingResponse:
    """A response whose body arrives chunk by chunk (Client.stream).

    Courier's C ABI delivers the status and headers when the body has ended, so `status_code`,
    `headers` and `url` are available once `iter_bytes()` has run to the end (or after `read()`).
    """

    def __init__(self, core: _ClientCore, request_pointer: Any, request: Request, max_chunks: int) -> None:
        self.request = request
        self._consumed = False
        pipe = _Pipe(max_chunks)
        self._pipe = pipe
        self._state = _SendState(request, pipe.settle)
        self._state.sink = pipe.put
        self._state.on_cancel = pipe.closed.set
        _start(core, request_pointer, self._state, streaming=True)

    def iter_bytes(self) -> Iterator[bytes]:
        """The body's chunks as they arrive; raises the send's error at the end if it failed."""
        if self._consumed:
            raise StreamError("the body has already been read", code=18)
        self._consumed = True
        while True:
            chunk = self._pipe.chunks.get()
            if chunk is None:
                break
            yield chunk
        if isinstance(self._pipe.outcome, CourierError):
            raise self._pipe.outcome

    def read(self) -> bytes:
        """Reads the rest of the body into memory and returns it."""
        return b"".join(self.iter_bytes())

    def iter_text(self, encoding: str = "utf-8") -> Iterator[str]:
        """The body decoded incrementally (invalid bytes replaced)."""
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        for chunk in self.iter_bytes():
            text = decoder.decode(chunk)
            if text:
                yield text
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail

    def iter_lines(self, encoding: str = "utf-8") -> Iterator[str]:
        """The body's lines as they complete, without their line endings (\n or \r\n)."""
        return _lines(self.iter_text(encoding))

    def _head(self) -> Response:
        outcome = self._pipe.outcome
        if not self._state.done.is_set() or outcome is None or not self._consumed:
            raise StreamError("the status and headers arrive after the body: iterate iter_bytes() to the end "
                              "(or call read()) first", code=18)
        if isinstance(outcome, CourierError):
            raise outcome
        return outcome

    @property
    def status_code(self) -> int:
        return self._head().status_code

    @property
    def reason_phrase(self) -> str:
        return self._head().reason_phrase

    @property
    def headers(self) -> Headers:
        return self._head().headers

    @property
    def url(self) -> str:
        return self._head().url

    @property
    def elapsed(self) -> datetime.timedelta:
        return self._head().elapsed

    @property
    def is_success(self) -> bool:
        return self._head().is_success

    def raise_for_status(self) -> StreamingResponse:
        self._head().raise_for_status()
        return self

    def close(self) -> None:
        """Stops the download if it is still running and waits for the send to end."""
        self._pipe.closed.set()
        self._state.cancel()
        self._state.wait()
        self._state.release()

    def __enter__(self) -> StreamingResponse:
        return self

    def __del__(self) -> None:
        # Unblocks a download nobody reads (its on_data then aborts it); no library call here.
        pipe = getattr(self, "_pipe", None)
        if pipe is not None:
            pipe.closed.set()
        state = getattr(self, "_state", None)
        if state is not None and state.call is not None:
            with _registry_lock:
                _dropped_calls.append(state)

    def __exit__(self, *exc: object) -> None:
        self.close()


class _AsyncPipe:
    """Carries a streamed body from on_data (a library thread) to a coroutine, with backpressure:
    on_data waits while `max_chunks` chunks are unread; the reader is woken through the loop's inbox."""

    def __init__(self, max_chunks: int, inbox: _Inbox) -> None:
        self.inbox = inbox
        self.lock = threading.Lock()
        self.chunks: collections.deque[bytes] = collections.deque()
        self.room = threading.Semaphore(max_chunks)
        self.closed = threading.Event()
        self.ended = False
        self.outcome: Response | CourierError | None = None
        self.waiter: asyncio.Future[None] | None = None

    def _wake(self) -> None:
        with self.lock:
            waiter, self.waiter = self.waiter, None
        if waiter is not None:
            def resume() -> None:
                if not waiter.done():
                    waiter.set_result(None)
            self.inbox.put(resume)

    def put(self, chunk: bytes) -> int:
        while not self.room.acquire(timeout=0.05):
            if self.closed.is_set():
                return 1
        if self.closed.is_set():
            return 1
        with self.lock:
            self.chunks.append(chunk)
        self._wake()
        return 0

    def settle(self, outcome: Response | CourierError) -> None:
        with self.lock:
            self.outcome = outcome
            self.ended = True
        self._wake()

    async def next(self) -> bytes | None:
        while True:
            with self.lock:
                if self.chunks:
                    chunk = self.chunks.popleft()
                    self.room.release()
                    return chunk
                if self.ended:
                    return None
                waiter = self.waiter = asyncio.get_running_loop().create_future()
            await waiter


class AsyncStreamingResponse:
    """A response whose body arrives chunk by chunk (AsyncClient.stream); the status and headers
    are available once `aiter_bytes()` has run to the end, as for StreamingResponse."""

    def __init__(self, core: _ClientCore, request_pointer: Any, request: Request, max_chunks: int,
                 inbox: _Inbox) -> None:
        self.request = request
        self._consumed = False
        pipe = _AsyncPipe(max_chunks, inbox)
        self._pipe = pipe
        self._state = _SendState(request, pipe.settle)
        self._state.sink = pipe.put
        self._state.on_cancel = pipe.closed.set
        _start(core, request_pointer, self._state, streaming=True)

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body's chunks as they arrive; raises the send's error at the end if it failed."""
        if self._consumed:
            raise StreamError("the body has already been read", code=18)
        self._consumed = True
        while True:
            chunk = await self._pipe.next()
            if chunk is None:
                break
            yield chunk
        if isinstance(self._pipe.outcome, CourierError):
            raise self._pipe.outcome

    async def aread(self) -> bytes:
        """Reads the rest of the body into memory and returns it."""
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aiter_text(self, encoding: str = "utf-8") -> AsyncIterator[str]:
        """The body decoded incrementally (invalid bytes replaced)."""
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        async for chunk in self.aiter_bytes():
            text = decoder.decode(chunk)
            if text:
                yield text
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail

    async def aiter_lines(self, encoding: str = "utf-8") -> AsyncIterator[str]:
        """The body's lines as they complete, without their line endings."""
        splitter = _LineSplitter()
        async for text in self.aiter_text(encoding):
            for line in splitter.feed(text):
                yield line
        for line in splitter.finish():
            yield line

    def _head(self) -> Response:
        outcome = self._pipe.outcome
        if not self._pipe.ended or outcome is None or not self._consumed:
            raise StreamError("the status and headers arrive after the body: iterate aiter_bytes() to the end "
                              "(or await aread()) first", code=18)
        if isinstance(outcome, CourierError):
            raise outcome
        return outcome

    @property
    def status_code(self) -> int:
        return self._head().status_code

    @property
    def headers(self) -> Headers:
        return self._head().headers

    @property
    def url(self) -> str:
        return self._head().url

    def raise_for_status(self) -> AsyncStreamingResponse:
        self._head().raise_for_status()
        return self

    async def aclose(self) -> None:
        """Stops the download if it is still running and waits for the send to end."""
        self._pipe.closed.set()
        self._state.cancel()
        while not self._state.done.is_set():
            await asyncio.sleep(0.005)
        self._state.release()

    async def __aenter__(self) -> AsyncStreamingResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __del__(self) -> None:
        pipe = getattr(self, "_pipe", None)
        if pipe is not None:
            pipe.closed.set()
        state = getattr(self, "_state", None)
        if state is not None and state.call is not None:
            with _registry_lock:
                _dropped_calls.append(state)


class Client:
    __doc__ = "A synchronous HTTP client over Courier's pipeline; a context manager.\n" + _CLIENT_DOC_ARGS

    def __init__(
        self,
        *,
        base_url: str | None = None,
        headers: HeaderTypes = None,
        timeout: float | None = 60.0,
        connect_timeout: float | None = None,
        follow_redirects: bool = True,
        max_redirects: int = 10,
        max_body_bytes: int | None = None,
        verify: bool = True,
        transport: str = "curl",
        callback_threads: int | None = None,
        interceptors: InterceptorTypes = (),
        plugins: Sequence[tuple[str | os.PathLike[str], str | None]] = (),
        event_hooks: Mapping[str, Sequence[Callable[[Any], Any]]] | None = None,
    ) -> None:
        self._core = _ClientCore(
            base_url=base_url, headers=headers, timeout=timeout, connect_timeout=connect_timeout,
            follow_redirects=follow_redirects, max_redirects=max_redirects, max_body_bytes=max_body_bytes,
            verify=verify, transport=transport, callback_threads=callback_threads,
            interceptors=interceptors, plugins=plugins, event_hooks=event_hooks,
        )

    @property
    def headers(self) -> Headers:
        """Headers sent with every request."""
        return self._core.headers

    @property
    def is_closed(self) -> bool:
        return self._core.pointer is None

    def add_interceptor(self, interceptor: Any) -> None:
        """Appends a Python interceptor to the chain (sends under way keep theirs)."""
        register(self._core.live(), interceptor)

    def remove_interceptor(self, name: str) -> None:
        """Removes the interceptors named `name`."""
        invoke(lib.courier_client_remove_interceptor, self._core.live(), encode(name, "the name"))

    def load_plugin(self, path: str | os.PathLike[str], config: str | None = None) -> Plugin:
        """Loads a C plugin; its interceptors join the end of the chain. PluginError on failure."""
        return self._core.load_plugin(Plugin(path, config))

    def request(self, method: str, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        """Sends a request and returns the whole response. Any status is a success."""
        free_garbage()
        pointer, snapshot, owned = self._core.acquire(method, url, kwargs)
        try:
            response = ffi.new("courier_response **")
            box = ffi.new("courier_error **")
            started = time.perf_counter()
            code = lib.courier_client_send(self._core.live(), pointer, response, box)
            elapsed = datetime.timedelta(seconds=time.perf_counter() - started)
            if code:
                check(code, box, snapshot)
            return copy_response(response[0], snapshot, elapsed, take=True)
        finally:
            if owned:
                lib.courier_request_free(pointer)

    def stream(self, method: str, url: str, *, max_buffered_chunks: int = 16, **kwargs: Unpack[RequestOptions]) -> StreamingResponse:
        """Starts a request whose body is read in chunks: `with client.stream(...) as r:`."""
        _free_dropped()
        pointer = self._core.build(method, url, kwargs)
        try:
            return StreamingResponse(self._core, pointer, snapshot_request(pointer), max_buffered_chunks)
        finally:
            lib.courier_request_free(pointer)

    def download(self, url: str, path: str | os.PathLike[str], *, method: str = "GET", **kwargs: Unpack[RequestOptions]) -> Response:
        """Streams the body into the file `path` without holding it in memory.

        The file is written as `path` + ".part" and renamed once a 2xx body is complete; any
        other status raises HTTPStatusError and leaves no file. Returns the response (empty content).
        """
        target = Path(path)
        partial = target.with_name(target.name + ".part")
        try:
            with open(partial, "wb") as file, self.stream(method, url, **kwargs) as response:
                for chunk in response.iter_bytes():
                    file.write(chunk)
                head = response._head()
            head.raise_for_status()
            os.replace(partial, target)
            return head
        finally:
            if partial.exists():
                partial.unlink()

    def get(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("GET", url, **kwargs)

    def head(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("HEAD", url, **kwargs)

    def options(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("OPTIONS", url, **kwargs)

    def delete(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("DELETE", url, **kwargs)

    def post(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("POST", url, **kwargs)

    def put(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("PUT", url, **kwargs)

    def patch(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self.request("PATCH", url, **kwargs)

    def close(self) -> None:
        """Frees the client; sends under way complete first."""
        self._core.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def __del__(self) -> None:
        core = getattr(self, "_core", None)
        if core is not None:
            core.drop()


class AsyncClient:
    __doc__ = ("An asyncio HTTP client on courier_client_send_async: no thread per send; cancelling "
               "the task cancels the transfer.\n" + _CLIENT_DOC_ARGS)

    def __init__(self, **kwargs: Any) -> None:
        defaults: dict[str, Any] = dict(
            base_url=None, headers=None, timeout=60.0, connect_timeout=None, follow_redirects=True,
            max_redirects=10, max_body_bytes=None, verify=True, transport="curl", callback_threads=None,
            interceptors=(), plugins=(), event_hooks=None,
        )
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"AsyncClient() got unexpected arguments {sorted(unknown)}")
        defaults.update(kwargs)
        self._core = _ClientCore(**defaults)

    @property
    def headers(self) -> Headers:
        return self._core.headers

    @property
    def is_closed(self) -> bool:
        return self._core.pointer is None

    def add_interceptor(self, interceptor: Any) -> None:
        register(self._core.live(), interceptor)

    def load_plugin(self, path: str | os.PathLike[str], config: str | None = None) -> Plugin:
        return self._core.load_plugin(Plugin(path, config))

    async def request(self, method: str, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        """Sends a request; the completion settles the awaited future from a library thread."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Response] = loop.create_future()
        free_garbage()
        pointer, snapshot, owned = self._core.acquire(method, url, kwargs)
        try:
            inbox = _inbox(loop)
            state = _SendState(snapshot, lambda outcome: _post(inbox, future, state, outcome))
            _start(self._core, pointer, state, streaming=False)
        finally:
            if owned:
                lib.courier_request_free(pointer)
        try:
            return await future
        except asyncio.CancelledError:
            state.cancel()
            raise

    def stream(self, method: str, url: str, *, max_buffered_chunks: int = 16,
               **kwargs: Unpack[RequestOptions]) -> AsyncStreamingResponse:
        """Starts a request whose body is read in chunks: `async with client.stream(...) as r:`.

        Must be called from a running event loop; the download starts at once and pauses when
        `max_buffered_chunks` chunks wait unread.
        """
        _free_dropped()
        loop = asyncio.get_running_loop()
        pointer = self._core.build(method, url, kwargs)
        try:
            return AsyncStreamingResponse(self._core, pointer, snapshot_request(pointer), max_buffered_chunks,
                                          _inbox(loop))
        finally:
            lib.courier_request_free(pointer)

    async def get(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("GET", url, **kwargs)

    async def head(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("HEAD", url, **kwargs)

    async def options(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("OPTIONS", url, **kwargs)

    async def delete(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("DELETE", url, **kwargs)

    async def post(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("POST", url, **kwargs)

    async def put(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("PUT", url, **kwargs)

    async def patch(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return await self.request("PATCH", url, **kwargs)

    async def aclose(self) -> None:
        """Frees the client off the event loop (the library lets sends under way finish)."""
        await asyncio.get_running_loop().run_in_executor(None, self._core.close)

    def close(self) -> None:
        self._core.close()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __del__(self) -> None:
        core = getattr(self, "_core", None)
        if core is not None:
            core.drop()


class _Inbox:
    """Outcomes waiting for one event loop: a completion wakes the loop only when the inbox was
    empty, so many sends finishing together cost one call_soon_threadsafe, not one each."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = threading.Lock()
        self.items: list[Callable[[], None]] = []

    def put(self, item: Callable[[], None]) -> bool:
        with self.lock:
            self.items.append(item)
            if len(self.items) > 1:
                return True
        try:
            self.loop.call_soon_threadsafe(self.drain)
        except RuntimeError:
            with self.lock:
                self.items.clear()
            return False
        return True

    def drain(self) -> None:
        with self.lock:
            items, self.items = self.items, []
        for item in items:
            item()


_inboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox] = weakref.WeakKeyDictionary()
_inboxes_lock = threading.Lock()


def _inbox(loop: asyncio.AbstractEventLoop) -> _Inbox:
    with _inboxes_lock:
        inbox = _inboxes.get(loop)
        if inbox is None:
            inbox = _inboxes[loop] = _Inbox(loop)
        return inbox


def _post(inbox: _Inbox, future: asyncio.Future[Response], state: _SendState,
          outcome: Response | CourierError) -> None:
    """From the completion's thread: settle the future on its loop, then free the call handle."""
    def settle() -> None:
        state.release()
        if future.done():
            return
        if isinstance(outcome, CourierError):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    if not inbox.put(settle):
        state.release()
