"""Every ```python block of README.md, run as a script against `courier serve`.

The README's blocks talk to http://127.0.0.1:8080; here that is the session's server. The Swift
test ReadmeBlocksAreTiedTests counts on this file running every Python block of the README.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import REPO, Server


def python_blocks() -> list[tuple[int, str]]:
    """(line of the opening fence, code) for each ```python block."""
    readme = (REPO / "README.md").read_text()
    return [(readme.count("\n", 0, match.start()) + 1, match.group(1))
            for match in re.finditer(r"^```python\n(.*?)^```$", readme, re.DOTALL | re.MULTILINE)]


def test_the_readme_has_python_blocks() -> None:
    assert python_blocks()


@pytest.mark.parametrize(("line", "code"), python_blocks(), ids=[f"README.md:{line}" for line, _ in python_blocks()])
def test_readme_python_block_runs(server: Server, line: int, code: str) -> None:
    script = code.replace("http://127.0.0.1:8080", server.url)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"README.md:{line}: {run.stderr}"
