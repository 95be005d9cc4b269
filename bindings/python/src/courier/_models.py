"""Headers, Request and Response: plain Python values copied out of the library's objects.

They know nothing of the library, as httpx's models know nothing of its transports: a Response
built from a library handle is given the function that reads the rest of that handle.
"""
from __future__ import annotations

import datetime
import json as jsonlib
import threading
from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, Callable, Union
from urllib.parse import urlsplit

from ._cookie_jar import Cookies, make_cookie
from ._errors import DecodingError, HTTPStatusError, Unsupported

HeaderTypes = Union["Headers", Mapping[str, str], Iterable[tuple[str, str]], None]
#: What a library response carries besides its status and body: the URL, the header lines, the
#: redirect history and the metrics (each None when the library is too old to report it).
ResponseHead = tuple[str, "Headers", Union["list[Response]", None], Union["Metrics", None]]


@dataclass(frozen=True)
class Metrics:
    """Where the time of one exchange went, and what its connection was (`Response.metrics`):
    what curl's `CURLINFO_*_TIME_T` and URLSession's task metrics give.

    Durations are in seconds; a phase the transport did not measure is None, never 0. A reused
    connection has no `dns`, `connect` or `tls` phase. Which phases each transport measures is in
    the Python README.
    """

    #: Waiting for a connection or a slot before anything was sent (HAR's `blocked`).
    queued: float | None = None
    #: Resolving the host name.
    dns: float | None = None
    #: The TCP connect, after the lookup.
    connect: float | None = None
    #: The TLS handshake, after the connect.
    tls: float | None = None
    #: Writing the request, head and body.
    send: float | None = None
    #: Waiting for the response's first byte after the request was sent.
    wait: float | None = None
    #: Receiving the body, from the response's first byte to its last.
    receive: float | None = None
    #: The whole exchange of this hop, from the transport's start to the body's end.
    total: float | None = None
    #: The time spent on redirects before this hop; None when none was followed.
    redirect: float | None = None
    #: How many redirects were followed to reach this response.
    redirect_count: int = 0
    #: Whether the exchange went over a connection an earlier one opened.
    reused_connection: bool | None = None
    #: The address the connection went to ("127.0.0.1", "::1").
    remote_address: str | None = None
    #: The port the connection went to.
    remote_port: int | None = None
    #: The HTTP version spoken: "1.0", "1.1", "2" or "3".
    http_version: str | None = None
    #: The TLS version negotiated ("TLSv1.3"); None for plain HTTP.
    tls_version: str | None = None
    #: Bytes written for the request, head and body.
    request_bytes: int | None = None
    #: Bytes received for the response, head and body, before content decoding.
    response_bytes: int | None = None
    #: Bytes of the body after content decoding.
    decoded_body_bytes: int | None = None

_REASONS = {
    100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
    203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content",
    206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
    303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden",
    404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout",
    409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed",
    413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type",
    416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a Teapot",
    422: "Unprocessable Content", 425: "Too Early", 426: "Upgrade Required",
    428: "Precondition Required", 429: "Too Many Requests",
    431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented",
    502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    505: "HTTP Version Not Supported",
}


