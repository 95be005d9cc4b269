"""Courier's own interceptors (retry, logging, validation, concurrency limit, Digest auth, cache), run by the library
in Swift, in their place in a chain beside Python interceptors and C plugins.

Each is a description: it is turned into the JSON configuration of courier_client_add_builtin when
a client adds it, so one description can serve several clients. Options left as None keep the
library's defaults, which the docstrings give.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any, Union

from ._calls import encode, invoke
from ._lib import lib

StatusTypes = Iterable[Union[int, range]]


class Builtin:
    """One of Courier's own interceptors, described by its kind and options."""

    kind: str = ""

    def __init__(self, name: str | None) -> None:
        self.name = name

    def config(self) -> dict[str, Any]:
        """The options given, as courier_client_add_builtin's JSON object takes them."""
        options = {key: value for key, value in self._options().items() if value is not None}
        if self.name is not None:
            options["name"] = self.name
        return options

    def _options(self) -> dict[str, Any]:
        raise NotImplementedError

    def _add_to(self, client: Any) -> str:
        """Appends this interceptor to a courier_client's chain; returns the name it goes by."""
        text = json.dumps(self.config())
        invoke(lib.courier_client_add_builtin, client, encode(self.kind, "the kind"), encode(text, "the configuration"))
        return self.name or self.kind

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={value!r}" for key, value in self.config().items())
        return f"courier.{type(self).__name__}({options})"


def _milliseconds(seconds: float | None, what: str) -> int | None:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise TypeError(f"{what} must be a number of seconds, not {type(seconds).__name__}")
    if seconds < 0:
        raise ValueError(f"{what} must not be negative: {seconds}")
    return round(seconds * 1000)


class Retry(Builtin):
    """Resends on a retryable status or error, with exponential backoff and jitter.

    max_attempts: sends at most, the first included (3); backoff: seconds before the first retry
    (0.2), growing by backoff_multiplier (2) up to max_backoff (10); jitter: "full", "equal" or
    "none"; statuses: retried statuses (408, 429, 500, 502, 503, 504); errors: retried failures,
    among "cannot_connect", "timed_out", "invalid_response" (the default three) and "insecure";
    methods: retried without an Idempotency-Key (the idempotent ones); respect_retry_after (True)
    up to max_retry_after seconds (60); idempotency_key: give POST and PATCH a fresh
    Idempotency-Key so they can be retried (False); budget: "unlimited", or (max_tokens,
    deposit_per_request) for the token bucket every send through it shares (10, 0.2).
    Place it before (outside) the interceptors it should repeat.
    """

    kind = "retry"

    def __init__(self, max_attempts: int | None = None, *, backoff: float | None = None,
                 max_backoff: float | None = None, backoff_multiplier: float | None = None,
                 jitter: str | None = None, statuses: Iterable[int] | None = None,
                 errors: Iterable[str] | None = None, methods: Iterable[str] | None = None,
                 respect_retry_after: bool | None = None, max_retry_after: float | None = None,
                 idempotency_key: bool | None = None, budget: str | tuple[float, float] | None = None,
                 name: str | None = None) -> None:
        super().__init__(name)
        self.max_attempts = max_attempts
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.backoff_multiplier = backoff_multiplier
        self.jitter = jitter
        self.statuses = None if statuses is None else list(statuses)
        self.errors = None if errors is None else list(errors)
        self.methods = None if methods is None else list(methods)
        self.respect_retry_after = respect_retry_after
        self.max_retry_after = max_retry_after
        self.idempotency_key = idempotency_key
        self.budget = budget

    def _options(self) -> dict[str, Any]:
        budget: Any = self.budget
        if isinstance(budget, tuple):
            budget = {"max_tokens": budget[0], "deposit_per_request": budget[1]}
        return {
            "max_attempts": self.max_attempts,
            "initial_backoff_ms": _milliseconds(self.backoff, "backoff"),
            "max_backoff_ms": _milliseconds(self.max_backoff, "max_backoff"),
            "backoff_multiplier": self.backoff_multiplier,
            "jitter": self.jitter,
            "statuses": self.statuses,
            "errors": self.errors,
            "methods": self.methods,
            "honour_retry_after": self.respect_retry_after,
            "max_retry_after_ms": _milliseconds(self.max_retry_after, "max_retry_after"),
            "add_idempotency_key": self.idempotency_key,
            "budget": budget,
        }


