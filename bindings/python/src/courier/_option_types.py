"""The values client options take (Limits, CertTypes), as plain Python.

Apart from _options, which writes them into the library's courier_client_options, so that these
need no library.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Union

#: A client certificate: one PEM file holding certificate and key, (certificate, key), or
#: (certificate, key, password) for an encrypted key.
CertTypes = Union[str, os.PathLike, "tuple[str | os.PathLike[str], str | os.PathLike[str]]",
                  "tuple[str | os.PathLike[str], str | os.PathLike[str], str]"]


@dataclass(frozen=True)
class Limits:
    """Connection limits, as httpx.Limits names them; None keeps the library's default.

    max_connections: in total (default: none); max_connections_per_host: to one host (default 8);
    max_keepalive_connections: idle connections kept (default 32, or max_connections_per_host
    when that is larger; the curl transport only);
    keepalive_expiry: seconds an idle connection is kept (default 60).
    """

    max_connections: int | None = None
    max_connections_per_host: int | None = None
    max_keepalive_connections: int | None = None
    keepalive_expiry: float | None = None
