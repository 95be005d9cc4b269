from __future__ import annotations

import asyncio

import pytest

httpx = pytest.importorskip("httpx")

import courier  # noqa: E402
from courier.httpx import CourierTransport  # noqa: E402


def test_httpx_client_through_courier(server, plugins) -> None:
    seen: list[str] = []

    class Look:
        def on_request(self, exchange):
            seen.append(exchange.request.url)

    transport = CourierTransport(interceptors=[Look()], plugins=[(plugins / "hmac_signer.so", "k")])
    with httpx.Client(transport=transport, base_url=server.url) as client:
        response = client.post("/anything", json={"a": 1}, params={"q": "1"}, headers={"X-H": "v"})
        assert response.status_code == 200
        data = response.json()
        names = {name.lower(): value for name, value in data["header_list"]}
        assert names["x-h"] == "v"
        assert "x-signature" in names
        assert data["query"] == "q=1"
        redirected = client.get("/redirect/2", follow_redirects=True)
        assert redirected.status_code == 200
        assert len(redirected.history) == 2
    assert seen and seen[0].endswith("/anything?q=1")


def test_httpx_errors_map(server) -> None:
    with httpx.Client(transport=CourierTransport(timeout=5)) as client:
        with pytest.raises(httpx.ConnectError):
            client.get("http://127.0.0.1:1/")


def test_httpx_async(server) -> None:
    async def main():
        async with httpx.AsyncClient(transport=CourierTransport(), base_url=server.url) as client:
            responses = await asyncio.gather(*(client.get("/anything", params={"n": n}) for n in range(8)))
            return [response.json()["query"] for response in responses]

    assert asyncio.run(asyncio.wait_for(main(), 60)) == [f"n={n}" for n in range(8)]


def test_gzip_is_decoded_once(server) -> None:
    with httpx.Client(transport=CourierTransport(), base_url=server.url) as client:
        response = client.get("/gzip")
    assert response.status_code == 200
    assert response.json()["method"] == "GET"
    with courier.Client() as client:
        assert client.get(server.url + "/gzip").json()["method"] == "GET"