class Logging(Builtin):
    """One line per exchange (method, redacted URL, status, time) written by the library.

    file: a path (appended to), a descriptor, or an open file (its descriptor); standard error by
    default. level: "info" (default), "debug" for heads and bodies too, "notice" or above for
    failures only. curl_command: also log each request as a curl command (at debug);
    max_body_bytes: per logged body (4096); redact_headers, redact_query: names hidden besides
    Authorization, Proxy-Authorization, Cookie and Set-Cookie. Place it first, to log each
    exchange once however often inner stages retry.
    """

    kind = "logging"

    def __init__(self, level: str | None = None, *, file: Union[str, os.PathLike[str], int, Any, None] = None,
                 curl_command: bool | None = None, max_body_bytes: int | None = None,
                 redact_headers: Iterable[str] | None = None, redact_query: Iterable[str] | None = None,
                 name: str | None = None) -> None:
        super().__init__(name)
        self.level = level
        self.file = file
        self.curl_command = curl_command
        self.max_body_bytes = max_body_bytes
        self.redact_headers = None if redact_headers is None else list(redact_headers)
        self.redact_query = None if redact_query is None else list(redact_query)

    def _destination(self) -> dict[str, Any]:
        file = self.file
        if file is None:
            return {}
        if isinstance(file, (str, os.PathLike)):
            return {"path": os.fspath(file)}
        if isinstance(file, int) and not isinstance(file, bool):
            return {"fd": file}
        fileno = getattr(file, "fileno", None)
        if fileno is None:
            raise TypeError(f"file must be a path, a descriptor or an open file, not {type(file).__name__}")
        flush = getattr(file, "flush", None)
        if flush is not None:
            flush()  # what Python buffered comes before the library's lines
        return {"fd": fileno()}

    def _options(self) -> dict[str, Any]:
        return {
            "level": self.level,
            **self._destination(),
            "curl_command": self.curl_command,
            "max_body_bytes": self.max_body_bytes,
            "redact_headers": self.redact_headers,
            "redact_query": self.redact_query,
        }


class Validation(Builtin):
    """Fails unacceptable responses: HTTPStatusError for a status outside `statuses` (2xx by
    default; ints and ranges), UnacceptableContentType for a type outside `content_types`
    ("accept": the request's Accept header, the default; "any"; or a list of MIME types with
    type/* wildcards). The error carries the response. Place it last (innermost), so that Retry
    before it sees the status.
    """

    kind = "validation"

    def __init__(self, statuses: StatusTypes | None = None, *, content_types: str | Iterable[str] | None = None,
                 name: str | None = None) -> None:
        super().__init__(name)
        self.statuses = None if statuses is None else list(statuses)
        self.content_types = content_types if content_types is None or isinstance(content_types, str) else list(content_types)

    def _options(self) -> dict[str, Any]:
        statuses: list[Any] | None = None
        if self.statuses is not None:
            statuses = []
            for entry in self.statuses:
                if isinstance(entry, range):
                    if entry.step != 1 or len(entry) == 0:
                        raise ValueError(f"a status range must be non-empty with step 1: {entry!r}")
                    statuses.append(f"{entry.start}-{entry.stop - 1}")
                else:
                    statuses.append(entry)
        return {"statuses": statuses, "content_types": self.content_types}


class ConcurrencyLimit(Builtin):
    """At most max_requests sends in flight through it (64), max_requests_per_host per host (5);
    others wait their turn. hold_until_body_read keeps a slot until the body has been read."""

    kind = "concurrency_limit"

    def __init__(self, max_requests: int | None = None, *, max_requests_per_host: int | None = None,
                 hold_until_body_read: bool | None = None, name: str | None = None) -> None:
        super().__init__(name)
        self.max_requests = max_requests
        self.max_requests_per_host = max_requests_per_host
        self.hold_until_body_read = hold_until_body_read

    def _options(self) -> dict[str, Any]:
        return {
            "max_requests": self.max_requests,
            "max_requests_per_host": self.max_requests_per_host,
            "hold_until_body_read": self.hold_until_body_read,
        }


class DigestAuth(Builtin):
    """HTTP Digest authentication (RFC 7616, as httpx.DigestAuth): a 401 with a Digest challenge
    is answered once with user and password (SHA-256, MD5 and their -sess forms, qop=auth);
    later requests to the same origin answer the last challenge before being asked."""

    kind = "digest_auth"

    def __init__(self, user: str, password: str, *, name: str | None = None) -> None:
        super().__init__(name)
        self.user = user
        self.password = password

    def _options(self) -> dict[str, Any]:
        return {"user": self.user, "password": self.password}


class Cache(Builtin):
    """A private HTTP cache (RFC 9111), as requests-cache and hishel add to requests and httpx:
    GET responses a private cache may store are answered from it while fresh, stale ones are
    revalidated (If-None-Match, If-Modified-Since), and the request's Cache-Control is honoured
    (no-cache, no-store, max-age, max-stale, min-fresh, only-if-cached, which answers 504 on a
    miss), as are stale-while-revalidate and stale-if-error. A successful POST, PUT, PATCH or
    DELETE drops what it changed. Every response through it says what happened in its
    Cache-Status header (RFC 9211): "Courier; hit; ttl=42", "Courier; fwd=uri-miss;
    fwd-status=200; stored; ttl=60".

    directory keeps the responses in files there (made if missing; several processes may share
    it), else in memory. max_bytes bounds the store (10 MiB in memory, 50 MiB in a directory),
    dropping the least recently used first; a response over max_entry_bytes (a quarter of
    max_bytes) is not stored."""

    kind = "cache"

    def __init__(self, directory: str | os.PathLike[str] | None = None, *, max_bytes: int | None = None,
                 max_entry_bytes: int | None = None, name: str | None = None) -> None:
        super().__init__(name)
        self.directory = None if directory is None else os.fspath(directory)
        self.max_bytes = _byte_count(max_bytes, "max_bytes")
        self.max_entry_bytes = _byte_count(max_entry_bytes, "max_entry_bytes")

    def _options(self) -> dict[str, Any]:
        return {"directory": self.directory, "max_bytes": self.max_bytes, "max_entry_bytes": self.max_entry_bytes}


def _byte_count(value: int | None, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a number of bytes, not {type(value).__name__}")
    if value < 0:
        raise ValueError(f"{what} must not be negative: {value}")
    return value
