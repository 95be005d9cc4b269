"""Fixtures: the project's loopback server (`courier serve`), the repository's paths, plugins."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
PLUGINS = REPO / "Examples" / "plugins"
#: The Swift tests' list of the documents whose blocks are checked (DocumentationSet), read here so
#: both languages check the same files.
DOCUMENTATION_SET = REPO / "Tests" / "Support" / "ReadmeBlocks" / "DocumentationSet.swift"


def documentation_set() -> list[str]:
    """The documentation set's paths from the repository's root, front page first, in the Swift tests' order.

    `DocumentationSet.documents` (one quoted path per line), then every article of the DocC catalog
    it names (`docCCatalog`), by name.
    """
    source = DOCUMENTATION_SET.read_text()
    listed = re.search(r"static let documents = \[(.*?)\]", source, re.DOTALL)
    catalog = re.search(r'static let docCCatalog = "([^"]+)"', source)
    assert listed and catalog, f"{DOCUMENTATION_SET} no longer declares `documents` and `docCCatalog`"
    documents = re.findall(r'"([^"]+)"', listed.group(1))
    articles = sorted(path.name for path in (REPO / catalog.group(1)).glob("*.md"))
    return documents + [f"{catalog.group(1)}/{name}" for name in articles]


def courier_cli() -> Path:
    return Path(os.environ.get("COURIER_CLI", REPO / ".build" / "debug" / "courier"))


class Server:
    def __init__(self, process: subprocess.Popen[str], port: int, unix_socket: str | None = None) -> None:
        self.process = process
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        #: The Unix domain socket it also listens on, when started with one.
        self.unix_socket = unix_socket

    def __call__(self, path: str) -> str:
        return self.url + path


def start_server(unix_socket: str | None = None) -> Server:
    cli = courier_cli()
    if not cli.exists():
        pytest.fail(f"{cli} does not exist: build it with `swift build --product courier` or set COURIER_CLI")
    arguments = [str(cli), "serve", "--port", "0"] + (["--unix-socket", unix_socket] if unix_socket else [])
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    found: list[int] = []
    ready = threading.Event()
    log = Path(os.environ.get("COURIER_SERVER_LOG", "/dev/null"))

    def read() -> None:
        assert process.stdout is not None
        with open(log, "a") as copy:
            for line in process.stdout:
                copy.write(line)
                copy.flush()
                match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
                if match and not found:
                    found.append(int(match.group(1)))
                    ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(60) or not found:
        stop_server(process)
        pytest.fail("courier serve did not report its port within 60 s")
    return Server(process, found[0], unix_socket)


def stop_server(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    running = start_server()
    try:
        yield running
    finally:
        died = running.process.poll()
        stop_server(running.process)
    assert died is None, f"courier serve exited during the tests with status {died}"


@pytest.fixture(scope="session")
def plugins() -> Path:
    for name in ("hmac_signer.so", "memory_cache.so"):
        if not (PLUGINS / name).exists():
            subprocess.run(["make", "-C", str(PLUGINS), "c"], check=True, capture_output=True, timeout=300)
            break
    return PLUGINS


@pytest.fixture()
def client(server: Server) -> Iterator["courier.Client"]:  # noqa: F821
    import courier

    with courier.Client(base_url=server.url, timeout=20) as made:
        yield made


@pytest.fixture()
def private_server() -> Iterator[Server]:
    """A server of the test's own, for tests that abort big downloads by killing a process, and
    for tests that need a connection no other test opened (the library keeps connections across
    clients).

    `courier serve` can crash (SIGSEGV, a stack overflow in HTTPConnectionHandler.pump) when a
    peer resets the connection while a large body waits for a writable socket, so such tests
    do not share the session's server.
    """
    running = start_server()
    try:
        yield running
    finally:
        stop_server(running.process)


#: Lines a test wants printed after the run whether it passed or not (figures such as timings).
SUMMARY: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for line in SUMMARY:
        terminalreporter.write_line(line)
