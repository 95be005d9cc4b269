"""Client and AsyncClient over courier_client."""
from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from time import perf_counter
from types import TracebackType
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from typing_extensions import Unpack

from ._calls import check, encode, invoke
from ._cookie_jar import Cookies, CookieTypes
from ._errors import Unsupported
from ._core import _CLIENT_DOC_ARGS, InterceptorTypes, Plugin, RequestOptions, _ClientCore
from ._exchange import register
from ._interrupt import raise_if_interrupted, send_options
from ._lib import abi_minor, lib, library_path
from ._models import Headers, HeaderTypes, Response, garbage
from ._native import free_garbage, out_parameters, received_response, snapshot_request
from ._option_types import CertTypes, Limits
from ._registry import _dropped, _dropped_calls, _free_dropped, _in_flight, _live_clients
from ._sending import _inbox, _post, _SendState, _start
from ._streaming import AsyncStreamingResponse, StreamingResponse, _lines

__all__ = ["AsyncClient", "AsyncStreamingResponse", "Client", "Plugin", "RequestOptions", "StreamingResponse",
           "_dropped", "_dropped_calls", "_in_flight", "_lines", "_live_clients"]


class _ClientSurface:
    """What Client and AsyncClient share: the client's headers, cookies, chain and plugins."""

    _core: _ClientCore

    @property
    def headers(self) -> Headers:
        """Headers sent with every request."""
        return self._core.headers

    @property
    def cookies(self) -> Cookies:
        """The client's cookies: every one a server set, kept between requests, and those given."""
        return self._core.cookies

    @cookies.setter
    def cookies(self, cookies: CookieTypes) -> None:
        self._core.cookies.replace(cookies)

    @property
    def is_closed(self) -> bool:
        return self._core.pointer is None

    def add_interceptor(self, interceptor: Any) -> None:
        """Appends a Python interceptor or a built-in (courier.Retry(), ...) to the chain (sends under way keep theirs)."""
        register(self._core.live(), interceptor)

    def remove_interceptor(self, name: str) -> None:
        """Removes the interceptors named `name`."""
        invoke(lib.courier_client_remove_interceptor, self._core.live(), encode(name, "the name"))

    def load_plugin(self, path: str | os.PathLike[str], config: str | None = None) -> Plugin:
        """Loads a C plugin; its interceptors join the end of the chain. PluginError on failure."""
        return self._core.load_plugin(Plugin(path, config))


