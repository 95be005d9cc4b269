"""The connection options of ABI 1.1 from Python: proxy (explicit, environment, no_proxy), limits,
HTTP version, decompression, the cookie file and argument checks, against `courier serve` and a
small forward proxy written here."""
from __future__ import annotations

import http.client
import http.server
import os
import select
import socket
import subprocess
import sys
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

import courier


class _ProxyHandler(http.server.BaseHTTPRequestHandler):
    """Forwards absolute-form requests and tunnels CONNECT, recording each request line."""

    server: _Proxy

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def _record(self) -> None:
        self.server.seen.append((self.command, self.path, self.headers.get("Proxy-Authorization")))

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._record()
        target = urllib.parse.urlsplit(self.path)
        origin = http.client.HTTPConnection(target.hostname or "", target.port or 80, timeout=10)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("proxy-authorization", "proxy-connection", "connection")}
        origin.request("GET", target.path + (f"?{target.query}" if target.query else ""), headers=headers)
        reply = origin.getresponse()
        body = reply.read()
        self.send_response(reply.status)
        for name, value in reply.getheaders():
            if name.lower() not in ("connection", "transfer-encoding", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        origin.close()

    def do_CONNECT(self) -> None:  # noqa: N802
        self._record()
        host, _, port = self.path.rpartition(":")
        upstream = socket.create_connection((host, int(port)), timeout=10)
        self.send_response(200, "Connection Established")
        self.end_headers()
        sockets = [self.connection, upstream]
        while True:
            readable, _, _ = select.select(sockets, [], [], 10)
            if not readable:
                break
            for source in readable:
                data = source.recv(65536)
                if not data:
                    upstream.close()
                    return
                (upstream if source is self.connection else self.connection).sendall(data)


class _Proxy(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.seen: list[tuple[str, str, str | None]] = []


@pytest.fixture()
def proxy() -> Iterator[_Proxy]:
    server = _Proxy()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def _proxy_url(proxy: _Proxy, credentials: str = "") -> str:
    return f"http://{credentials}127.0.0.1:{proxy.server_address[1]}"


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_an_explicit_proxy_carries_requests_with_its_credentials(server, proxy, transport) -> None:
    with courier.Client(proxy=_proxy_url(proxy, "py:s3cret@"), trust_env=False, transport=transport) as client:
        assert client.get(server("/anything/via-proxy")).status_code == 200
    method, target, authorization = proxy.seen[0]
    # curl sends plain-http requests in absolute form; AsyncHTTPClient tunnels every request.
    assert (method, target) in (("GET", server("/anything/via-proxy")), ("CONNECT", f"127.0.0.1:{server.port}"))
    assert authorization == "Basic cHk6czNjcmV0"


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_no_proxy_hosts_go_direct(server, proxy, transport) -> None:
    with courier.Client(proxy=_proxy_url(proxy), no_proxy=["localhost", "127.0.0.1"], transport=transport) as client:
        assert client.get(server("/anything/direct")).status_code == 200
    assert proxy.seen == []


def test_a_proxy_that_cannot_be_reached_fails_without_showing_its_password(server) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with courier.Client(proxy=f"http://py:hunter2@127.0.0.1:{port}", trust_env=False) as client:
        with pytest.raises(courier.ConnectError) as raised:
            client.get(server("/anything"))
    assert "hunter2" not in str(raised.value)


def test_the_environment_proxy_is_read_unless_trust_env_is_off(server, proxy) -> None:
    # In a child process: the variables must be set before the library reads them, and setting
    # them here would race the library's threads reading the environment.
    script = (
        "import courier, sys\n"
        "with courier.Client() as client:\n"
        f"    client.get({server('/anything/env')!r})\n"
        "with courier.Client(trust_env=False) as client:\n"
        f"    client.get({server('/anything/no-env')!r})\n"
    )
    environment = {**os.environ, "http_proxy": _proxy_url(proxy)}
    environment.pop("no_proxy", None)
    environment.pop("NO_PROXY", None)
    run = subprocess.run([sys.executable, "-c", script], env=environment, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert [target for _, target, _ in proxy.seen] == [server("/anything/env")]


def test_limits_http_version_and_decompression_reach_the_library(server) -> None:
    limits = courier.Limits(max_connections=4, max_connections_per_host=2, max_keepalive_connections=2, keepalive_expiry=5)
    with courier.Client(limits=limits, http_version="1.1", decompress=False, min_tls_version="1.2") as client:
        echoed = client.get(server("/anything")).json()
    assert all(name.lower() != "accept-encoding" for name, _ in echoed["header_list"])
    with pytest.raises(courier.InvalidRequest):
        courier.Client(http_version="3")
    with pytest.raises(courier.InvalidRequest):
        courier.Client(limits=courier.Limits(max_connections=0))
    with pytest.raises(TypeError):
        courier.Client(cert=("only-one",))  # type: ignore[arg-type]
    with pytest.raises(courier.CourierError):
        courier.Client(transport="ahc", limits=courier.Limits(max_keepalive_connections=3))


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_the_cookie_file_keeps_cookies_across_clients(server, tmp_path: Path, transport) -> None:
    jar = tmp_path / "cookies.txt"
    with courier.Client(cookie_file=jar, transport=transport) as client:
        client.get(server("/cookies/set?flavour=oat"))
    assert "flavour\toat" in jar.read_text()
    with courier.Client(cookie_file=jar, transport=transport) as client:
        assert client.get(server("/cookies")).json()["cookies"] == {"flavour": "oat"}