class Headers(MutableMapping[str, str]):
    """Ordered, case-insensitive, multi-valued header fields; `h[name]` joins repeated lines."""

    def __init__(self, headers: HeaderTypes = None) -> None:
        self._items: list[tuple[str, str]] = []
        if headers is None:
            return
        items = headers.multi_items() if isinstance(headers, Headers) else (
            headers.items() if isinstance(headers, Mapping) else headers
        )
        for name, value in items:
            self._items.append((str(name), str(value)))

    def multi_items(self) -> list[tuple[str, str]]:
        """Every line, in order, as (name, value)."""
        return list(self._items)

    def get_list(self, name: str) -> list[str]:
        """Every value of `name`, one per line."""
        key = name.lower()
        return [value for item, value in self._items if item.lower() == key]

    def add(self, name: str, value: str) -> None:
        """Appends a line, keeping the others of that name."""
        self._items.append((name, value))

    def __getitem__(self, name: str) -> str:
        values = self.get_list(name)
        if not values:
            raise KeyError(name)
        return ("; " if name.lower() == "cookie" else ", ").join(values)

    def __setitem__(self, name: str, value: str) -> None:
        key = name.lower()
        self._items = [item for item in self._items if item[0].lower() != key]
        self._items.append((name, value))

    def __delitem__(self, name: str) -> None:
        key = name.lower()
        kept = [item for item in self._items if item[0].lower() != key]
        if len(kept) == len(self._items):
            raise KeyError(name)
        self._items = kept

    def __iter__(self) -> Iterator[str]:
        seen: dict[str, str] = {}
        for name, _ in self._items:
            seen.setdefault(name.lower(), name)
        return iter(seen.values())

    def __len__(self) -> int:
        return len({name.lower() for name, _ in self._items})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        other_headers = other if isinstance(other, Headers) else Headers(other)
        return sorted((n.lower(), v) for n, v in self._items) == sorted(
            (n.lower(), v) for n, v in other_headers._items
        )

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"


class Request:
    """What was sent: the method, the absolute URL and the header lines, as the library built them."""

    def __init__(self, method: str, url: str, headers: HeaderTypes = None, content: bytes | None = None) -> None:
        self.method = method
        self.url = url
        self.headers = Headers(headers)
        self.content = content

    def _copy(self) -> Request:
        """An independent copy: each response of a reused request gets its own (cheaper than __init__)."""
        copied = Request.__new__(Request)
        copied.method = self.method
        copied.url = self.url
        headers = Headers.__new__(Headers)
        headers._items = self.headers._items[:]
        copied.headers = headers
        copied.content = self.content
        return copied

    def __repr__(self) -> str:
        return f"<Request [{self.method} {self.url}]>"


# courier_response handles of Responses collected before their headers were read; freed by the
# next send (list.append and swapping the list are atomic under the GIL).
garbage: list[Any] = []
_lazy_lock = threading.Lock()


