"""Cookies shaped like httpx.Cookies, as plain Python values: a standalone jar.

Apart from _cookies, the client's live view of its jar in the library, so that a Response (its
`cookies`) and per-request `cookies=` need no library.
"""
from __future__ import annotations

import http.cookiejar
from collections.abc import Iterator, Mapping, MutableMapping
from typing import Any, Union

from ._errors import CourierError

CookieTypes = Union["Cookies", http.cookiejar.CookieJar, Mapping[str, str], "list[tuple[str, str]]", None]


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


def cookie_header_items(cookies: Any) -> dict[str, str]:
    """Per-request `cookies=` (a mapping, Cookies or a list of pairs) as name → value."""
    if cookies is None:
        return {}
    if isinstance(cookies, Cookies):
        return {cookie.name: cookie.value or "" for cookie in cookies._cookies()}
    if isinstance(cookies, http.cookiejar.CookieJar):
        return {cookie.name: cookie.value or "" for cookie in cookies}
    return dict(cookies)  # a mapping or (name, value) pairs
