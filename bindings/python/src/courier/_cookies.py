"""Cookies shaped like httpx.Cookies: a standalone jar, and the live view of a client's jar.

A client keeps its cookies in the library (ABI 1.3's keep_cookies), where every redirect hop
stores and sends them by RFC 6265's rules; `client.cookies` reads and changes that jar through
Netscape cookie-file text. A cookie set without a domain is sent with every request of the
client, to any host, as httpx sends one.
"""
from __future__ import annotations

import http.cookiejar
import time
from collections.abc import Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, Union

from ._courier_cffi import ffi
from ._errors import CourierError, Unsupported, encode, invoke
from ._lib import abi_minor, lib, library_path

if TYPE_CHECKING:
    from ._core import _ClientCore

CookieTypes = Union["Cookies", http.cookiejar.CookieJar, Mapping[str, str], "list[tuple[str, str]]", None]
NULL = ffi.NULL


class CookieConflict(CourierError, LookupError):
    """More than one cookie has the name asked for: give its domain or path too (as httpx's)."""


def make_cookie(name: str, value: str, domain: str = "", path: str = "/", secure: bool = False,
                expires: int | None = None, http_only: bool = False) -> http.cookiejar.Cookie:
    """An http.cookiejar.Cookie as httpx.Cookies.set makes one; a leading dot means subdomains too."""
    return http.cookiejar.Cookie(
        version=0, name=name, value=value, port=None, port_specified=False, domain=domain,
        domain_specified=bool(domain), domain_initial_dot=domain.startswith("."), path=path,
        path_specified=True, secure=secure, expires=expires, discard=expires is None, comment=None,
        comment_url=None, rest={"HttpOnly": ""} if http_only else {}, rfc2109=False)


class Cookies(MutableMapping[str, str]):
    """Cookies by name, as httpx.Cookies: `set(name, value, domain="", path="/")`, `get(name,
    default, domain=, path=)`, `delete`, `clear(domain=, path=)`, `update`, and `jar`, an
    http.cookiejar.CookieJar. A name held for several domains or paths raises CookieConflict."""

    def __init__(self, cookies: CookieTypes = None) -> None:
        self.jar = http.cookiejar.CookieJar()
        if cookies is not None:
            self.update(cookies)

    def _cookies(self) -> list[http.cookiejar.Cookie]:
        return list(self.jar)

    def _store(self, cookie: http.cookiejar.Cookie) -> None:
        self.jar.set_cookie(cookie)

    def _remove(self, domain: str | None, path: str | None, name: str | None) -> None:
        for cookie in self._matching(name, domain, path):
            self.jar.clear(cookie.domain, cookie.path, cookie.name)

    def _matching(self, name: str | None, domain: str | None, path: str | None) -> list[http.cookiejar.Cookie]:
        return [cookie for cookie in self._cookies()
                if (name is None or cookie.name == name) and (domain is None or cookie.domain == domain)
                and (path is None or cookie.path == path)]

    def set(self, name: str, value: str, domain: str = "", path: str = "/") -> None:
        """Sets a cookie; without a domain a client sends it to every host."""
        self._store(make_cookie(name, value, domain, path))

    def get(self, name: str, default: str | None = None, domain: str | None = None,  # type: ignore[override]
            path: str | None = None) -> str | None:
        matching = self._matching(name, domain, path)
        if len(matching) > 1:
            raise CookieConflict(f"multiple cookies named {name!r}: give the domain or path", code=1)
        return matching[0].value if matching else default

    def delete(self, name: str, domain: str | None = None, path: str | None = None) -> None:
        self._remove(domain, path, name)

    def clear(self, domain: str | None = None, path: str | None = None) -> None:
        self._remove(domain, path, None)

    def update(self, cookies: CookieTypes = None, **more: str) -> None:  # type: ignore[override]
        if isinstance(cookies, Cookies):
            for cookie in cookies._cookies():
                self._store(cookie)
        elif isinstance(cookies, http.cookiejar.CookieJar):
            for cookie in cookies:
                self._store(cookie)
        elif isinstance(cookies, Mapping):
            for name, value in cookies.items():
                self.set(name, value)
        elif cookies is not None:
            for name, value in cookies:
                self.set(name, value)
        for name, value in more.items():
            self.set(name, value)

    def __getitem__(self, name: str) -> str:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __setitem__(self, name: str, value: str) -> None:
        self.set(name, value)

    def __delitem__(self, name: str) -> None:
        if not self._matching(name, None, None):
            raise KeyError(name)
        self.delete(name)

    def __len__(self) -> int:
        return len(self._cookies())

    def __iter__(self) -> Iterator[str]:
        return (cookie.name for cookie in self._cookies())

    def __bool__(self) -> bool:
        return bool(self._cookies())

    def __repr__(self) -> str:
        shown = ", ".join(f"<Cookie {cookie.name}={cookie.value} for {cookie.domain or '*'}{cookie.path}>"
                          for cookie in self._cookies())
        return f"<Cookies[{shown}]>"


class ClientCookies(Cookies):
    """`client.cookies`: the client's own jar in the library, read and changed in place."""

    def __init__(self, core: _ClientCore) -> None:
        self._core = core
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
        return self._core.live()

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


def cookie_header_items(cookies: Any) -> dict[str, str]:
    """Per-request `cookies=` (a mapping, Cookies or a list of pairs) as name → value."""
    if cookies is None:
        return {}
    if isinstance(cookies, Cookies):
        return {cookie.name: cookie.value or "" for cookie in cookies._cookies()}
    if isinstance(cookies, http.cookiejar.CookieJar):
        return {cookie.name: cookie.value or "" for cookie in cookies}
    return dict(cookies)  # a mapping or (name, value) pairs
