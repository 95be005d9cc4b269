"""Interpreter exit cancels calls under way and frees clients: no hang, no crash."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import time


def run(code: str, server) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), server.url], capture_output=True,
                          text=True, timeout=60)


def test_exit_with_async_sends_in_flight(private_server) -> None:
    started = time.monotonic()
    result = run("""
        import asyncio, sys, courier

        class Stamp:
            def on_request(self, exchange):
                exchange.request.headers["X"] = "1"

        client = courier.AsyncClient(base_url=sys.argv[1], interceptors=[Stamp()])

        async def main():
            for _ in range(8):
                asyncio.ensure_future(client.get("/delay/20000"))
            await asyncio.sleep(0.3)
            print("leaving", flush=True)

        loop = asyncio.new_event_loop()
        loop.run_until_complete(main())
    """, private_server)
    assert result.returncode == 0, result.stderr
    assert "leaving" in result.stdout
    assert time.monotonic() - started < 15


def test_exit_with_streams_and_unclosed_clients(private_server) -> None:
    result = run("""
        import sys, courier
        client = courier.Client(base_url=sys.argv[1])
        client.get("/anything")
        stream = client.stream("GET", "/bytes/1073741824")
        next(iter(stream.iter_bytes()))
        other = courier.Client(base_url=sys.argv[1])
        print("done", flush=True)
    """, private_server)
    assert result.returncode == 0, result.stderr
    assert "done" in result.stdout


def test_exit_from_daemon_thread_blocking(private_server) -> None:
    result = run("""
        import sys, threading, time, courier
        client = courier.Client(base_url=sys.argv[1])
        threading.Thread(target=lambda: client.get("/delay/2000"), daemon=True).start()
        time.sleep(0.3)
        print("done", flush=True)
    """, private_server)
    assert result.returncode == 0, result.stderr


def test_exit_waits_for_the_library_to_release_interceptors_and_sends(private_server) -> None:
    # atexit runs handlers last-registered first: this check, registered before courier is
    # imported, runs after courier's own exit handler, and sees what the library still holds.
    result = run("""
        import atexit, sys

        def left_behind():
            from courier._exchange import InterceptorEntry
            from courier._handles import handles
            from courier._sending import _SendState
            kinds = (InterceptorEntry, _SendState)
            print("left", sum(isinstance(entry, kinds) for entry in handles._objects.values()), flush=True)

        atexit.register(left_behind)
        import asyncio, courier

        class Stamp:
            def on_request(self, exchange):
                exchange.request.headers["X"] = "1"

        clients = [courier.AsyncClient(base_url=sys.argv[1], interceptors=[Stamp()]) for _ in range(4)]

        async def main():
            for client in clients:
                for _ in range(4):
                    asyncio.ensure_future(client.get("/delay/20000"))
            await asyncio.sleep(0.3)

        asyncio.new_event_loop().run_until_complete(main())
    """, private_server)
    assert result.returncode == 0, result.stderr
    assert "left 0" in result.stdout, result.stdout
