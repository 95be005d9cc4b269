"""The Python package's quick start (bindings/python/README.md), run as written (with a free port and a temporary venv)."""
from __future__ import annotations

import os
import re
import signal
import socket
import subprocess

import pytest

from conftest import REPO


def quick_start() -> str:
    """The first ```sh block under "## Quick start", as ReadmeTies.wholeBlockRunners expects."""
    readme = (REPO / "bindings" / "python" / "README.md").read_text()
    section = readme.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "the quick start of bindings/python/README.md has no ```sh block"
    return block.group(1)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.skipif(os.environ.get("COURIER_SKIP_QUICKSTART") == "1", reason="COURIER_SKIP_QUICKSTART=1")
def test_readme_quick_start(tmp_path) -> None:
    script = quick_start()
    assert "8080" in script and ".build/python-venv" in script
    script = script.replace("8080", str(free_port())).replace(".build/python-venv", str(tmp_path / "venv"))
    env = dict(os.environ)
    env.pop("COURIER_LIBRARY", None)
    # scripts/build-wheel.sh then packs the library with its runtime linked in that scripts/test
    # built (a debug build) instead of making a release build.
    env["COURIER_BUILD_DIR"] = str(REPO / ".build" / "static-runtime" / "debug")
    log = tmp_path / "quickstart.log"
    with open(log, "w") as output_file:
        process = subprocess.Popen(["bash", "-euo", "pipefail", "-c", script], cwd=REPO, env=env, text=True,
                                   stdout=output_file, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            process.wait(timeout=600)
        finally:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            process.wait(30)
    output = log.read_text()
    assert process.returncode == 0, output
    assert "200 POST /anything/users lang=en" in output
    assert "X-Stamp: attempt-1" in output
    assert "timed out as asked: TimeoutException" in output
