"""Sequential keep-alive GETs, and 32 in flight, against the benchmarks' nginx: courier vs the usual clients
(requests, httpx, urllib3, pycurl; httpx's and aiohttp's asyncio clients at 32).

    python bench.py URL [SECONDS]

Every client warms up, then the clients take turns: ROUNDS slices of SECONDS / ROUNDS each
(SECONDS defaults to 3), and each row reports the median slice in requests per second.
Clients that are not installed are skipped. Run it through run.sh.

pycurl's wheels bundle their own, newer libcurl, which does less work per request than the
Debian libcurl Courier is built on. So pycurl appears twice when SYSTEM_PYCURL names a directory
holding a pycurl built from source against the system libcurl (run.sh makes one): the row on
Courier's own engine is the like-for-like one. Each row names its libcurl.
"""
from __future__ import annotations

import asyncio
import ctypes
import importlib
import os
import statistics
import sys
import time
from types import ModuleType
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


def system_libcurl() -> str:
    """The version of the libcurl that libcourier links: the system's libcurl.so.4."""
    library = ctypes.CDLL("libcurl.so.4")
    library.curl_version.restype = ctypes.c_char_p
    text: bytes = library.curl_version()
    return text.decode().split()[0]


def system_pycurl() -> ModuleType | None:
    """The pycurl package built against the system libcurl in SYSTEM_PYCURL, imported beside the
    wheel's: the wheel's modules step aside while it is imported, then come back."""
    directory = os.environ.get("SYSTEM_PYCURL")
    if not directory or not os.path.isdir(os.path.join(directory, "pycurl")):
        return None
    wheel = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "pycurl"}
    for name in wheel:
        del sys.modules[name]
    sys.path.insert(0, directory)
    try:
        return importlib.import_module("pycurl")
    finally:
        sys.path.remove(directory)
        for name in [name for name in sys.modules if name.split(".")[0] == "pycurl"]:
            del sys.modules[name]
        sys.modules.update(wheel)


def pycurl_send(pycurl: ModuleType) -> Callable[[], None]:
    """A reused pycurl.Curl's keep-alive GET, the body's bytes in hand as every other row has them."""
    import io

    curl = pycurl.Curl()
    curl.setopt(pycurl.URL, URL)

    def send() -> None:
        buffer = io.BytesIO()
        curl.setopt(pycurl.WRITEDATA, buffer)
        curl.perform()
        buffer.getvalue()
    return send


def sequential() -> dict[str, float]:
    import courier

    clients: dict[str, Callable[[], None]] = {}
    client = courier.Client()
    clients[f"courier.Client ({system_libcurl()})"] = lambda: client.get(URL).content and None
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
        import pycurl
        engine = pycurl.version_info()[1]
        clients[f"pycurl.Curl, reused (its wheel's libcurl/{engine})"] = pycurl_send(pycurl)
    except ImportError:
        pass
    built = system_pycurl()
    if built is not None:
        engine = built.version_info()[1]
        clients[f"pycurl.Curl, reused (built on the system's libcurl/{engine})"] = pycurl_send(built)
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
        try:
            import aiohttp
            # The fast asyncio client: one session, a connector holding at most IN_FLIGHT
            # connections (the others' limit), the body read whole as every other row does.
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=IN_FLIGHT))

            async def aiohttp_get() -> bytes:
                async with session.get(URL) as response:
                    return await response.read()

            clients[f"aiohttp.ClientSession, {IN_FLIGHT} in flight"] = aiohttp_get
        except ImportError:
            session = None
        for send in clients.values():
            await rate_async(send, 0.5)
        slices: dict[str, list[float]] = {name: [] for name in clients}
        for _ in range(ROUNDS):
            for name, send in clients.items():
                slices[name].append(await rate_async(send, SECONDS / ROUNDS))
        if session is not None:
            await session.close()
        return {name: statistics.median(values) for name, values in slices.items()}

    return asyncio.run(run())


def table(results: dict[str, float], baseline: str) -> None:
    """One row per client: requests/s and how many times faster the courier row is."""
    for name, per_second in results.items():
        print(f"| {name} | {per_second:,.0f} | {results[baseline] / per_second:.2f} |")


if __name__ == "__main__":
    print(f"{URL}, {SECONDS:g} s per row in {ROUNDS} interleaved slices (medians), one run\n")
    print("| client | requests/s | courier ÷ this |\n|---|---:|---:|")
    table(sequential(), f"courier.Client ({system_libcurl()})")
    table(concurrent(), f"courier.AsyncClient, {IN_FLIGHT} in flight")
