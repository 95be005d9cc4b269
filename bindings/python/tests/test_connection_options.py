"""resolve=, connect_to=, pinned_public_keys= and .netrc under trust_env: curl's --resolve,
--connect-to and --pinnedpubkey, and requests' netrc, through courier_client_options (ABI 1.4)."""
from __future__ import annotations

import base64
import hashlib
import http.server
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import courier
from conftest import Server

NAME = "courier-route.invalid"


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_a_resolved_name_reaches_its_address_and_keeps_its_host(server: Server, transport: str) -> None:
    route = f"{NAME}:{server.port}:127.0.0.1"
    with courier.Client(resolve=[route], transport=transport, trust_env=False, timeout=60) as client:
        echoed = client.get(f"http://{NAME}:{server.port}/echo/routed").json()
    assert echoed["path"] == "/echo/routed"
    assert ["host", f"{NAME}:{server.port}"] in [[name.lower(), value] for name, value in echoed["headers"]]


def test_connect_to_sends_port_80_of_a_name_to_the_server(server: Server) -> None:
    route = f"{NAME}:80:127.0.0.1:{server.port}"
    with courier.Client(connect_to=[route], trust_env=False, timeout=60) as client:
        assert client.get(f"http://{NAME}/status/204").status_code == 204


def test_what_a_transport_cannot_route_is_refused_by_name(server: Server) -> None:
    with pytest.raises(courier.InvalidRequest, match=r"resolve\[0\]"):
        courier.Client(resolve=["not a route"])
    with pytest.raises(TypeError):
        courier.Client(resolve="example.com:80:127.0.0.1")
    with pytest.raises(courier.Unsupported, match="same port"):
        courier.Client(connect_to=[f"{NAME}:80:127.0.0.1:{server.port}"], transport="ahc")


@pytest.fixture()
def tls_server(tmp_path: Path) -> Iterator[tuple[str, Path, str]]:
    """An HTTPS server on 127.0.0.1 with a self-signed certificate: its URL, the certificate, and its key's pin."""
    certificate, key = tmp_path / "server.pem", tmp_path / "server.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
                    "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    public_key = subprocess.run(["openssl", "x509", "-in", str(certificate), "-pubkey", "-noout"],
                                check=True, capture_output=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=public_key,
                         check=True, capture_output=True).stdout
    pin = "sha256//" + base64.b64encode(hashlib.sha256(der).digest()).decode()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200)
            self.send_header("Content-Length", "6")
            self.end_headers()
            self.wfile.write(b"pinned")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(certificate, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}/", certificate, pin
    finally:
        server.shutdown()
        server.server_close()


def test_only_a_certificate_with_a_pinned_key_is_accepted(tls_server: tuple[str, Path, str]) -> None:
    url, certificate, pin = tls_server
    wrong = "sha256//" + base64.b64encode(bytes(32)).decode()
    for pins in ({"127.0.0.1": pin}, {"127.0.0.1": [wrong, pin]}, {"*": pin}):
        with courier.Client(verify=str(certificate), pinned_public_keys=pins) as client:
            assert client.get(url).text == "pinned"
    with courier.Client(verify=str(certificate), pinned_public_keys={"127.0.0.1": wrong}) as client:
        with pytest.raises(courier.TLSError) as raised:
            client.get(url)
    assert "127.0.0.1" in str(raised.value) and wrong in str(raised.value)
    with pytest.raises(courier.InvalidRequest, match="pinned_public_keys"):
        courier.Client(pinned_public_keys={"127.0.0.1": "sha1//nope"})
    with pytest.raises(courier.Unsupported, match="public key"):
        courier.Client(pinned_public_keys={"127.0.0.1": pin}, transport="ahc")


def test_netrc_credentials_go_to_their_host_under_trust_env(server: Server, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    netrc = tmp_path / "netrc"
    netrc.write_text("machine 127.0.0.1\n  login alice\n  password wonder\n")
    monkeypatch.setenv("NETRC", str(netrc))
    with courier.Client(base_url=server.url, timeout=20) as client:
        assert client.get("/basic-auth/alice/wonder").status_code == 200
        # Credentials of the request's own win over the file.
        assert client.get("/basic-auth/alice/wonder", auth=("alice", "other")).status_code == 401
    with courier.Client(base_url=server.url, timeout=20, trust_env=False) as client:
        assert client.get("/basic-auth/alice/wonder").status_code == 401
    netrc.write_text("machine 127.0.0.1 login\n")
    with pytest.raises(courier.InvalidRequest, match="line 1"):
        courier.Client(base_url=server.url)


def test_a_broken_download_resumes_from_its_part(server: Server, tmp_path: Path) -> None:
    target = tmp_path / "file.bin"
    with courier.Client(base_url=server.url, timeout=60) as client:
        with pytest.raises(courier.CourierError):
            client.download("/range/300000", target, params={"drop_after": 120000})
        part = tmp_path / "file.bin.part"
        assert 0 < part.stat().st_size <= 120000
        head = client.download("/range/300000", target, resume=True)
    assert head.status_code == 206 and head.content == b""
    data = target.read_bytes()
    assert len(data) == 300000 and data[:512] == bytes(range(256)) * 2
    assert not part.exists()
