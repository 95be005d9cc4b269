from __future__ import annotations

import base64
import threading

import pytest

import courier


class Sign:
    name = "sign"

    def on_request(self, exchange: courier.Exchange) -> None:
        exchange.request.headers["X-Sig"] = "v1"
        exchange.request.headers.add("X-Many", "a")
        exchange.request.headers.add("X-Many", "b")
        if "Cookie" in exchange.request.headers:
            del exchange.request.headers["Cookie"]


def headers_of(response: courier.Response) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, value in response.json()["header_list"]:
        found.setdefault(name.lower(), []).append(value)
    return found


def test_on_request_edits_live_request(server) -> None:
    with courier.Client(base_url=server.url, interceptors=[Sign()]) as client:
        response = client.get("/anything", headers={"Cookie": "a=b"})
    headers = headers_of(response)
    assert headers["x-sig"] == ["v1"]
    assert "cookie" not in headers
    assert response.json()["header_list"].count(["X-Many", "a"]) == 1


class Reroute:
    name = "reroute"

    def on_request(self, exchange: courier.Exchange) -> None:
        exchange.request.url = exchange.request.url.replace("/old/", "/anything/new/")


def test_on_request_reroutes_by_setting_the_url(server) -> None:
    with courier.Client(base_url=server.url, interceptors=[Reroute()]) as client:
        response = client.get("/old/path?q=1")
    assert response.json()["path"] == "/anything/new/path"
    with courier.Client(base_url=server.url, interceptors=[BadReroute()]) as client:
        with pytest.raises(courier.InterceptorError) as raised:
            client.get("/anything")
    assert isinstance(raised.value.__cause__, courier.InvalidRequest)


class BadReroute:
    name = "bad-reroute"

    def on_request(self, exchange: courier.Exchange) -> None:
        exchange.request.url = "not a url"


def test_views_read_request_and_response(server) -> None:
    seen: dict[str, object] = {}

    class Look:
        def on_request(self, exchange):
            seen["method"] = exchange.request.method
            seen["url"] = exchange.request.url
            seen["body"] = exchange.request.content
            seen["attempt"] = exchange.attempt
            seen["id"] = exchange.request_id
            seen["response_before"] = exchange.response
            seen["view"] = exchange.request

        def on_response(self, exchange):
            seen["status"] = exchange.response.status_code
            seen["type"] = exchange.response.headers["content-type"]
            seen["length"] = len(exchange.response.content)
            exchange.response.headers["X-Added"] = "1"
            exchange.response.status_code = 299
            exchange.response.content = b'{"replaced": true}'

    with courier.Client(base_url=server.url, interceptors=[Look()]) as client:
        response = client.post("/anything/x?y=1", content=b"body")
    assert seen["method"] == "POST"
    assert str(seen["url"]).endswith("/anything/x?y=1")
    assert seen["body"] == b"body"
    assert seen["attempt"] == 1
    assert seen["id"]
    assert seen["response_before"] is None
    assert seen["status"] == 200
    assert str(seen["type"]).startswith("application/json")
    assert response.status_code == 299
    assert response.headers["x-added"] == "1"
    assert response.json() == {"replaced": True}
    with pytest.raises(courier.ClosedError):
        seen["view"].method  # type: ignore[attr-defined]


def test_on_request_answers(server) -> None:
    class Answer:
        def on_request(self, exchange):
            return courier.Response(203, json={"from": "interceptor"}, headers={"X-Local": "1"})

    with courier.Client(base_url=server.url, interceptors=[Answer()]) as client:
        response = client.get("http://127.0.0.1:1/never")
    assert response.status_code == 203
    assert response.json() == {"from": "interceptor"}
    assert response.headers["x-local"] == "1"


def test_on_response_replaces(server) -> None:
    class Replace:
        def on_response(self, exchange):
            if exchange.response.status_code == 404:
                return courier.Response(200, text="fallback")
            return None

    with courier.Client(base_url=server.url, interceptors=[Replace()]) as client:
        assert client.get("/status/404").text == "fallback"
        assert client.get("/status/201").status_code == 201


def test_retry(server) -> None:
    attempts: list[int] = []

    class RetryOnce:
        def on_response(self, exchange):
            attempts.append(exchange.attempt)
            if exchange.attempt == 1:
                exchange.request.headers["X-Retried"] = "yes"
                return exchange.retry()
            return None

    with courier.Client(base_url=server.url, interceptors=[RetryOnce()]) as client:
        response = client.get("/anything")
    assert attempts == [1, 2]
    assert headers_of(response)["x-retried"] == ["yes"]


def test_retry_only_from_on_response(server) -> None:
    class Bad:
        def on_request(self, exchange):
            return exchange.retry()

    with courier.Client(base_url=server.url, interceptors=[Bad()]) as client:
        with pytest.raises(courier.InterceptorError):
            client.get("/anything")


def test_exception_becomes_interceptor_error_with_cause(server) -> None:
    class Boom:
        name = "boom"

        def on_request(self, exchange):
            raise KeyError("missing")

    with courier.Client(base_url=server.url, interceptors=[Boom()]) as client:
        with pytest.raises(courier.InterceptorError) as caught:
            client.get("/anything")
        assert "boom" in str(caught.value)
        assert caught.value.code == 14
        assert isinstance(caught.value.__cause__, KeyError)


