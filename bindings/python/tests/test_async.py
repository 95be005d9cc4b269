from __future__ import annotations

import asyncio
import gc
import threading
import time

import pytest

import courier


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def test_async_get_and_post(server) -> None:
    async def main():
        async with courier.AsyncClient(base_url=server.url) as client:
            response = await client.get("/anything", params={"a": "1"})
            posted = await client.post("/anything", json={"x": 1})
            return response, posted

    response, posted = run(main())
    assert response.status_code == 200 and response.json()["query"] == "a=1"
    assert posted.json()["method"] == "POST"


def test_async_concurrent_without_thread_per_send(server) -> None:
    async def main():
        async with courier.AsyncClient(base_url=server.url) as client:
            threads_before = threading.active_count()
            started = time.perf_counter()
            responses = await asyncio.gather(*(client.get("/delay/200") for _ in range(32)))
            elapsed = time.perf_counter() - started
            return responses, elapsed, threading.active_count() - threads_before

    responses, elapsed, extra_threads = run(main())
    assert all(response.status_code == 200 for response in responses)
    assert elapsed < 32 * 0.2 / 2
    assert extra_threads <= 0


def test_a_finished_async_send_leaves_nothing_for_the_garbage_collector(server) -> None:
    # A send's state and the callback that settles its future once held each other, so every
    # response waited for the cycle collector (4% of the loop's time at 32 in flight).
    async def main():
        async with courier.AsyncClient(base_url=server.url) as client:
            for _ in range(3):
                (await client.get("/anything")).content
            gc.collect()
            gc.disable()
            try:
                for _ in range(20):
                    (await client.get("/anything")).content
                return gc.collect()
            finally:
                gc.enable()

    assert run(main()) == 0


def test_async_responses_of_a_reused_request_each_own_their_request(server) -> None:
    # A bare GET reuses the client's built request; each response (and each error) gets its own
    # copy of it, made on first read.
    async def main():
        async with courier.AsyncClient(base_url=server.url, timeout=0.3) as client:
            first, second = await client.get("/get"), await client.get("/get")
            first.request.headers["X-Mine"] = "first"
            third = await client.get("/get")
            try:
                await client.get("/delay/3000")
            except courier.TimeoutException as error:
                failed = error.request
            return first, second, third, failed

    first, second, third, failed = run(main())
    assert "x-mine" not in second.request.headers and third.request.headers.get("X-Mine") is None
    assert first.request is first.request and first.request is not second.request
    assert failed is not None and failed.url.endswith("/delay/3000") and "x-mine" not in failed.headers
    assert first.elapsed.total_seconds() > 0


def test_async_errors_are_typed(server) -> None:
    async def main():
        async with courier.AsyncClient(base_url=server.url, timeout=0.3) as client:
            with pytest.raises(courier.TimeoutException):
                await client.get("/delay/3000")
            with pytest.raises(courier.InvalidRequest):
                await client.get("/anything", headers={"X": "a\r\nb"})
            with pytest.raises(courier.ConnectError):
                await client.get("http://127.0.0.1:1/")

    run(main())


def test_async_cancellation_cancels_the_call(server) -> None:
    async def main():
        async with courier.AsyncClient(base_url=server.url) as client:
            task = asyncio.ensure_future(client.get("/delay/20000"))
            await asyncio.sleep(0.2)
            started = time.perf_counter()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(client.get("/delay/20000"), 0.2)
            response = await client.get("/anything")
            return time.perf_counter() - started, response

    elapsed, response = run(main())
    assert elapsed < 3
    assert response.status_code == 200
    # The cancelled calls' completions ran (with COURIER_E_CANCELLED) long before the 20 s delay.
    from courier._client import _in_flight
    deadline = time.monotonic() + 3
    while _in_flight and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _in_flight


def test_async_interceptors(server) -> None:
    class Stamp:
        def on_request(self, exchange):
            exchange.request.headers["X-Async"] = "1"

        def on_response(self, exchange):
            exchange.response.headers["X-Back"] = "1"

    class Boom:
        def on_request(self, exchange):
            if "boom" in exchange.request.url:
                raise RuntimeError("no")

    async def main():
        async with courier.AsyncClient(base_url=server.url, interceptors=[Stamp(), Boom()]) as client:
            response = await client.get("/anything")
            with pytest.raises(courier.InterceptorError) as caught:
                await client.get("/anything/boom")
            return response, caught.value

    response, error = run(main())
    assert ["X-Async", "1"] in response.json()["header_list"]
    assert response.headers["x-back"] == "1"
    assert isinstance(error.__cause__, RuntimeError)


def test_async_stream(server) -> None:
    async def main():
        async with courier.AsyncClient(base_url=server.url) as client:
            total = 0
            async with client.stream("GET", "/stream-bytes/500000", params={"chunk_size": 8192}) as response:
                assert response.status_code == 200  # async with waited for the head
                async for chunk in response.aiter_bytes():
                    assert chunk[:1] == bytes([total % 256])
                    total += len(chunk)
                assert response.status_code == 200
            async with client.stream("GET", "/bytes/1000") as response:
                body = await response.aread()
            return total, body

    total, body = run(main())
    assert total == 500000
    assert body == bytes(i % 256 for i in range(1000))


def test_async_stream_closed_early_and_errors(server) -> None:
    async def main():
        async with courier.AsyncClient(base_url=server.url, timeout=0.5) as client:
            started = time.perf_counter()
            async with client.stream("GET", "/drip", params={"numbytes": 100, "duration_ms": 20000}) as response:
                async for chunk in response.aiter_bytes():
                    assert chunk == b"*"
                    break
            closed_after = time.perf_counter() - started
            with pytest.raises(courier.TimeoutException):
                async with client.stream("GET", "/delay/3000") as response:
                    await response.aread()
            return closed_after

    assert run(main()) < 3


def test_async_iter_lines(server) -> None:
    import json

    async def main():
        async with courier.AsyncClient(base_url=server.url) as client:
            async with client.stream("GET", "/stream/4") as response:
                return [json.loads(line)["id"] async for line in response.aiter_lines()]

    assert run(main()) == [0, 1, 2, 3]


def test_the_async_client_removes_an_interceptor_by_name(server) -> None:
    class Stamp:
        name = "stamp"

        def on_request(self, exchange):
            exchange.request.headers["X-Stamp"] = "1"

    async def main() -> tuple[dict, dict]:
        async with courier.AsyncClient(base_url=server.url, interceptors=[Stamp()]) as client:
            stamped = (await client.get("/anything")).json()["headers"]
            client.remove_interceptor("stamp")
            return stamped, (await client.get("/anything")).json()["headers"]

    stamped, plain = asyncio.run(main())
    assert stamped.get("X-Stamp") == "1"
    assert "X-Stamp" not in plain
