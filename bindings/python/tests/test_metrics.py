"""Response.metrics: the phases and connection facts the library measured, in seconds, None when
not measured, for Client, AsyncClient and streamed responses (the C API's courier_metrics)."""
from __future__ import annotations

import asyncio

import pytest

import courier
from conftest import Server


def test_a_delayed_head_is_the_wait_and_the_connection_is_described(private_server: Server) -> None:
    server = private_server  # a port of its own: the library's connections outlive a client
    with courier.Client(base_url=server.url) as client:
        response = client.get("/delay/200")
        metrics = response.metrics
        assert metrics.wait is not None and metrics.wait >= 0.2
        assert metrics.total is not None and metrics.wait <= metrics.total <= response.elapsed.total_seconds()
        assert metrics.remote_address == "127.0.0.1"
        assert metrics.remote_port == int(server.url.rsplit(":", 1)[1])
        assert metrics.http_version == "1.1"
        assert metrics.tls is None and metrics.tls_version is None, "plain HTTP has no handshake"
        assert metrics.reused_connection is False
        assert metrics.dns is not None and metrics.connect is not None
        assert metrics.decoded_body_bytes == len(response.content)
        again = client.get("/echo/again").metrics
        assert again.reused_connection is True
        assert again.dns is None and again.connect is None, "a reused connection has neither"


def test_redirects_report_their_hops(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        metrics = client.get("/redirect/2").metrics
        assert metrics.redirect_count == 2
        assert metrics.redirect is not None and metrics.redirect > 0
        assert client.get("/status/200").metrics.redirect is None


def test_a_streamed_body_has_its_transfer_once_read(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        with client.stream("GET", "/drip?numbytes=4&duration_ms=300&chunk=1") as response:
            assert response.metrics.total is None, "not over yet"
            assert response.metrics.wait is not None
            assert response.read() == b"****"
            metrics = response.metrics
        assert metrics.total is not None and metrics.total >= 0.2
        assert metrics.receive is not None and metrics.receive <= metrics.total
        assert metrics.decoded_body_bytes == 4


def test_the_async_client_reports_the_same_fields(server: Server) -> None:
    async def main() -> courier.Metrics:
        async with courier.AsyncClient(base_url=server.url) as client:
            return (await client.get("/delay/200")).metrics

    metrics = asyncio.run(asyncio.wait_for(main(), 60))
    assert metrics.wait is not None and metrics.wait >= 0.2
    assert metrics.total is not None and metrics.total >= metrics.wait


def test_what_the_transport_cannot_see_is_none_not_zero(server: Server) -> None:
    with courier.Client(base_url=server.url, transport="async-http-client") as client:
        metrics = client.get("/echo/nil").metrics
        assert metrics.dns is None and metrics.connect is None and metrics.tls is None
        assert metrics.remote_address is None and metrics.reused_connection is None
        assert metrics.total is not None and metrics.total > 0


def test_a_response_made_in_python_has_nothing_measured() -> None:
    metrics = courier.Response(200).metrics
    assert metrics == courier.Metrics()
    assert metrics.total is None and metrics.redirect_count == 0


def test_a_library_older_than_abi_1_4_says_so(server: Server, monkeypatch) -> None:
    import courier._native

    with courier.Client(base_url=server.url) as client:
        monkeypatch.setattr(courier._native, "abi_minor", 3)
        response = client.get("/status/200")
        with pytest.raises(courier.Unsupported, match="ABI 1.4"):
            response.metrics


def test_a_tls_exchange_reports_its_handshake_and_version(tmp_path) -> None:
    import http.server
    import ssl
    import subprocess
    import threading

    certificate, key = tmp_path / "server.pem", tmp_path / "server.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"https://127.0.0.1:{server.server_address[1]}/"
        with courier.Client(verify=str(certificate)) as client:
            first = client.get(url).metrics
            second = client.get(url).metrics
        assert first.tls is not None and first.tls > 0
        assert first.tls_version is not None and first.tls_version.startswith("TLSv1."), first.tls_version
        assert second.reused_connection is True and second.tls is None
        assert second.tls_version == first.tls_version
    finally:
        server.shutdown()
        server.server_close()
