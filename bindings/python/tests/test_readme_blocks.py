"""Every ```python block of the documentation set (README.md, bindings/python/README.md…), run as a script against `courier serve`.

The blocks talk to http://127.0.0.1:8080; here that is the session's server. The Swift test
ReadmeBlocksAreTiedTests counts on this file running every Python block of every document of the
set, which `conftest.documentation_set()` reads from the Swift tests' own list.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import REPO, Server, documentation_set


def python_blocks() -> list[tuple[str, str]]:
    """("path:line" of the opening fence, code) for each ```python block of each document."""
    blocks = []
    for path in documentation_set():
        text = (REPO / path).read_text()
        blocks += [(f"{path}:{text.count(chr(10), 0, match.start()) + 1}", match.group(1))
                   for match in re.finditer(r"^```python\n(.*?)^```$", text, re.DOTALL | re.MULTILINE)]
    return blocks


def test_the_front_page_and_the_python_readme_have_python_blocks() -> None:
    places = [place for place, _ in python_blocks()]
    assert any(place.startswith("README.md:") for place in places), places
    assert any(place.startswith("bindings/python/README.md:") for place in places), places


@pytest.mark.parametrize(("place", "code"), python_blocks(), ids=[place for place, _ in python_blocks()])
def test_documented_python_block_runs(server: Server, place: str, code: str) -> None:
    script = code.replace("http://127.0.0.1:8080", server.url)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"{place}: {run.stderr}"
