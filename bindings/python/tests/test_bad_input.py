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
    for options in ({"timeout": float("nan")}, {"timeout": float("inf")}, {"timeout": 1e300},
                    {"max_redirects": 2**40}, {"max_body_bytes": -1}, {"callback_threads": -(2**40)},
                    {"connect_timeout": -5}):
        with pytest.raises(courier.InvalidRequest):
            courier.Client(**options)
    with pytest.raises(TypeError):
        courier.Client(timeout="10")


def test_bad_request_timeouts(client: courier.Client) -> None:
    for timeout in (float("nan"), float("inf"), 0, 1e300):
        with pytest.raises(courier.InvalidRequest):
            client.get("/anything", timeout=timeout)


def test_client_still_works_after_bad_input(client: courier.Client) -> None:
    for _ in range(3):
        with pytest.raises(courier.InvalidRequest):
            client.get("/anything", headers={"X": "a\r\nb"})
    assert client.get("/anything").status_code == 200


def test_random_input_never_crashes(server) -> None:
    """Seeded random methods, URLs, header names and values, query items and bodies: every
    outcome is a response or a typed exception, and the client keeps working."""
    import random

    rng = random.Random(12)
    alphabet = ["a", "Z", "0", "-", " ", ":", "\r", "\n", "\0", "\t", "é", "\udc80", "/", "?", "#", "%", "\x7f"]

    def text(limit: int = 12) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, limit)))

    def raw(limit: int = 12) -> bytes:
        return bytes(rng.randint(0, 255) for _ in range(rng.randint(0, limit)))

    outcomes = {"response": 0, "error": 0}
    with courier.Client(base_url=server.url, timeout=10) as client:
        for _ in range(400):
            try:
                client.request(
                    rng.choice(["GET", "POST", text(5), raw(4)]),
                    rng.choice(["/anything/" + text(), text(20), raw(20), "/anything"]),
                    headers=[(rng.choice([text(8), raw(8), "X-Ok"]), rng.choice([text(), raw(), "ok"]))],
                    params=[(text(6), rng.choice([text(6), None]))],
                    content=rng.choice([None, raw(50), text(20)]),
                )
                outcomes["response"] += 1
            except (courier.CourierError, TypeError, ValueError):
                outcomes["error"] += 1
        assert client.get("/anything").status_code == 200
    assert outcomes["response"] > 0 and outcomes["error"] > 0
