from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import courier


def echo(response: courier.Response) -> dict:
    data = response.json()
    data["headers_dict"] = {}
    for name, value in data["header_list"]:
        data["headers_dict"].setdefault(name.lower(), []).append(value)
    return data


def test_get_with_headers_and_query(client: courier.Client) -> None:
    response = client.get("/anything/path", params={"q": "a b", "n": 1, "flag": None, "multi": ["x", "y"]},
                          headers={"X-Demo": "yes", "Accept": "application/json"})
    assert response.status_code == 200
    assert response.reason_phrase == "OK"
    assert response.is_success
    data = echo(response)
    assert data["method"] == "GET"
    assert data["path"] == "/anything/path"
    assert data["query"] == "q=a%20b&n=1&flag&multi=x&multi=y"
    assert data["headers_dict"]["x-demo"] == ["yes"]
    assert response.url.endswith("/anything/path?q=a%20b&n=1&flag&multi=x&multi=y")
    assert response.request is not None and response.request.method == "GET"
    assert response.request.headers["x-demo"] == "yes"
    assert response.elapsed.total_seconds() > 0
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers["CONTENT-TYPE"] == response.headers.get("Content-Type")


def test_responses_of_a_reused_request_each_own_their_request(client: courier.Client) -> None:
    # A bare GET reuses one built request; each response's `request` is its own copy, made on
    # first read, and `elapsed` is a timedelta made on first read.
    first, second = client.get("/get"), client.get("/get")
    first.request.headers["X-Mine"] = "first"
    assert "x-mine" not in second.request.headers
    assert client.get("/get").request.headers.get("X-Mine") is None
    assert first.request is first.request
    assert first.elapsed is first.elapsed and first.elapsed.total_seconds() > 0
    replaced = courier.Request("GET", "http://example.invalid/")
    second.request = replaced
    assert second.request is replaced
    second.elapsed = second.elapsed * 2
    assert second.elapsed.total_seconds() > 0


def test_client_headers_and_override(server) -> None:
    with courier.Client(base_url=server.url, headers={"X-A": "1", "X-B": "client"}) as client:
        data = echo(client.get("/anything", headers={"x-b": "request"}))
    assert data["headers_dict"]["x-a"] == ["1"]
    assert data["headers_dict"]["x-b"] == ["request"]


def test_repeated_response_headers_joined_and_listed() -> None:
    headers = courier.Headers([("Set-Thing", "a"), ("set-thing", "b"), ("Other", "c")])
    assert headers["set-thing"] == "a, b"
    assert headers.get_list("SET-THING") == ["a", "b"]
    assert len(headers) == 2
    del headers["other"]
    assert "Other" not in headers



def test_json_body(client: courier.Client) -> None:
    data = echo(client.post("/anything", json={"name": "Ada", "n": [1, 2], "ü": "ß"}))
    assert data["method"] == "POST"
    assert data["headers_dict"]["content-type"][0].startswith("application/json")
    import base64
    assert json.loads(base64.b64decode(data["body_base64"])) == {"name": "Ada", "n": [1, 2], "ü": "ß"}


def test_form_body(client: courier.Client) -> None:
    import base64
    data = echo(client.post("/anything", data={"a": "1 2", "b": "&"}))
    assert data["headers_dict"]["content-type"][0].startswith("application/x-www-form-urlencoded")
    assert base64.b64decode(data["body_base64"]) in (b"a=1%202&b=%26", b"a=1+2&b=%26")
    data = echo(client.post("/anything", form={"x": "y"}))
    assert base64.b64decode(data["body_base64"]) == b"x=y"


