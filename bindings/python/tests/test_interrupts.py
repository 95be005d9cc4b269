"""Ctrl-C during a blocking send: KeyboardInterrupt arrives at once and the transfer is cancelled,
as with requests and httpx, on both transports, with and without a timeout."""
from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

SCRIPT = textwrap.dedent("""
    import sys, time, courier
    base, transport, timeout = sys.argv[1], sys.argv[2], sys.argv[3]
    client = courier.Client(base_url=base, transport=transport, timeout=None if timeout == "none" else float(timeout))
    client.get("/anything")  # connected, so the interrupt lands in the wait for the slow answer
    print("sending", flush=True)
    started = time.monotonic()
    try:
        client.get("/delay/60000")
        print("answered", flush=True)
    except KeyboardInterrupt:
        print(f"interrupted after {time.monotonic() - started:.2f}", flush=True)
    # The client still works: the interrupted transfer was cancelled, not left behind.
    print("after", client.get("/anything").status_code, flush=True)
""")


@pytest.mark.parametrize("transport", ["curl", "ahc"])
@pytest.mark.parametrize("timeout", ["none", "120"])
def test_ctrl_c_interrupts_a_blocking_send_at_once(server, transport: str, timeout: str) -> None:
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, server.url, transport, timeout],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "sending"
        time.sleep(0.5)  # inside the send, waiting for the delayed answer
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        line = process.stdout.readline().strip()
        waited = time.monotonic() - sent
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert line.startswith("interrupted after "), f"{line!r} {err}"
    # The answer would take a minute; a few seconds leaves room for a loaded machine.
    assert waited < 5, f"KeyboardInterrupt took {waited:.1f} s"
    assert "after 200" in out, err
    assert process.returncode == 0, err
