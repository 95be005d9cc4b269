"""uds=: every request of a client over a Unix domain socket, as httpx's HTTPTransport(uds=...),
on both transports; the URL's host names Host."""
from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest

import courier
from conftest import Server, start_server, stop_server


@pytest.fixture(scope="module")
def socket_server() -> Iterator[Server]:
    running = start_server(unix_socket=f"/tmp/courier-py-{uuid.uuid4().hex[:8]}.sock")
    try:
        yield running
    finally:
        stop_server(running.process)


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_every_request_goes_over_the_socket(socket_server: Server, transport: str) -> None:
    with courier.Client(uds=socket_server.unix_socket, transport=transport) as client:
        response = client.get("http://localhost/echo/over-the-socket", params={"q": "1"})
        assert response.status_code == 200
        echoed = response.json()
        assert echoed["path"] == "/echo/over-the-socket" and echoed["query"] == "q=1"
        assert ["Host", "localhost"] in [[name.title(), value] for name, value in echoed["headers"]]


def test_the_async_client_takes_it_too(socket_server: Server) -> None:
    async def main() -> int:
        async with courier.AsyncClient(uds=socket_server.unix_socket) as client:
            return (await client.get("http://localhost/status/204")).status_code

    assert asyncio.run(asyncio.wait_for(main(), 60)) == 204


def test_a_socket_nobody_listens_on_is_a_connect_error() -> None:
    with courier.Client(uds=f"/tmp/courier-none-{uuid.uuid4().hex[:8]}.sock") as client:
        with pytest.raises(courier.ConnectError):
            client.get("http://localhost/")


def test_a_path_too_long_for_a_socket_address_is_refused() -> None:
    with pytest.raises(courier.InvalidRequest):
        courier.Client(uds="/" + "s" * 200)