def test_bad_return_value_fails_cleanly(server) -> None:
    class Weird:
        def on_request(self, exchange):
            return 42

    with courier.Client(base_url=server.url, interceptors=[Weird()]) as client:
        with pytest.raises(courier.InterceptorError) as caught:
            client.get("/anything")
    assert isinstance(caught.value.__cause__, TypeError)


def test_around(server) -> None:
    calls: list[str] = []

    class Around:
        name = "around"

        def around(self, request, call_next):
            calls.append(threading.current_thread().name)
            request.headers["X-Around"] = "1"
            response = call_next(request)
            if response.status_code == 500 and len(calls) < 5:
                response = call_next(request)
            response.headers["X-Seen"] = str(response.status_code)
            return response

    with courier.Client(base_url=server.url, interceptors=[Around()]) as client:
        response = client.get("/anything")
        assert headers_of(response)["x-around"] == ["1"]
        assert response.headers["x-seen"] == "200"


def test_around_answers_and_propagates_errors(server) -> None:
    class Cached:
        def around(self, request, call_next):
            if request.url.endswith("/cached"):
                return courier.Response(200, content=b"cached")
            return call_next(request)

    with courier.Client(base_url=server.url, interceptors=[Cached()], timeout=0.3) as client:
        assert client.get("/cached").content == b"cached"
        with pytest.raises(courier.TimeoutException):
            client.get("/delay/3000")


def test_blocking_send_from_callback_is_clear_error(server) -> None:
    with courier.Client(base_url=server.url) as inner:
        class Nested:
            def on_request(self, exchange):
                inner.get("/anything")

        with courier.Client(base_url=server.url, interceptors=[Nested()]) as client:
            with pytest.raises(courier.InterceptorError) as caught:
                client.get("/anything")
    assert isinstance(caught.value.__cause__, courier.WouldBlock)


def test_a_send_whose_callback_caught_a_nested_send_error_returns_its_own_response(server) -> None:
    # The nested send fails on this thread while the outer one is under way; both use the
    # thread's out-parameters, so the outer must still read its own response afterwards.
    caught: list[BaseException] = []
    with courier.Client(base_url=server.url) as inner:
        class Nested:
            def on_request(self, exchange):
                try:
                    inner.get("/status/418")
                except courier.WouldBlock as error:
                    caught.append(error)

        with courier.Client(base_url=server.url, interceptors=[Nested()]) as client:
            response = client.get("/anything/outer")
    assert len(caught) == 1
    assert response.status_code == 200
    assert response.json()["path"] == "/anything/outer"


def test_event_hooks(server) -> None:
    seen: list[str] = []

    def on_request(request):
        seen.append("request " + request.method)
        request.headers["X-Hook"] = "1"

    def on_response(response):
        seen.append(f"response {response.status_code}")

    with courier.Client(base_url=server.url,
                        event_hooks={"request": [on_request], "response": [on_response]}) as client:
        response = client.get("/anything")
    assert seen == ["request GET", "response 200"]
    assert headers_of(response)["x-hook"] == ["1"]


def test_chain_order_and_remove(server) -> None:
    order: list[str] = []

    def make(name):
        class Step:
            def on_request(self, exchange):
                order.append(name)
        Step.name = name
        return Step()

    with courier.Client(base_url=server.url, interceptors=[make("a"), make("b")]) as client:
        client.add_interceptor(make("c"))
        client.get("/anything")
        assert order == ["a", "b", "c"]
        client.remove_interceptor("b")
        order.clear()
        client.get("/anything")
        assert order == ["a", "c"]
        with pytest.raises(courier.CourierError) as caught:
            client.remove_interceptor("nope")
        assert caught.value.code == 17


def test_interceptors_are_released_on_close(server) -> None:
    from courier._handles import handles

    before = len(handles)
    with courier.Client(base_url=server.url, interceptors=[Sign(), Sign()]) as client:
        assert len(handles) == before + 2
        client.get("/anything")
    assert len(handles) == before


def test_body_is_readable_in_interceptor_and_signed(server) -> None:
    class Digest:
        def on_request(self, exchange):
            import hashlib
            exchange.request.headers["X-Digest"] = hashlib.sha256(exchange.request.content).hexdigest()

    with courier.Client(base_url=server.url, interceptors=[Digest()]) as client:
        response = client.post("/anything", json={"a": 1})
    body = base64.b64decode(response.json()["body_base64"])
    import hashlib
    assert headers_of(response)["x-digest"] == [hashlib.sha256(body).hexdigest()]


def test_failure_in_on_response_carries_the_status(server) -> None:
    class Reject:
        name = "reject"

        def on_response(self, exchange):
            if exchange.response.status_code >= 400:
                raise ValueError("bad status")

    with courier.Client(base_url=server.url, interceptors=[Reject()]) as client:
        with pytest.raises(courier.InterceptorError) as caught:
            client.get("/status/418")
    assert caught.value.stage == "reject"
    assert caught.value.response is not None and caught.value.response.status_code == 418
    assert "[py#" not in str(caught.value)
    assert isinstance(caught.value.__cause__, ValueError)
