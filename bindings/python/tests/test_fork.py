"""fork(): a client belongs to the process that created it. In a child, the parent's client fails
every send at once with ForkError (never a response meant for another process, never a hang),
and clients the child creates work, through multiprocessing's fork start method and a
gunicorn-style pre-fork server alike."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def run(code: str, server, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), server.url], capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_multiprocessing_children_refuse_the_parents_client_and_use_their_own(server, transport: str) -> None:
    result = run(f"""
        import multiprocessing, os, sys, courier
        base = sys.argv[1]
        # The parent's client has a pooled keep-alive connection when the pool forks.
        shared = courier.Client(base_url=base, transport={transport!r})
        assert shared.get("/anything/warm").status_code == 200
        own = None

        def make_own():
            global own
            own = courier.Client(base_url=base)

        def with_shared(index):
            try:
                response = shared.get(f"/anything/{{os.getpid()}}/{{index}}")
            except courier.ForkError as error:
                return "refused" if "fork" in str(error) else f"unclear: {{error}}"
            return "wrong process" if f"/{{os.getpid()}}/{{index}}" not in response.json()["url"] else "served"

        def with_own(index):
            response = own.get(f"/anything/{{os.getpid()}}/{{index}}")
            return response.json()["url"].endswith(f"/{{os.getpid()}}/{{index}}")

        if __name__ == "__main__":
            context = multiprocessing.get_context("fork")
            with context.Pool(4) as pool:
                refused = pool.map(with_shared, range(300), chunksize=5)
            with context.Pool(4, initializer=make_own) as pool:
                own_answers = pool.map(with_own, range(300), chunksize=5)
            print("refused", refused.count("refused"), "of", len(refused), sorted(set(refused)))
            print("own", own_answers.count(True), "of", len(own_answers))
            # The parent's client is untouched by its children.
            assert shared.get("/anything/after").json()["url"].endswith("/anything/after")
            print("parent ok")
    """, server)
    assert result.returncode == 0, result.stderr
    assert "refused 300 of 300" in result.stdout, result.stdout
    assert "own 300 of 300" in result.stdout, result.stdout
    assert "parent ok" in result.stdout


def test_a_pre_fork_server_gives_each_worker_its_own_client(server) -> None:
    # gunicorn with preload_app: the app (and its client) is made in the master, which forks the
    # workers; each worker makes its client in post_fork, and exits normally (atexit runs).
    result = run("""
        import os, sys, time, courier
        base = sys.argv[1]
        app_client = courier.Client(base_url=base)
        assert app_client.get("/anything/master").status_code == 200
        async_client = courier.AsyncClient(base_url=base)

        def post_fork_worker(number):
            try:
                app_client.get("/anything/inherited")
                sys.exit(3)
            except courier.ForkError:
                pass
            client = courier.Client(base_url=base)
            for index in range(50):
                url = client.get(f"/anything/w{number}/{index}").json()["url"]
                if not url.endswith(f"/w{number}/{index}"):
                    sys.exit(4)
            import asyncio

            async def asynchronous():
                async with courier.AsyncClient(base_url=base) as fresh:
                    answers = await asyncio.gather(*(fresh.get(f"/anything/a{number}/{i}") for i in range(20)))
                    return all(r.json()["url"].endswith(f"/a{number}/{i}") for i, r in enumerate(answers))

            if not asyncio.run(asynchronous()):
                sys.exit(5)
            sys.exit(0)  # a normal exit: atexit must not wait on the master's clients

        workers = []
        for number in range(4):
            pid = os.fork()
            if pid == 0:
                try:
                    post_fork_worker(number)
                except SystemExit as leaving:
                    os._exit(leaving.code or 0) if number % 2 else sys.exit(leaving.code)
            workers.append(pid)
        started = time.monotonic()
        statuses = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in workers]
        print("statuses", statuses, "in", round(time.monotonic() - started, 1))
        assert app_client.get("/anything/master-again").status_code == 200
        print("master ok")
    """, server)
    assert result.returncode == 0, result.stderr
    assert "statuses [0, 0, 0, 0]" in result.stdout, result.stdout + result.stderr
    assert "master ok" in result.stdout
    seconds = float(result.stdout.split(" in ")[1].split()[0])
    assert seconds < 30, f"the workers took {seconds} s to finish"