class Response:
    """A response: status, headers and body, all in memory (see Client.stream for big bodies).

    Interceptors may also build one to answer on their own: `Response(200, json={...})`.
    """

    def __init__(
        self,
        status_code: int,
        *,
        headers: HeaderTypes = None,
        content: bytes | str | None = None,
        text: str | None = None,
        json: Any = None,
        url: str = "",
        request: Request | None = None,
        elapsed: datetime.timedelta | None = None,
    ) -> None:
        self.status_code = int(status_code)
        self._handle: Any = None
        self._headers: Headers | None = Headers(headers)
        body = b""
        if content is not None:
            body = content.encode() if isinstance(content, str) else bytes(content)
        elif text is not None:
            body = text.encode()
            self.headers.setdefault("Content-Type", "text/plain; charset=utf-8")
        elif json is not None:
            body = jsonlib.dumps(json).encode()
            self.headers.setdefault("Content-Type", "application/json")
        self._content = body
        self._url = url
        self._metrics: Metrics | None = Metrics()
        self.request = request
        self.elapsed = elapsed if elapsed is not None else datetime.timedelta(0)

    @classmethod
    def _received(cls, status_code: int, content: bytes, handle: Any,
                  take_head: Callable[[Any], ResponseHead], request: Request | None,
                  elapsed: datetime.timedelta | float, shares_request: bool = False) -> Response:
        """A response the library returned, owning `handle` until its URL or headers are first read,
        when `take_head(handle)` reads them and frees the handle.

        Sets the fields __init__ would, without its argument handling: a blocking send builds one
        per request, and every step here shows in a keep-alive loop's requests per second. So do
        the `timedelta` and the copy of a client's reused request snapshot (`shares_request`):
        both are made when `elapsed` or `request` is first read.
        """
        response = cls.__new__(cls)
        response.status_code = status_code
        response._handle = handle
        response._take_head = take_head
        response._headers = None
        response._content = content
        response._url = ""
        response._request = request
        response._shares_request = shares_request
        response._elapsed = elapsed
        return response

    @property
    def request(self) -> Request | None:
        """What was sent: the method, the absolute URL and the header lines."""
        if self._shares_request:
            with _lazy_lock:
                if self._shares_request:
                    self._request = self._request._copy()  # type: ignore[union-attr]
                    self._shares_request = False
        return self._request

    @request.setter
    def request(self, request: Request | None) -> None:
        self._request = request
        self._shares_request = False

    @property
    def elapsed(self) -> datetime.timedelta:
        """The time from the send to the complete response."""
        elapsed = self._elapsed
        if elapsed.__class__ is float:
            elapsed = self._elapsed = datetime.timedelta(seconds=elapsed)  # type: ignore[arg-type]
        return elapsed  # type: ignore[return-value]

    @elapsed.setter
    def elapsed(self, elapsed: datetime.timedelta) -> None:
        self._elapsed = elapsed

    def _materialize(self) -> None:
        """Copies the URL and header lines out of the library's response, then frees it: most
        callers read only the status and body, so these are read on first use."""
        with _lazy_lock:  # held while copying; _handle clears only once the copy is complete
            handle = self._handle
            if handle is not None:
                try:
                    self._set_head(*self._take_head(handle))
                finally:
                    self._handle = None

    def _set_head(self, url: str, headers: Headers, history: list[Response] | None,
                  metrics: Metrics | None) -> None:
        """Sets what the library's response carried besides status and body; a URL it did not
        report is the request's."""
        if not url and self._request is not None:
            url = self._request.url
        self._url = url
        self._headers = headers
        self._history = history
        self._metrics = metrics

    @property
    def metrics(self) -> Metrics:
        """Where the time went (DNS, connect, TLS, send, wait, receive, total) and what the
        connection was; see `Metrics`. A response made in Python has nothing measured."""
        if self._handle is not None:
            self._materialize()
        metrics = self.__dict__.get("_metrics", Metrics())
        if metrics is None:
            raise Unsupported("the loaded libcourier is older than ABI 1.4 and does not report metrics", code=18)
        return metrics

    @property
    def headers(self) -> Headers:
        """The header fields: ordered, case-insensitive, repeated lines joined by `h[name]`."""
        if self._handle is not None:
            self._materialize()
        headers = self._headers
        if headers is None:  # _received's, when copying them failed
            headers = self._headers = Headers()
        return headers

    @headers.setter
    def headers(self, headers: HeaderTypes) -> None:
        if self._handle is not None:
            self._materialize()
        self._headers = headers if isinstance(headers, Headers) else Headers(headers)

    @property
    def url(self) -> str:
        """The URL of the request that produced this response, after redirects."""
        if self._handle is not None:
            self._materialize()
        return self._url

    @url.setter
    def url(self, url: str) -> None:
        if self._handle is not None:
            self._materialize()
        self._url = url

    def __del__(self) -> None:
        # Never calls the library: the next send frees what is left here.
        handle = getattr(self, "_handle", None)
        if handle is not None:
            try:
                garbage.append(handle)
            except Exception:  # noqa: BLE001 - module globals are gone at interpreter teardown
                pass

    @property
    def history(self) -> list[Response]:
        """The redirect responses that led here, first hop first (as httpx's); [] when none.

        Each has its status, URL and headers, and its body when at most 64 KiB.
        """
        if self._handle is not None:
            self._materialize()
        history = self.__dict__.setdefault("_history", [])
        if history is None:
            raise Unsupported("the loaded libcourier is older than ABI 1.3 and does not report redirects", code=18)
        return history

    @history.setter
    def history(self, history: list[Response]) -> None:
        if self._handle is not None:
            self._materialize()
        self._history = list(history)

    @property
    def cookies(self) -> Cookies:
        """The cookies this response's Set-Cookie fields set (the client's jar has them too)."""
        cookies = Cookies()
        host = urlsplit(self.url).hostname or ""
        for field in self.headers.get_list("set-cookie"):
            pair, *attributes = field.split(";")
            name, equals, value = pair.partition("=")
            if not equals or not name.strip():
                continue
            domain, path = host, "/"
            for attribute in attributes:
                key, _, argument = attribute.strip().partition("=")
                if key.lower() == "domain" and argument:
                    domain = "." + argument.strip().lstrip(".")
                elif key.lower() == "path" and argument.startswith("/"):
                    path = argument.strip()
            cookies.jar.set_cookie(make_cookie(name.strip(), value.strip(), domain, path))
        return cookies

    @property
    def content(self) -> bytes:
        """The body's bytes."""
        return self._content

    @property
    def reason_phrase(self) -> str:
        """The standard reason phrase for the status ("" when it has none)."""
        return _REASONS.get(self.status_code, "")

    @property
    def encoding(self) -> str:
        """The charset from Content-Type, or utf-8."""
        content_type = self.headers.get("content-type", "")
        for parameter in content_type.split(";")[1:]:
            key, _, value = parameter.strip().partition("=")
            if key.lower() == "charset" and value:
                return value.strip('"')
        return "utf-8"

    @property
    def text(self) -> str:
        """The body decoded with `encoding` (invalid bytes replaced)."""
        try:
            return self._content.decode(self.encoding, errors="replace")
        except LookupError:
            return self._content.decode("utf-8", errors="replace")

    def json(self, **kwargs: Any) -> Any:
        """The body parsed as JSON; DecodingError when it is not."""
        try:
            return jsonlib.loads(self._content, **kwargs)
        except ValueError as error:
            raise DecodingError(f"the response body is not JSON: {error}", code=21,
                                request=self.request, response=self) from error

    @property
    def is_success(self) -> bool:
        """True for 2xx."""
        return 200 <= self.status_code < 300

    @property
    def is_redirect(self) -> bool:
        """True for a 3xx with a Location."""
        return 300 <= self.status_code < 400 and "location" in self.headers

    @property
    def has_redirect_location(self) -> bool:
        """True for a 301, 302, 303, 307 or 308 with a Location, which a client would follow."""
        return self.status_code in (301, 302, 303, 307, 308) and "location" in self.headers

    @property
    def is_informational(self) -> bool:
        """True for 1xx."""
        return 100 <= self.status_code < 200

    @property
    def is_client_error(self) -> bool:
        """True for 4xx."""
        return 400 <= self.status_code < 500

    @property
    def is_server_error(self) -> bool:
        """True for 5xx."""
        return 500 <= self.status_code < 600

    @property
    def is_error(self) -> bool:
        """True for 4xx and 5xx."""
        return 400 <= self.status_code < 600

    def raise_for_status(self) -> Response:
        """Raises HTTPStatusError unless the status is 2xx; returns the response otherwise."""
        if self.is_success:
            return self
        kind = "Client error" if 400 <= self.status_code < 500 else (
            "Server error" if self.status_code >= 500 else "Unexpected status")
        raise HTTPStatusError(
            f"{kind} '{self.status_code} {self.reason_phrase}' for url '{self.url}'",
            code=11, request=self.request, response=self,
        )

    def read(self) -> bytes:
        """The body (already in memory)."""
        return self._content

    def iter_bytes(self, chunk_size: int | None = None) -> Iterator[bytes]:
        """The body in chunks of `chunk_size` (one chunk when None)."""
        if not self._content:
            return
        size = chunk_size or len(self._content)
        for start in range(0, len(self._content), size):
            yield self._content[start:start + size]

    def iter_text(self, chunk_size: int | None = None) -> Iterator[str]:
        """The text in pieces of about `chunk_size` bytes (one piece when None)."""
        text = self.text
        if not text:
            return
        size = chunk_size or len(text)
        for start in range(0, len(text), size):
            yield text[start:start + size]

    def iter_lines(self) -> Iterator[str]:
        """The text's lines, without their line endings."""
        yield from self.text.splitlines()

    def close(self) -> None:
        """Nothing to release: the body is in memory (httpx's method, for code written for it)."""

    def __repr__(self) -> str:
        return f"<Response [{self.status_code} {self.reason_phrase}]>"
