from __future__ import annotations

import pytest

import courier


@pytest.mark.parametrize("headers", [
    {"X-Bad": "a\r\nInjected: yes"},
    {"X-Bad": "a\nb"},
    {"X-Bad": "a\0b"},
    {"Bad Name": "v"},
    {"X-Nul\0": "v"},
    {"": "v"},
    {"X-Bad": b"\xff\xfe"},
    {"X-Surrogate": "\udc80"},
])
def test_bad_header_is_invalid_request(client: courier.Client, headers) -> None:
    with pytest.raises(courier.InvalidRequest) as caught:
        client.get("/anything", headers=headers)
    assert isinstance(caught.value, ValueError)
    assert caught.value.code in (1, 3)


@pytest.mark.parametrize("url", ["not a url", "http://", "://nohost", "http://exa mple.com/", "http://a\0b/",
                                 "http://\udc80/", b"http://\xff\xfe/", b"http://127.0.0.1/\xc3"])
def test_invalid_url(url: str | bytes) -> None:
    with courier.Client() as client:
        with pytest.raises(courier.InvalidRequest):
            client.get(url)


@pytest.mark.parametrize("method", ["GE T", "", "G\r\nET", "GET\0"])
def test_invalid_method(client: courier.Client, method: str) -> None:
    with pytest.raises(courier.InvalidRequest):
        client.request(method, "/anything")


def test_bad_query_and_body(client: courier.Client) -> None:
    with pytest.raises(courier.InvalidRequest):
        client.get("/anything", params={"q": "\udc80"})
    with pytest.raises(courier.InvalidRequest):
        client.get("/anything", params={"q\0": "1"})
    with pytest.raises(courier.InvalidRequest):
        client.post("/anything", json={"a": float("nan")})
    with pytest.raises(courier.InvalidRequest):
        client.post("/anything", json=object())
    with pytest.raises(courier.InvalidRequest):
        client.post("/anything", json={}, content=b"x")
    with pytest.raises(courier.InvalidRequest):
        client.post("/anything", content="\udc80")
    with pytest.raises(courier.InvalidRequest):
        client.post("/anything", files={"f": __import__("pathlib").Path("/nonexistent/file")})
    with pytest.raises(courier.InvalidRequest):
        client.get("/anything", timeout=-1)
    with pytest.raises(courier.InvalidRequest):
        client.get("/anything", auth=("a:b", "c"))
    with pytest.raises(TypeError):
        client.post("/anything", content=12)
    with pytest.raises(TypeError):
        client.get("/anything", headers=5)


def test_bad_client_options() -> None:
    with pytest.raises(courier.InvalidRequest):
        courier.Client(timeout=-1)
    with pytest.raises(courier.InvalidRequest):
        courier.Client(callback_threads=1000)
    with pytest.raises(courier.InvalidRequest):
        courier.Client(base_url="http://\0")
    with pytest.raises(TypeError):
        courier.Client(interceptors=[object()])


def test_client_still_works_after_bad_input(client: courier.Client) -> None:
    for _ in range(3):
        with pytest.raises(courier.InvalidRequest):
            client.get("/anything", headers={"X": "a\r\nb"})
    assert client.get("/anything").status_code == 200
