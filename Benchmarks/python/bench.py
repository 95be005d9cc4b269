"""Sequential keep-alive GETs, and 32 in flight, against the benchmarks' nginx: courier vs the usual clients.

    python bench.py URL [SECONDS]

Each row warms up, then sends as many requests as it can in SECONDS (default 3) and reports
requests per second. Clients that are not installed are skipped. Run it through run.sh.
"""
from __future__ import annotations

import asyncio
import sys
import time
from typing import Callable

URL = sys.argv[1]
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
IN_FLIGHT = 32


def measure(send: Callable[[], None]) -> float:
    for _ in range(200):
        send()
    count = 0
    started = time.perf_counter()
    deadline = started + SECONDS
    while True:
        for _ in range(100):
            send()
        count += 100
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - started)


async def measure_async(send: Callable[[], object]) -> float:
    async def worker(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            await send()
            done += 1
        return done

    await asyncio.gather(*(worker(time.perf_counter() + 0.5) for _ in range(IN_FLIGHT)))
    started = time.perf_counter()
    counts = await asyncio.gather(*(worker(started + SECONDS) for _ in range(IN_FLIGHT)))
    return sum(counts) / (time.perf_counter() - started)


def sequential() -> dict[str, float]:
    results: dict[str, float] = {}
    import courier

    with courier.Client() as client:
        def send() -> None:
            assert client.get(URL).status_code == 200
        results["courier.Client"] = measure(send)
    try:
        import requests
        session = requests.Session()
        results["requests.Session"] = measure(lambda: session.get(URL).content and None)
    except ImportError:
        pass
    try:
        import httpx
        with httpx.Client() as hclient:
            results["httpx.Client"] = measure(lambda: hclient.get(URL).content and None)
    except ImportError:
        pass
    try:
        import urllib3
        pool = urllib3.PoolManager()
        results["urllib3.PoolManager"] = measure(lambda: pool.request("GET", URL).data and None)
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
        results["pycurl.Curl (reused)"] = measure(curl_send)
    except ImportError:
        pass
    return results


def concurrent() -> dict[str, float]:
    results: dict[str, float] = {}
    import courier

    async def run_courier() -> float:
        async with courier.AsyncClient() as client:
            return await measure_async(lambda: client.get(URL))
    results[f"courier.AsyncClient, {IN_FLIGHT} in flight"] = asyncio.run(run_courier())
    try:
        import httpx

        async def run_httpx() -> float:
            limits = httpx.Limits(max_connections=IN_FLIGHT, max_keepalive_connections=IN_FLIGHT)
            async with httpx.AsyncClient(limits=limits) as client:
                return await measure_async(lambda: client.get(URL))
        results[f"httpx.AsyncClient, {IN_FLIGHT} in flight"] = asyncio.run(run_httpx())
    except ImportError:
        pass
    return results


def table(results: dict[str, float], baseline: str) -> None:
    """One row per client: requests/s and how many times faster the courier row is."""
    for name, rate in results.items():
        print(f"| {name} | {rate:,.0f} | {results[baseline] / rate:.2f} |")


if __name__ == "__main__":
    print(f"{URL}, {SECONDS:g} s per row, one run\n")
    print("| client | requests/s | courier ÷ this |\n|---|---:|---:|")
    table(sequential(), "courier.Client")
    table(concurrent(), f"courier.AsyncClient, {IN_FLIGHT} in flight")
