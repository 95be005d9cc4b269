"""The client options of ABI 1.1 in Python's words: proxy, TLS files, HTTP version, limits, cookies.

Names follow httpx where it has them (`proxy`, `trust_env`, `verify`, `cert`, `Limits`); the rest
name the courier_client_options field they set. This writes them into that struct; the values
users build (Limits, CertTypes) are _option_types', which need no library.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

from ._calls import encode
from ._courier_cffi import ffi
from ._errors import InvalidRequest, Unsupported
from ._lib import abi_minor, is_bundled, library_path
from ._option_types import CertTypes, Limits
from ._trust import system_ca_store

_HTTP_VERSIONS = {"auto": 0, "1.1": 1, "2": 2, "2-prior-knowledge": 3}
_TLS_VERSIONS = {None: 0, "1.0": 1, "1.1": 2, "1.2": 3, "1.3": 4}


def _count(value: int | None, name: str) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None")
    if not 1 <= value < 2**31:
        raise InvalidRequest(f"{name} must be at least 1, not {value}", code=1)
    return value


def apply(options: Any, *, proxy: str | None, no_proxy: str | Sequence[str] | None, trust_env: bool,
          verify: bool | str | os.PathLike[str], cert: CertTypes | None, http_version: str,
          min_tls_version: str | None, limits: Limits | None, decompress: bool,
          cookie_file: str | os.PathLike[str] | None, uds: str | os.PathLike[str] | None = None,
          resolve: Sequence[str] = (), connect_to: Sequence[str] = (),
          pinned_public_keys: Mapping[str, str | Sequence[str]] | None = None) -> list[Any]:
    """Sets the fields on a courier_client_options; returns the C strings they point to, which
    must outlive courier_client_new."""
    kept: list[Any] = []

    def string(value: str | os.PathLike[str], name: str) -> Any:
        text = ffi.new("char[]", encode(os.fspath(value), name))
        kept.append(text)
        return text

    if proxy is not None:
        options.proxy = string(proxy, "proxy")
    if no_proxy is not None:
        listed = no_proxy if isinstance(no_proxy, str) else ",".join(no_proxy)
        options.no_proxy = string(listed, "no_proxy")
    options.ignore_environment_proxy = 0 if trust_env else 1
    if isinstance(verify, bool):
        options.verify_tls = 1 if verify else 0
        if verify and is_bundled:
            ca_file, ca_directory = system_ca_store(trust_env)
            if ca_file:
                options.ca_file = string(ca_file, "SSL_CERT_FILE")
            if ca_directory:
                options.ca_directory = string(ca_directory, "SSL_CERT_DIR")
    else:
        options.verify_tls = 1
        if os.path.isdir(verify):
            options.ca_directory = string(verify, "verify")
        else:
            options.ca_file = string(verify, "verify")
    if cert is not None:
        if isinstance(cert, (str, os.PathLike)):
            parts: tuple[Any, ...] = (cert, cert)
        elif isinstance(cert, tuple) and len(cert) in (2, 3):
            parts = cert
        else:
            raise TypeError("cert must be a path, (certificate, key) or (certificate, key, password)")
        options.client_certificate = string(parts[0], "cert")
        options.client_key = string(parts[1], "cert's key")
        if len(parts) == 3:
            options.client_key_password = string(parts[2], "cert's password")
    if http_version not in _HTTP_VERSIONS:
        raise InvalidRequest(f"http_version must be one of {sorted(_HTTP_VERSIONS)}, not {http_version!r}", code=1)
    options.http_version = _HTTP_VERSIONS[http_version]
    if min_tls_version not in _TLS_VERSIONS:
        raise InvalidRequest(f"min_tls_version must be '1.0', '1.1', '1.2', '1.3' or None, not {min_tls_version!r}", code=1)
    options.min_tls_version = _TLS_VERSIONS[min_tls_version]
    if limits is not None:
        options.max_connections = _count(limits.max_connections, "max_connections")
        options.max_connections_per_host = _count(limits.max_connections_per_host, "max_connections_per_host")
        options.max_idle_connections = _count(limits.max_keepalive_connections, "max_keepalive_connections")
        if limits.keepalive_expiry is not None:
            if not 0 < limits.keepalive_expiry < 2**31:
                raise InvalidRequest(f"keepalive_expiry must be positive, not {limits.keepalive_expiry}", code=1)
            options.idle_timeout_ms = max(1, round(limits.keepalive_expiry * 1000))
    options.disable_decompression = 0 if decompress else 1
    if cookie_file is not None:
        options.cookie_file = string(cookie_file, "cookie_file")
    if uds is not None:
        if abi_minor < 4:
            raise Unsupported(f"uds= needs libcourier ABI 1.4 or later; {library_path} has 1.{abi_minor}", code=18)
        options.unix_socket_path = string(uds, "uds")

    def strings(values: Sequence[str], name: str) -> Any:
        if isinstance(values, str):
            raise TypeError(f"{name} must be a list of strings, not one string")
        pointers = [string(value, name) for value in values] + [ffi.NULL]
        array = ffi.new("char *[]", pointers)
        kept.append(array)
        return array

    pins = [f"{host}={pin if isinstance(pin, str) else ';'.join(pin)}"
            for host, pin in (pinned_public_keys or {}).items()]
    for name, values in (("resolve", resolve), ("connect_to", connect_to), ("pinned_public_keys", pins)):
        if values and abi_minor < 4:
            raise Unsupported(f"{name}= needs libcourier ABI 1.4 or later; {library_path} has 1.{abi_minor}", code=18)
    if resolve:
        options.resolve = strings(resolve, "resolve")
    if connect_to:
        options.connect_to = strings(connect_to, "connect_to")
    if pins:
        options.pinned_public_keys = strings(pins, "pinned_public_keys")
    if trust_env and abi_minor >= 4:
        # As requests (and httpx before 0.24) do under trust_env: ~/.netrc (or $NETRC) credentials
        # for requests that carry none.
        options.use_netrc = 1
    return kept
