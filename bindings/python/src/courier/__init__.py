"""Courier for Python: an HTTP client over libcourier's pipeline, interceptors and plugins.

    import courier

    with courier.Client(base_url="http://127.0.0.1:8080") as client:
        response = client.get("/anything", params={"q": "1"})
        response.raise_for_status()
        print(response.json())
"""
from __future__ import annotations

from ._builtins import Builtin, Cache, ConcurrencyLimit, DigestAuth, Logging, Retry, Validation
from ._client import (
    AsyncClient,
    AsyncStreamingResponse,
    Client,
    Plugin,
    RequestOptions,
    StreamingResponse,
)
from ._cookie_jar import CookieConflict, Cookies
from ._courier_cffi import ffi as _ffi
from ._errors import (
    AuthenticationError,
    BodyNotReplayable,
    Cancelled,
    ClosedError,
    ConnectError,
    CourierError,
    DecodingError,
    ForkError,
    HTTPStatusError,
    InterceptorError,
    InvalidRequest,
    LimitExceeded,
    PluginError,
    ProtocolError,
    RequestError,
    StreamError,
    TimeoutException,
    TLSError,
    TooManyRedirects,
    TransportError,
    UnacceptableContentType,
    Unsupported,
    WouldBlock,
)
from ._exchange import RETRY_SENTINEL as RETRY
from ._exchange import Exchange, LiveHeaders, RequestView, ResponseView
from ._lib import lib as _lib
from ._lib import library_path
from ._models import Headers, Metrics, Request, Response
from ._option_types import Limits

__version__ = "0.2.0"
#: The release version of the libcourier that was loaded, such as "0.2.0".
library_version: str = _ffi.string(_lib.courier_version()).decode()
#: The (major, minor) ABI version of the loaded library.
abi_version: tuple[int, int] = (_lib.courier_abi_version() >> 16, _lib.courier_abi_version() & 0xFFFF)

__all__ = [
    "AsyncClient", "AsyncStreamingResponse", "Client", "Plugin", "RequestOptions", "StreamingResponse", "Headers", "Request", "Response", "Metrics",
    "Cookies", "CookieConflict",
    "Limits", "Builtin", "Retry", "Logging", "Validation", "ConcurrencyLimit", "DigestAuth", "Cache", "Exchange", "RequestView", "ResponseView", "LiveHeaders", "RETRY",
    "CourierError", "RequestError", "TransportError", "ConnectError", "TimeoutException", "ProtocolError",
    "TLSError", "Cancelled", "TooManyRedirects", "LimitExceeded", "DecodingError", "InterceptorError",
    "BodyNotReplayable", "HTTPStatusError", "AuthenticationError", "UnacceptableContentType", "InvalidRequest", "PluginError",
    "WouldBlock", "ClosedError", "StreamError", "ForkError", "Unsupported", "library_path", "library_version", "abi_version",
]
