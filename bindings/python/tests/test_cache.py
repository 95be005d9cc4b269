"""courier.Cache: the HTTP cache (RFC 9111) in a Python chain, in memory and in a directory that
clients and processes share."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

import courier


def fresh(seconds: int = 60) -> str:
    return f"/cache/py-{uuid.uuid4().hex}?cc=max-age%3D{seconds}"


def key_of(path: str) -> str:
    return path.split("/")[2].split("?")[0]


def test_a_fresh_response_is_answered_from_memory(server) -> None:
    path = fresh()
    with courier.Client(base_url=server.url, interceptors=[courier.Cache()]) as client:
        first = client.get(path)
        second = client.get(path)
    assert first.headers["Cache-Status"].startswith("Courier; fwd=uri-miss; fwd-status=200; stored; ttl=")
    assert second.headers["Cache-Status"].startswith("Courier; hit; ttl=")
    assert first.text == second.text == f"{key_of(path)} #1\n"
    assert "Age" in second.headers


def test_request_directives_and_only_if_cached(server) -> None:
    path = fresh()
    with courier.Client(base_url=server.url, interceptors=[courier.Cache(max_bytes=1 << 20)]) as client:
        missing = client.get(path, headers={"Cache-Control": "only-if-cached"})
        assert missing.status_code == 504
        assert missing.headers["Cache-Status"] == "Courier; detail=only-if-cached"
        client.get(path)
        reloaded = client.get(path, headers={"Cache-Control": "no-cache"})
        assert reloaded.headers["Cache-Status"].startswith("Courier; fwd=request; fwd-status=200; stored")
        assert reloaded.text == f"{key_of(path)} #2\n"
        posted = client.post(path, content=b"x")
        assert posted.headers["Cache-Status"] == "Courier; fwd=method; fwd-status=200"
        after_post = client.get(path)
        assert after_post.headers["Cache-Status"].startswith("Courier; fwd=uri-miss")


def test_async_client_uses_the_cache(server) -> None:
    path = fresh()

    async def main() -> list[str]:
        async with courier.AsyncClient(base_url=server.url, interceptors=[courier.Cache()]) as client:
            first = await client.get(path)
            second = await client.get(path)
        return [first.headers["Cache-Status"], second.headers["Cache-Status"], second.text]

    first, second, text = asyncio.run(main())
    assert "stored" in first and second.startswith("Courier; hit")
    assert text == f"{key_of(path)} #1\n"


def test_a_directory_cache_is_shared_by_clients_and_by_another_process(server, tmp_path: Path) -> None:
    path = fresh()
    directory = tmp_path / "cache"
    with courier.Client(base_url=server.url, interceptors=[courier.Cache(directory)]) as client:
        assert "stored" in client.get(path).headers["Cache-Status"]
    with courier.Client(base_url=server.url, interceptors=[courier.Cache(str(directory))]) as client:
        assert client.get(path).headers["Cache-Status"].startswith("Courier; hit")
    script = (
        "import courier, sys\n"
        "with courier.Client(base_url=sys.argv[1], interceptors=[courier.Cache(sys.argv[2])]) as client:\n"
        "    response = client.get(sys.argv[3])\n"
        "print(response.headers['Cache-Status'].split(';')[1].strip(), response.text, end='')\n"
    )
    other = subprocess.run([sys.executable, "-c", script, server.url, str(directory), path],
                           capture_output=True, text=True, timeout=120, check=True)
    assert other.stdout == f"hit {key_of(path)} #1\n"


@pytest.mark.parametrize(("builtin", "named"), [
    (courier.Cache(""), "directory"),
])
def test_bad_cache_options_raise_naming_the_option(server, builtin: courier.Builtin, named: str) -> None:
    with courier.Client(base_url=server.url) as client:
        with pytest.raises(courier.InvalidRequest) as caught:
            client.add_interceptor(builtin)
        assert named in str(caught.value)


def test_cache_options_of_the_wrong_python_type_raise_before_the_library() -> None:
    with pytest.raises(TypeError):
        courier.Cache(max_bytes="big")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        courier.Cache(max_entry_bytes=-1)
    assert repr(courier.Cache("/tmp/c", max_bytes=10)) == "courier.Cache(directory='/tmp/c', max_bytes=10)"
