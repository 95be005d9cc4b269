"""Sequential keep-alive GETs, and 32 in flight, against the benchmarks' nginx: courier vs the usual clients.

    python bench.py URL [SECONDS]

Every client warms up, then the clients take turns: ROUNDS slices of SECONDS / ROUNDS each
(SECONDS defaults to 3), and each row reports the median slice in requests per second.
Clients that are not installed are skipped. Run it through run.sh.
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import time
from typing import Any, Callable

URL = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
IN_FLIGHT = 32
ROUNDS = 5


def rate(send: Callable[[], None], seconds: float) -> float:
    count = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        for _ in range(20):
            send()
        count += 20
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - started)


def interleaved(clients: dict[str, Callable[[], None]]) -> dict[str, float]:
    """Round-robin slices of every client, the median slice per client: on a machine whose load
    changes, each client meets the same conditions, which one long row each would not give."""
    for send in clients.values():
        for _ in range(200):
            send()
    slices: dict[str, list[float]] = {name: [] for name in clients}
    for _ in range(ROUNDS):
        for name, send in clients.items():
            slices[name].append(rate(send, SECONDS / ROUNDS))
    return {name: statistics.median(values) for name, values in slices.items()}


async def rate_async(send: Callable[[], Any], seconds: float) -> float:
    async def worker(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            await send()
            done += 1
        return done

    started = time.perf_counter()
    counts = await asyncio.gather(*(worker(started + seconds) for _ in range(IN_FLIGHT)))
    return sum(counts) / (time.perf_counter() - started)


def sequential() -> dict[str, float]:
    import courier

    clients: dict[str, Callable[[], None]] = {}
    client = courier.Client()
    clients["courier.Client"] = lambda: client.get(URL).content and None
    try:
        import requests
        session = requests.Session()
        clients["requests.Session"] = lambda: session.get(URL).content and None
    except ImportError:
        pass
    try:
        import httpx
        hclient = httpx.Client()
        clients["httpx.Client"] = lambda: hclient.get(URL).content and None
    except ImportError:
        pass
    try:
        import urllib3
        pool = urllib3.PoolManager()
        clients["urllib3.PoolManager"] = lambda: pool.request("GET", URL).data and None
    except ImportError:
        pass
    try:
        import io

        import pycurl
        curl = pycurl.Curl()
        curl.setopt(pycurl.URL, URL)

        def curl_send() -> None:
            buffer = io.BytesIO()
            curl.setopt(pycurl.WRITEDATA, buffer)
            curl.perform()
            buffer.getvalue()  # the body's bytes in hand, as every other row has them
        clients["pycurl.Curl (reused)"] = curl_send
    except ImportError:
        pass
    return interleaved(clients)


def concurrent() -> dict[str, float]:
    import courier

    async def run() -> dict[str, float]:
        clients: dict[str, Callable[[], Any]] = {}
        client = courier.AsyncClient()
        clients[f"courier.AsyncClient, {IN_FLIGHT} in flight"] = lambda: client.get(URL)
        try:
            import httpx
            limits = httpx.Limits(max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT)
            hclient = httpx.AsyncClient(limits=limits)
            clients[f"httpx.AsyncClient, {IN_FLIGHT} in flight"] = lambda: hclient.get(URL)
        except ImportError:
            pass
        for send in clients.values():
            await rate_async(send, 0.5)
        slices: dict[str, list[float]] = {name: [] for name in clients}
        for _ in range(ROUNDS):
            for name, send in clients.items():
                slices[name].append(await rate_async(send, SECONDS / ROUNDS))
        return {name: statistics.median(values) for name, values in slices.items()}

    return asyncio.run(run())


def table(results: dict[str, float], baseline: str) -> None:
    """One row per client: requests/s and how many times faster the courier row is."""
    for name, per_second in results.items():
        print(f"| {name} | {per_second:,.0f} | {results[baseline] / per_second:.2f} |")


if __name__ == "__main__":
    print(f"{URL}, {SECONDS:g} s per row in {ROUNDS} interleaved slices (medians), one run\n")
    print("| client | requests/s | courier ÷ this |\n|---|---:|---:|")
    table(sequential(), "courier.Client")
    table(concurrent(), f"courier.AsyncClient, {IN_FLIGHT} in flight")
