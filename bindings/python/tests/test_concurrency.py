from __future__ import annotations

import gc
import os
import threading
import time

import pytest

import courier


def test_eight_threads_share_one_client(server) -> None:
    failures: list[BaseException] = []
    counts = [0] * 8

    class Count:
        def on_request(self, exchange):
            exchange.request.headers["X-Thread"] = threading.current_thread().name

    with courier.Client(base_url=server.url, interceptors=[Count()]) as client:
        def work(index: int) -> None:
            try:
                for n in range(50):
                    response = client.get("/anything", params={"t": index, "n": n})
                    data = response.json()
                    assert data["query"] == f"t={index}&n={n}"
                    assert [["X-Thread", threading.current_thread().name]] == [
                        h for h in data["header_list"] if h[0] == "X-Thread"]
                    counts[index] += 1
            except BaseException as error:  # noqa: BLE001
                failures.append(error)

        threads = [threading.Thread(target=work, args=(i,), name=f"worker-{i}") for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads)
    assert not failures, failures[:3]
    assert counts == [50] * 8


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fd_count() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_ten_thousand_requests_without_growth(server) -> None:
    class Touch:
        def on_request(self, exchange):
            exchange.request.headers["X-N"] = "1"

    deadline = time.monotonic() + 240
    with courier.Client(base_url=server.url, interceptors=[Touch()]) as client:
        for _ in range(1000):
            client.get("/bytes/64")
        gc.collect()
        rss_before, fds_before = rss_kib(), fd_count()
        for n in range(10_000):
            response = client.get("/bytes/64")
            assert response.status_code == 200
            if n % 1000 == 0:
                assert time.monotonic() < deadline, f"only {n} requests in 240 s"
        gc.collect()
        rss_after, fds_after = rss_kib(), fd_count()
    assert fds_after - fds_before <= 2, (fds_before, fds_after)
    assert rss_after - rss_before < 8 * 1024, f"RSS grew {rss_after - rss_before} KiB over 10,000 requests"


def test_clients_created_and_dropped_are_freed(server) -> None:
    from courier._client import _dropped, _live_clients

    before = len(_live_clients)
    for _ in range(20):
        client = courier.Client(base_url=server.url)
        client.get("/anything")
        del client
    gc.collect()
    courier.Client().close()
    assert len(_live_clients) == before
    assert not _dropped


def test_blocking_send_releases_the_gil(server) -> None:
    with courier.Client(base_url=server.url) as client:
        finished = threading.Event()

        def send() -> None:
            client.get("/delay/1000")
            finished.set()

        thread = threading.Thread(target=send)
        thread.start()
        spins = 0
        deadline = time.monotonic() + 0.5
        while time.monotonic() < deadline:
            spins += 1
        thread.join(30)
    assert finished.is_set()
    assert spins > 10_000, f"the main thread ran only {spins} iterations while another thread sent"


def test_reused_requests_are_per_thread_and_freed(server) -> None:
    client = courier.Client(base_url=server.url, headers={"X-Client": "1"})
    seen: list[str] = []

    def work() -> None:
        for _ in range(20):
            seen.append(client.get("/anything").json()["header_list"][-1][0])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(seen) == 80
    assert 1 <= len(client._core._cached) <= 4
    client.headers["X-Other"] = "2"
    data = client.get("/anything").json()
    assert ["X-Other", "2"] in data["header_list"]
    first = client.get("/anything")
    second = client.get("/anything")
    assert first.request is not second.request
    client.close()
    assert not client._core._cached
    with pytest.raises(courier.ClosedError):
        client.get("/anything")


def test_mixed_chain_under_threads_and_asyncio(server, plugins) -> None:
    import asyncio

    class Around:
        def around(self, request, call_next):
            request.headers["X-Around"] = "1"
            return call_next(request)

    class Stamp:
        def on_request(self, exchange):
            exchange.request.headers["X-Stamp"] = str(exchange.attempt)

        def on_response(self, exchange):
            exchange.response.headers["X-Seen"] = "1"

    chain = [Around(), courier.Plugin(plugins / "hmac_signer.so", "k"), Stamp()]
    failures: list[BaseException] = []
    with courier.Client(base_url=server.url, interceptors=chain, timeout=30) as client:
        def work() -> None:
            try:
                for _ in range(25):
                    response = client.get("/anything")
                    names = {name for name, _ in response.json()["header_list"]}
                    assert {"X-Around", "X-Stamp", "X-Signature"} <= names
                    assert response.headers["x-seen"] == "1"
            except BaseException as error:  # noqa: BLE001
                failures.append(error)

        threads = [threading.Thread(target=work) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not any(thread.is_alive() for thread in threads)
    assert not failures, failures[:3]

    async def main() -> list[int]:
        async with courier.AsyncClient(base_url=server.url, interceptors=[Around(), Stamp()],
                                       timeout=30) as client:
            responses = await asyncio.gather(*(client.get("/anything") for _ in range(64)))
            return [response.status_code for response in responses]

    assert asyncio.run(asyncio.wait_for(main(), 120)) == [200] * 64


def test_lazily_read_headers_are_consistent_and_freed(server) -> None:
    from courier import _models

    with courier.Client(base_url=server.url) as client:
        for _ in range(20):
            response = client.get("/anything")
            seen: list[object] = []
            readers = [threading.Thread(target=lambda: seen.append((response.headers.multi_items(), response.url)))
                       for _ in range(4)]
            for reader in readers:
                reader.start()
            for reader in readers:
                reader.join(30)
            assert len(seen) == 4 and all(item == seen[0] for item in seen)
            assert response.headers["content-type"].startswith("application/json")
        for _ in range(50):
            assert client.get("/anything").status_code == 200
        gc.collect()
        client.get("/anything")
        assert len(_models.garbage) <= 1
