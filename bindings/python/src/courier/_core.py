"""The courier_client a Client or AsyncClient owns, its options and plugins.

What every client shares with the others (the registry freed at exit) is _registry's.
"""
from __future__ import annotations

import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any, Callable, TypedDict, Union

from . import _options as connection_options
from ._calls import encode, invoke
from ._cookie_jar import CookieTypes, cookie_header_items
from ._cookies import ClientCookies
from ._courier_cffi import ffi
from ._errors import ClosedError, InvalidRequest, PluginError, Unsupported
from ._exchange import EventHooks, register
from ._lib import abi_minor, lib, library_path, new_struct
from ._models import Headers, HeaderTypes, Request
from ._native import QueryTypes, build_request, milliseconds_of, snapshot_request
from ._option_types import CertTypes, Limits
from ._pump import CompletionPump
from ._registry import _dropped, _dropped_requests, _free_dropped, _live_clients, _registry_lock

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
    cookies: CookieTypes


InterceptorTypes = Sequence[Union[Any, Plugin, tuple[str, Union[str, None]]]]


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
        verify: bool | str | os.PathLike[str],
        transport: str,
        callback_threads: int | None,
        interceptors: InterceptorTypes,
        plugins: Sequence[tuple[str | os.PathLike[str], str | None]],
        event_hooks: Mapping[str, Sequence[Callable[[Any], Any]]] | None,
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
        queue_completions: bool = False,
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
        options = new_struct("courier_client_options")
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
        kept = connection_options.apply(
            options, proxy=proxy, no_proxy=no_proxy, trust_env=trust_env, verify=verify, cert=cert,
            http_version=http_version, min_tls_version=min_tls_version, limits=limits, decompress=decompress,
            cookie_file=cookie_file, uds=uds, resolve=resolve, connect_to=connect_to,
            pinned_public_keys=pinned_public_keys)
        if callback_threads is not None:
            options.callback_threads = _int32(callback_threads, "callback_threads")
        options.queue_completions = 1 if queue_completions else 0
        if abi_minor >= 3:
            options.keep_cookies = 1
        elif cookies is not None:
            raise Unsupported(f"cookies= needs libcourier ABI 1.3 or later; {library_path} has 1.{abi_minor}", code=18)
        box = ffi.new("courier_client **")
        invoke(lib.courier_client_new, options, box)
        del kept  # the library has copied the strings
        self.pointer = box[0]
        with _registry_lock:
            _live_clients[id(self)] = self.pointer
        self.pump: CompletionPump | None = None
        self.cookies = ClientCookies(self.live)
        try:
            if queue_completions:
                self.pump = CompletionPump(lambda: self.pointer)
            self.cookies.update(cookies)
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
        if self.pump is not None:
            self.pump.stop()
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
        pump = getattr(self, "pump", None)
        if pump is not None:
            pump.stop(deferred=True)

    def build(self, method: str, url: str, kwargs: Mapping[str, Any]) -> Any:
        if self.cookies.any_host_items:
            merged = {**dict(self.cookies.any_host_items), **cookie_header_items(kwargs.get("cookies"))}
            kwargs = {**kwargs, "cookies": merged}
        return build_request(method, url, base_url=self.base_url, default_headers=self.headers, **kwargs)

    def acquire(self, method: str, url: str, kwargs: Mapping[str, Any]) -> tuple[Any, Request, bool]:
        """The courier_request to send, its snapshot, and whether the caller owns both.

        A request with nothing but a method and a URL is built once per thread and reused (sends
        copy it): building one costs more than the rest of the Python side of a send. Only the
        thread that built it uses it; close() frees it, which the library allows mid-send. Its
        snapshot is the cache's own: copy it (`_copy()`) before anything outside may change it.
        """
        if (kwargs and any(value is not None for value in kwargs.values())) or type(method) is not str \
                or type(url) is not str:
            pointer = self.build(method, url, kwargs)
            try:
                return pointer, snapshot_request(pointer), True
            except BaseException:
                lib.courier_request_free(pointer)
                raise
        cache: dict[Any, tuple[Any, Request]] | None = getattr(self._local, "cache", None)
        if cache is None:
            cache = self._local.cache = {}
        key = (method, url, tuple(self.headers._items), self.cookies.any_host_items)
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
        return pointer, snapshot, False


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
    (default) or "ahc"; interceptors: Python interceptors, built-ins (courier.Retry(), courier.Logging(),
    courier.Validation(), courier.ConcurrencyLimit()) and Plugin(path, config) in chain order
    (first is outermost); plugins: (path, config) pairs loaded after them; event_hooks:
    {"request": [...], "response": [...]}.

    Connections, as httpx names them: proxy: "http://user:password@host:port" (https goes through
    CONNECT); no_proxy: hosts that go direct (NO_PROXY syntax, a string or a list); trust_env: read
    http_proxy, https_proxy, all_proxy and no_proxy as curl does (default True); verify: True,
    False, or a CA file or directory; cert: a PEM with certificate and key, (certificate, key) or
    (certificate, key, password); http_version: "auto", "1.1", "2" or "2-prior-knowledge";
    min_tls_version: "1.2", "1.3"...; limits: courier.Limits(...); decompress: ask for and decode
    compressed bodies (default True); cookie_file: a Netscape cookie file (curl's -b/-c) loaded
    now and written when the client closes; cookies: the client's first cookies (a dict,
    courier.Cookies or pairs). The client keeps every cookie servers set, in memory, as httpx's
    does: `client.cookies` reads and changes them. uds: a Unix domain socket every request goes
    over (httpx's HTTPTransport(uds=...), curl's --unix-socket); the URL's host names Host.
    resolve: ["host:port:address", ...] and connect_to: ["host:port:host2:port2", ...], curl's
    --resolve and --connect-to (the URL, Host and TLS name keep the host); pinned_public_keys:
    {"host": "sha256//..." or a list of them} ("*.domain" or "*" as patterns; curl transport
    only). With trust_env (the default), requests without credentials get the ~/.netrc (or
    $NETRC) entry for their host, as requests does; a redirect to another origin drops them.
"""
