"""An httpx transport that sends through Courier: `httpx.Client(transport=CourierTransport())`.

httpx keeps its own redirect handling, cookies, auth and decompression; Courier's client is made
with follow_redirects=False so that redirects are followed once, by httpx, and since httpx sends
its own Accept-Encoding, the body reaches httpx as the server encoded it and httpx decodes it. Courier's interceptors
and plugins run on every request.
"""
from __future__ import annotations

from typing import Any

import httpx

from ._client import AsyncClient, Client
from ._errors import (
    ConnectError,
    CourierError,
    InvalidRequest,
    ProtocolError,
    TimeoutException,
    TooManyRedirects,
    TransportError,
)
from ._models import Response

_DROPPED = {"content-length", "transfer-encoding", "host"}


def _arguments(request: httpx.Request) -> dict[str, Any]:
    headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in request.headers.raw
               if name.decode("latin-1").lower() not in _DROPPED]
    content = request.read()
    arguments: dict[str, Any] = {"headers": headers}
    if content:
        arguments["content"] = content
    timeout = request.extensions.get("timeout", {}).get("read")
    if timeout:
        arguments["timeout"] = timeout
    return arguments


def _to_httpx(response: Response, request: httpx.Request) -> httpx.Response:
    return httpx.Response(
        status_code=response.status_code,
        headers=[(name, value) for name, value in response.headers.multi_items()
                 if name.lower() != "transfer-encoding"],
        content=response.content,
        request=request,
    )


def _map_error(error: CourierError, request: httpx.Request) -> Exception:
    if isinstance(error, ConnectError):
        return httpx.ConnectError(str(error), request=request)
    if isinstance(error, TimeoutException):
        return httpx.TimeoutException(str(error), request=request)
    if isinstance(error, ProtocolError):
        return httpx.RemoteProtocolError(str(error), request=request)
    if isinstance(error, TooManyRedirects):
        return httpx.TooManyRedirects(str(error), request=request)
    if isinstance(error, InvalidRequest):
        return httpx.UnsupportedProtocol(str(error), request=request)
    if isinstance(error, TransportError):
        return httpx.TransportError(str(error))
    return httpx.RequestError(str(error), request=request)


class CourierTransport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """Sends httpx requests through a Courier client; takes the Client's keyword arguments."""

    def __init__(self, **client_options: Any) -> None:
        client_options.setdefault("follow_redirects", False)
        self._options = client_options
        self._client: Client | None = None
        self._async_client: AsyncClient | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._client is None:
            self._client = Client(**self._options)
        try:
            response = self._client.request(request.method, str(request.url), **_arguments(request))
        except CourierError as error:
            raise _map_error(error, request) from error
        return _to_httpx(response, request)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._async_client is None:
            self._async_client = AsyncClient(**self._options)
        arguments = _arguments(request)
        try:
            response = await self._async_client.request(request.method, str(request.url), **arguments)
        except CourierError as error:
            raise _map_error(error, request) from error
        return _to_httpx(response, request)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    async def aclose(self) -> None:
        if self._async_client is not None:
            await self._async_client.aclose()
            self._async_client = None