def test_multipart_with_files(client: courier.Client, tmp_path) -> None:
    import base64
    path = tmp_path / "notes.txt"
    path.write_bytes(b"file on disk\n")
    data = echo(client.post("/anything", data={"title": "Notes"}, files={
        "disk": path,
        "memory": ("hello.bin", b"\x00\x01\x02", "application/x-test"),
        "plain": b"raw bytes",
    }))
    content_type = data["headers_dict"]["content-type"][0]
    assert content_type.startswith("multipart/form-data; boundary=")
    body = base64.b64decode(data["body_base64"])
    assert b'name="title"' in body and b"Notes" in body
    assert b'filename="notes.txt"' in body and b"file on disk\n" in body
    assert b'filename="hello.bin"' in body and b"application/x-test" in body and b"\x00\x01\x02" in body
    assert b"raw bytes" in body


def test_content_bytes_text_and_file(client: courier.Client, tmp_path) -> None:
    import base64
    assert base64.b64decode(echo(client.put("/anything", content=b"\xff\x00"))["body_base64"]) == b"\xff\x00"
    data = echo(client.patch("/anything", content="héllo"))
    assert base64.b64decode(data["body_base64"]) == "héllo".encode()
    path = tmp_path / "upload.bin"
    path.write_bytes(bytes(range(256)) * 100)
    data = echo(client.post("/anything", content=path))
    assert data["body_length"] == 25600


def test_methods(client: courier.Client) -> None:
    assert client.delete("/anything").json()["method"] == "DELETE"
    assert client.options("/anything").json()["method"] == "OPTIONS"
    head = client.head("/bytes/100")
    assert head.status_code == 200 and head.content == b""
    assert client.request("link", "/anything").json()["method"] == "LINK"


def test_auth_and_bearer(client: courier.Client) -> None:
    assert client.get("/basic-auth/ada/secret", auth=("ada", "secret")).status_code == 200
    assert client.get("/basic-auth/ada/secret", auth=("ada", "wrong")).status_code == 401
    data = echo(client.get("/anything", bearer="tok"))
    assert data["headers_dict"]["authorization"] == ["Bearer tok"]


def test_status_and_raise_for_status(client: courier.Client) -> None:
    response = client.get("/status/404")
    assert response.status_code == 404 and not response.is_success
    with pytest.raises(courier.HTTPStatusError) as caught:
        response.raise_for_status()
    assert caught.value.response is response
    assert caught.value.request is response.request
    assert isinstance(caught.value, courier.CourierError)
    assert client.get("/status/204").raise_for_status().status_code == 204


def test_text_and_json_errors(client: courier.Client) -> None:
    response = client.get("/bytes/10")
    assert response.content == bytes(range(10))
    with pytest.raises(courier.DecodingError):
        response.json()


def test_redirects(server) -> None:
    with courier.Client(base_url=server.url) as client:
        response = client.get("/redirect/3")
        assert response.status_code == 200
        assert "/redirect" not in response.url
    with courier.Client(base_url=server.url, follow_redirects=False) as client:
        response = client.get("/redirect/3")
        assert response.status_code in (301, 302, 303, 307, 308)
        assert response.is_redirect
    with courier.Client(base_url=server.url, max_redirects=2) as client:
        with pytest.raises(courier.TooManyRedirects) as caught:
            client.get("/redirect/5")
        assert isinstance(caught.value, courier.RequestError)
        assert caught.value.code == 13


def test_timeout(server) -> None:
    with courier.Client(base_url=server.url, timeout=0.3) as client:
        with pytest.raises(courier.TimeoutException) as caught:
            client.get("/delay/3000")
        assert isinstance(caught.value, courier.TransportError)
        assert caught.value.request is not None
        assert client.get("/delay/10", timeout=5).status_code == 200
    with courier.Client(base_url=server.url) as client:
        with pytest.raises(courier.TimeoutException):
            client.get("/delay/3000", timeout=0.2)


def test_connect_error() -> None:
    with courier.Client(timeout=5) as client:
        with pytest.raises(courier.ConnectError) as caught:
            client.get("http://127.0.0.1:1/")
    assert caught.value.code == 6
    assert isinstance(caught.value, courier.TransportError)


def test_closed_client(server) -> None:
    client = courier.Client(base_url=server.url)
    client.close()
    client.close()
    assert client.is_closed
    with pytest.raises(courier.ClosedError):
        client.get("/anything")


