"""`client.cookies`: the live view of a client's jar, which the library keeps.

A client keeps its cookies in the library (ABI 1.3's keep_cookies), where every redirect hop
stores and sends them by RFC 6265's rules; `client.cookies` reads and changes that jar through
Netscape cookie-file text. A cookie set without a domain is sent with every request of the
client, to any host, as httpx sends one. The cookies themselves are _cookie_jar's plain values.
"""
from __future__ import annotations

import http.cookiejar
import time
from typing import Any, Callable

from ._calls import encode, invoke
from ._cookie_jar import Cookies, CookieTypes, make_cookie
from ._courier_cffi import ffi
from ._errors import Unsupported
from ._lib import abi_minor, lib, library_path

NULL = ffi.NULL


class ClientCookies(Cookies):
    """`client.cookies`: the client's own jar in the library, read and changed in place."""

    def __init__(self, live_client: Callable[[], Any]) -> None:
        #: Returns the courier_client, or raises ClosedError once the client is closed.
        self._live_client = live_client
        self._any_host: dict[tuple[str, str], http.cookiejar.Cookie] = {}
        #: (name, value) of the cookies without a domain, which every request of the client carries.
        self.any_host_items: tuple[tuple[str, str], ...] = ()

    def _any_host_changed(self) -> None:
        self.any_host_items = tuple((cookie.name, cookie.value or "") for cookie in self._any_host.values())

    @property  # type: ignore[override]
    def jar(self) -> http.cookiejar.CookieJar:
        """A copy of the cookies as an http.cookiejar.CookieJar."""
        copy = http.cookiejar.CookieJar()
        for cookie in self._cookies():
            copy.set_cookie(cookie)
        return copy

    def _cookies(self) -> list[http.cookiejar.Cookie]:
        return list(self._any_host.values()) + parse_netscape(self._text())

    def _client(self) -> Any:
        """The courier_client, when its library has ABI 1.3's cookie functions."""
        if abi_minor < 3:
            raise Unsupported(f"client.cookies needs libcourier ABI 1.3 or later; {library_path} has 1.{abi_minor}",
                              code=18)
        return self._live_client()

    def _text(self) -> str:
        client = self._client()
        length = ffi.new("size_t *")
        while True:
            invoke(lib.courier_client_cookies, client, NULL, 0, length)
            buffer = ffi.new("char[]", length[0] + 1)
            code = lib.courier_client_cookies(client, buffer, length[0] + 1, length, NULL)
            if code == 0:
                return ffi.string(buffer).decode()
            # The jar grew between the two calls (a send stored a cookie): ask again.

    def _store(self, cookie: http.cookiejar.Cookie) -> None:
        if not cookie.domain:
            encode(cookie.name, "a cookie name")
            encode(cookie.value or "", "a cookie value")
            self._any_host[(cookie.name, cookie.path)] = cookie
            self._any_host_changed()
            return
        invoke(lib.courier_client_add_cookies, self._client(), encode(netscape_line(cookie), "a cookie"))

    def _remove(self, domain: str | None, path: str | None, name: str | None) -> None:
        for key, cookie in list(self._any_host.items()):
            if domain in (None, "") and (path is None or cookie.path == path) and (name is None or cookie.name == name):
                del self._any_host[key]
        self._any_host_changed()
        if domain == "":
            return
        invoke(lib.courier_client_remove_cookies, self._client(),
               encode(domain, "the domain") if domain is not None else NULL,
               encode(path, "the path") if path is not None else NULL,
               encode(name, "the name") if name is not None else NULL, NULL)

    def replace(self, cookies: CookieTypes) -> None:
        """`client.cookies = …`: the client's cookies become these."""
        self.clear()
        self.update(cookies)


def netscape_line(cookie: http.cookiejar.Cookie) -> str:
    """`cookie` as one line of a Netscape cookie file."""
    host_only = not cookie.domain.startswith(".")  # a leading dot: its subdomains too
    domain = cookie.domain
    http_only = cookie.has_nonstandard_attr("HttpOnly")
    return "\t".join([
        ("#HttpOnly_" if http_only else "") + domain, "FALSE" if host_only else "TRUE", cookie.path or "/",
        "TRUE" if cookie.secure else "FALSE", str(int(cookie.expires or 0)), cookie.name, cookie.value or "",
    ]) + "\n"


def parse_netscape(text: str) -> list[http.cookiejar.Cookie]:
    """The cookies of Netscape cookie-file text, as the library writes it."""
    cookies = []
    now = time.time()
    for line in text.splitlines():
        http_only = line.startswith("#HttpOnly_")
        if http_only:
            line = line[len("#HttpOnly_"):]
        elif not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 7:
            continue
        domain, subdomains, path, secure, expires, name, value = fields
        expiry = int(expires) or None
        if expiry is not None and expiry <= now:
            continue
        cookie = make_cookie(name, value, domain if subdomains == "TRUE" else domain.lstrip("."), path,
                             secure == "TRUE", expiry, http_only)
        cookie.domain_specified = subdomains == "TRUE"
        cookies.append(cookie)
    return cookies