class Client(_ClientSurface):
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
        verify: bool | str | os.PathLike[str] = True,
        transport: str = "curl",
        callback_threads: int | None = None,
        interceptors: InterceptorTypes = (),
        plugins: Sequence[tuple[str | os.PathLike[str], str | None]] = (),
        event_hooks: Mapping[str, Sequence[Callable[[Any], Any]]] | None = None,
        proxy: str | None = None,
        no_proxy: str | Sequence[str] | None = None,
        trust_env: bool = True,
        cert: CertTypes | None = None,
        http_version: str = "auto",
        min_tls_version: str | None = None,
        limits: Limits | None = None,
        decompress: bool = True,
        cookie_file: str | os.PathLike[str] | None = None,
        cookies: CookieTypes = None,
        uds: str | os.PathLike[str] | None = None,
        resolve: Sequence[str] = (),
        connect_to: Sequence[str] = (),
        pinned_public_keys: Mapping[str, str | Sequence[str]] | None = None,
    ) -> None:
        self._core = _ClientCore(
            base_url=base_url, headers=headers, timeout=timeout, connect_timeout=connect_timeout,
            follow_redirects=follow_redirects, max_redirects=max_redirects, max_body_bytes=max_body_bytes,
            verify=verify, transport=transport, callback_threads=callback_threads,
            interceptors=interceptors, plugins=plugins, event_hooks=event_hooks,
            proxy=proxy, no_proxy=no_proxy, trust_env=trust_env, cert=cert, http_version=http_version,
            min_tls_version=min_tls_version, limits=limits, decompress=decompress, cookie_file=cookie_file,
            cookies=cookies, uds=uds, resolve=resolve, connect_to=connect_to,
            pinned_public_keys=pinned_public_keys,
        )


    def request(self, method: str, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        """Sends a request and returns the whole response. Any status is a success."""
        return self._send(method, url, kwargs)

    def _send(self, method: str, url: str, kwargs: Mapping[str, Any]) -> Response:
        """`request` with its options as one mapping: `get()` and the others pass theirs on as it is."""
        return self._blocking(lib.courier_client_send_with, (), method, url, kwargs)

    def _blocking(self, function: Any, arguments: tuple[Any, ...], method: str, url: str,
                  kwargs: Mapping[str, Any]) -> Response:
        """Runs a blocking call, `function(client, request, *arguments, options, response, error)`
        (courier_client_send_with, courier_client_download), on the request `kwargs` describe."""
        if garbage:
            free_garbage()
        core = self._core
        pointer, snapshot, owned = core.acquire(method, url, kwargs)
        try:
            out = out_parameters
            started = perf_counter()
            code = function(core.live(), pointer, *arguments, send_options(), out.response, out.error)
            elapsed = perf_counter() - started
            if code:
                raise_if_interrupted()
                check(code, out.error, snapshot if owned else snapshot._copy())
            return received_response(out.response[0], snapshot, elapsed, not owned)
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

    def download(self, url: str, path: str | os.PathLike[str], *, method: str = "GET", resume: bool = False,
                 **kwargs: Unpack[RequestOptions]) -> Response:
        """Streams the body into the file `path` without holding it in memory (courier_client_download).

        The body goes to `path` + ".part" until it is whole, then is renamed to `path`. A download
        that breaks off leaves the part; `resume=True` continues it, asking for the rest with
        Range and If-Range (a server that sends it all again starts it over), as `curl -C -`.
        A status other than 2xx raises HTTPStatusError and makes no file. Returns the response
        (empty content).
        """
        if abi_minor < 4:
            if resume:
                raise Unsupported(f"resume= needs libcourier ABI 1.4 or later; {library_path} has 1.{abi_minor}",
                                  code=18)
            return self._download_by_streaming(url, path, method, kwargs)
        return self._blocking(lib.courier_client_download, (encode(os.fspath(path), "path"), 1 if resume else 0),
                              method, url, kwargs)

    def _download_by_streaming(self, url: str, path: str | os.PathLike[str], method: str,
                               kwargs: Mapping[str, Any]) -> Response:
        """download() on a library older than ABI 1.4, which has no courier_client_download."""
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
        return self._send("GET", url, kwargs)

    def head(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self._send("HEAD", url, kwargs)

    def options(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self._send("OPTIONS", url, kwargs)

    def delete(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self._send("DELETE", url, kwargs)

    def post(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self._send("POST", url, kwargs)

    def put(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self._send("PUT", url, kwargs)

    def patch(self, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        return self._send("PATCH", url, kwargs)

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


class AsyncClient(_ClientSurface):
    __doc__ = ("An asyncio HTTP client on courier_client_send_async: no thread per send; cancelling "
               "the task cancels the transfer.\n" + _CLIENT_DOC_ARGS)

    def __init__(self, **kwargs: Any) -> None:
        defaults: dict[str, Any] = dict(
            base_url=None, headers=None, timeout=60.0, connect_timeout=None, follow_redirects=True,
            max_redirects=10, max_body_bytes=None, verify=True, transport="curl", callback_threads=None,
            interceptors=(), plugins=(), event_hooks=None, proxy=None, no_proxy=None, trust_env=True,
            cert=None, http_version="auto", min_tls_version=None, limits=None, decompress=True, cookie_file=None,
            cookies=None, uds=None, resolve=(), connect_to=(), pinned_public_keys=None,
        )
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"AsyncClient() got unexpected arguments {sorted(unknown)}")
        defaults.update(kwargs)
        self._core = _ClientCore(**defaults, queue_completions=True)


    async def request(self, method: str, url: str, **kwargs: Unpack[RequestOptions]) -> Response:
        """Sends a request; the completion settles the awaited future from a library thread."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Response] = loop.create_future()
        if garbage:
            free_garbage()
        pointer, snapshot, owned = self._core.acquire(method, url, kwargs)
        try:
            pump = self._core.pump
            state = _SendState(snapshot, lambda outcome: _post(loop, future, state, outcome), pump,
                               shares_request=not owned)
            _start(self._core.live(), pointer, state, streaming=False)
        finally:
            if owned:
                lib.courier_request_free(pointer)
        if pump is not None:
            pump.watch(loop)
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
