"""AsyncClient runs its sends' completions on the event loops that await them (the library queues
them; each loop watches the client's completion descriptor), and lets go of every loop cleanly."""
from __future__ import annotations

import asyncio
import os
import threading

import pytest

import courier
from courier import _sending


def open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_completions_run_on_the_thread_of_the_awaiting_loop(server, monkeypatch) -> None:
    threads: list[int] = []
    complete = _sending._SendState.complete

    def recording(state, response, error):
        threads.append(threading.get_ident())
        complete(state, response, error)

    monkeypatch.setattr(_sending._SendState, "complete", recording)

    async def main() -> list[int]:
        async with courier.AsyncClient(base_url=server.url) as client:
            responses = await asyncio.gather(*(client.get("/anything") for _ in range(16)))
            assert all(response.status_code == 200 for response in responses)
        return [threading.get_ident()]

    loop_thread = asyncio.run(main())
    assert threads and set(threads) == set(loop_thread)


def test_loops_on_two_threads_share_one_client(server) -> None:
    client = courier.AsyncClient(base_url=server.url)
    outcomes: list[object] = []

    def on_its_own_loop(tag: str) -> None:
        async def main() -> list[str]:
            responses = await asyncio.gather(*(client.get("/anything", params={"t": tag}) for _ in range(20)))
            return [response.json()["query"] for response in responses]
        try:
            outcomes.append(asyncio.run(main()))
        except BaseException as failure:  # noqa: BLE001 - reported below
            outcomes.append(failure)

    threads = [threading.Thread(target=on_its_own_loop, args=(tag,)) for tag in ("a", "b", "c")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    client.close()
    assert sorted(outcome[0] for outcome in outcomes) == ["t=a", "t=b", "t=c"], outcomes
    assert all(outcome == [outcome[0]] * 20 for outcome in outcomes)


def test_a_client_outlives_its_loops_and_keeps_no_descriptor_of_theirs(server) -> None:
    client = courier.AsyncClient(base_url=server.url)

    async def one_loop() -> int:
        return (await client.get("/anything")).status_code

    assert asyncio.run(one_loop()) == 200
    before = open_descriptors()
    for _ in range(20):
        assert asyncio.run(one_loop()) == 200
    assert open_descriptors() <= before + 1
    client.close()


def test_a_loop_closed_with_sends_in_flight_does_not_strand_the_client(server) -> None:
    client = courier.AsyncClient(base_url=server.url)
    loop = asyncio.new_event_loop()

    async def leave_sends_behind() -> None:
        for _ in range(4):
            asyncio.ensure_future(client.get("/delay/300"))
        await asyncio.sleep(0.05)

    loop.run_until_complete(leave_sends_behind())
    loop.close()

    async def later() -> int:
        return (await client.get("/anything")).status_code

    assert asyncio.run(later()) == 200
    client.close()


def test_closing_the_client_stops_the_loop_watching(server) -> None:
    async def main() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        watched = len(loop._selector.get_map())  # type: ignore[attr-defined]
        async with courier.AsyncClient(base_url=server.url) as client:
            await client.get("/anything")
            during = len(loop._selector.get_map())  # type: ignore[attr-defined]
        await asyncio.sleep(0.05)
        return during - watched, len(loop._selector.get_map()) - watched  # type: ignore[attr-defined]

    during, after = asyncio.run(main())
    assert during == 1
    assert after == 0


def test_a_loop_without_add_reader_gets_its_completions_from_a_thread(server) -> None:
    class NoReaders(asyncio.SelectorEventLoop):
        def add_reader(self, *args, **kwargs):
            raise NotImplementedError

    async def main() -> list[int]:
        async with courier.AsyncClient(base_url=server.url) as client:
            responses = await asyncio.gather(*(client.get("/anything") for _ in range(8)))
            streamed = []
            async with client.stream("GET", "/bytes/1000") as response:
                async for chunk in response.aiter_bytes():
                    streamed.append(chunk)
        return [response.status_code for response in responses] + [len(b"".join(streamed))]

    loop = NoReaders()
    try:
        assert loop.run_until_complete(asyncio.wait_for(main(), 30)) == [200] * 8 + [1000]
    finally:
        loop.close()


def test_cancelled_sends_still_settle_on_the_loop(server) -> None:
    async def main() -> int:
        async with courier.AsyncClient(base_url=server.url) as client:
            tasks = [asyncio.ensure_future(client.get("/delay/5000")) for _ in range(8)]
            await asyncio.sleep(0.1)
            for task in tasks:
                task.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            assert all(isinstance(result, asyncio.CancelledError) for result in results)
            return (await client.get("/anything")).status_code

    assert asyncio.run(asyncio.wait_for(main(), 30)) == 200


def test_ctrl_c_inside_a_completion_reaches_the_loop(server, monkeypatch) -> None:
    complete = _sending._SendState.complete

    def interrupted(state, response, error):
        complete(state, response, error)
        raise KeyboardInterrupt

    monkeypatch.setattr(_sending._SendState, "complete", interrupted)
    client = courier.AsyncClient(base_url=server.url)
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_task(client.get("/anything"))
        try:
            loop.run_until_complete(asyncio.wait_for(future, 30))
        except KeyboardInterrupt:
            pass
        else:
            raise AssertionError("the KeyboardInterrupt raised inside the completion was lost")
        assert loop.run_until_complete(future).status_code == 200  # the send itself completed
    finally:
        client.close()
        loop.close()


def test_uvloop_runs_the_completions_too(server) -> None:
    uvloop = pytest.importorskip("uvloop")

    async def main() -> list[int]:
        async with courier.AsyncClient(base_url=server.url) as client:
            responses = await asyncio.gather(*(client.get("/anything") for _ in range(32)))
            streamed = []
            async with client.stream("GET", "/stream-bytes/20000", params={"chunk_size": 1000}) as response:
                async for chunk in response.aiter_bytes():
                    streamed.append(chunk)
        return [response.status_code for response in responses] + [len(b"".join(streamed))]

    loop = uvloop.new_event_loop()
    try:
        assert loop.run_until_complete(asyncio.wait_for(main(), 30)) == [200] * 32 + [20000]
    finally:
        loop.close()