def test_ahc_transport(server) -> None:
    with courier.Client(base_url=server.url, transport="ahc") as client:
        assert client.get("/anything").json()["method"] == "GET"
    with pytest.raises(courier.InvalidRequest):
        courier.Client(transport="carrier-pigeon")


def test_the_default_library_refuses_ahc_naming_the_variant_to_install() -> None:
    """The default libcourier carries only libcurl's transport: asking it for "ahc" is an
    Unsupported error that says how to get the variant, and "curl" still works. Run in a child,
    since this process has the variant loaded."""
    default = os.environ.get("COURIER_DEFAULT_LIBRARY")
    if not default:
        pytest.skip("COURIER_DEFAULT_LIBRARY is not set (scripts/test-python sets it)")
    program = textwrap.dedent("""
        import courier
        try:
            courier.Client(transport="ahc")
        except courier.Unsupported as error:
            print("unsupported:", error)
        with courier.Client(transport="curl"):
            print("curl ok")
    """)
    outcome = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "COURIER_LIBRARY": default})
    assert outcome.returncode == 0, outcome.stderr
    assert "unsupported:" in outcome.stdout and "--with-async-http-client" in outcome.stdout, outcome.stdout
    assert "curl ok" in outcome.stdout


def test_version_info() -> None:
    assert courier.abi_version[0] == 1
    assert courier.library_version
    assert courier.library_path


def test_an_authentication_failure_is_an_http_status_error() -> None:
    from courier._errors import error_class
    from courier._lib import lib

    error = error_class(lib.COURIER_E_AUTHENTICATION)("refused", code=lib.COURIER_E_AUTHENTICATION)
    assert isinstance(error, courier.AuthenticationError) and isinstance(error, courier.HTTPStatusError)
    assert error_class(lib.COURIER_E_INTERNAL) is courier.CourierError


def test_streamed_upload_from_generator_and_file(client: courier.Client, tmp_path) -> None:
    import base64

    def chunks():
        for n in range(100):
            yield bytes([n % 256]) * 1000

    data = client.post("/anything", content=chunks()).json()
    assert data["body_length"] == 100_000
    assert base64.b64decode(data["body_base64"])[:1000] == b"\x00" * 1000
    path = tmp_path / "f.bin"
    path.write_bytes(b"abc" * 10_000)
    with open(path, "rb") as file:
        assert client.put("/anything", content=file).json()["body_length"] == 30_000


def test_failing_generator_body_is_typed_error(client: courier.Client) -> None:
    def broken():
        yield b"x"
        raise OSError("disk gone")

    with pytest.raises(courier.CourierError) as caught:
        client.post("/anything", content=broken())
    assert caught.value.code == 4


def test_each_response_of_a_reused_request_has_its_own_request(server) -> None:
    # A method-and-URL request is built once per thread and reused; the Request each Response
    # carries must still be its own, so editing one leaves the next untouched.
    with courier.Client(base_url=server.url, headers={"X-Default": "d"}) as client:
        first = client.get("/anything")
        first.request.headers.add("X-Edited", "1")
        first.request.url = "http://edited.invalid/"
        second = client.get("/anything")
    assert "x-edited" not in second.request.headers
    assert second.request.headers["x-default"] == "d"
    assert second.request.url.endswith("/anything")


def test_response_status_classes_and_text_iteration_follow_httpx() -> None:
    moved = courier.Response(302, headers={"Location": "/next"})
    assert moved.has_redirect_location and moved.is_redirect and not moved.is_error
    assert courier.Response(404).is_client_error and courier.Response(404).is_error
    assert courier.Response(503).is_server_error and not courier.Response(503).is_client_error
    assert courier.Response(101).is_informational
    lines = courier.Response(200, text="one\r\ntwo\nthree")
    assert list(lines.iter_lines()) == ["one", "two", "three"]
    assert "".join(lines.iter_text(4)) == "one\r\ntwo\nthree"
    lines.close()
