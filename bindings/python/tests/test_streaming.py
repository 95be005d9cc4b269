from __future__ import annotations

import pytest

import courier


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def test_stream_iter_bytes(client: courier.Client) -> None:
    total = 0
    expected = 0
    with client.stream("GET", "/stream-bytes/300000", params={"chunk_size": 4096}) as response:
        # The head is there before the body is read (on_head, ABI 1.1).
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/octet-stream"
        for chunk in response.iter_bytes():
            for offset, byte in enumerate(chunk[:8]):
                assert byte == (total + offset) % 256
            total += len(chunk)
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/octet-stream"
        expected = 300000
    assert total == expected


def test_stream_large_body_bounded_memory(client: courier.Client) -> None:
    size = 256 * 1024 * 1024
    before = rss_mib()
    peak = before
    seen = 0
    with client.stream("GET", f"/bytes/{size}", timeout=120) as response:
        for chunk in response.iter_bytes():
            seen += len(chunk)
            if seen % (16 * 1024 * 1024) < len(chunk):
                peak = max(peak, rss_mib())
    assert seen == size
    assert peak - before < 64, f"RSS grew {peak - before:.1f} MiB while streaming {size >> 20} MiB"


def test_stream_closed_early_cancels(private_server) -> None:
    with courier.Client(base_url=private_server.url) as client:
        with client.stream("GET", "/bytes/1073741824") as response:
            for _ in response.iter_bytes():
                break
        assert client.get("/anything").status_code == 200


def test_stream_error_raised_at_end(server) -> None:
    with courier.Client(base_url=server.url, timeout=0.3) as client:
        with client.stream("GET", "/drip", params={"numbytes": 10, "duration_ms": 3000}) as response:
            with pytest.raises(courier.TimeoutException):
                for _ in response.iter_bytes():
                    pass


def test_download_to_file(client: courier.Client, tmp_path) -> None:
    target = tmp_path / "out.bin"
    head = client.download("/bytes/5000000", target)
    assert head.status_code == 200
    data = target.read_bytes()
    assert len(data) == 5000000
    assert data[:256] == bytes(range(256))
    assert not (tmp_path / "out.bin.part").exists()


def test_download_error_leaves_no_file(client: courier.Client, tmp_path) -> None:
    target = tmp_path / "missing.bin"
    with pytest.raises(courier.HTTPStatusError) as caught:
        client.download("/status/404", target)
    assert caught.value.response.status_code == 404
    assert not target.exists()
    assert not (tmp_path / "missing.bin.part").exists()



def test_closing_a_stream_cancels_a_slow_transfer(client: courier.Client) -> None:
    import time

    with client.stream("GET", "/drip", params={"numbytes": 100, "duration_ms": 20000}) as response:
        first = next(iter(response.iter_bytes()))
        started = time.monotonic()
    assert first == b"*"
    assert time.monotonic() - started < 3


def test_a_stream_dropped_unclosed_is_aborted(private_server) -> None:
    import gc
    import time

    from courier._client import _in_flight

    client = courier.Client(base_url=private_server.url)
    response = client.stream("GET", "/bytes/1073741824")
    next(iter(response.iter_bytes()))
    del response
    gc.collect()
    deadline = time.monotonic() + 5
    while _in_flight and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _in_flight
    client.stream("GET", "/bytes/10").close()
    from courier._client import _dropped_calls
    assert not _dropped_calls
    client.close()


def test_iter_lines_and_text(client: courier.Client) -> None:
    import json

    with client.stream("GET", "/stream/5") as response:
        lines = list(response.iter_lines())
    assert [json.loads(line)["id"] for line in lines] == [0, 1, 2, 3, 4]
    with client.stream("POST", "/anything", content="héllo wörld".encode()) as response:
        text = "".join(response.iter_text())
    assert "body_base64" in text


def test_line_splitter_pieces() -> None:
    from courier._client import _lines

    assert list(_lines(iter(["a\r", "\nb\n", "c", "d\r\n", "", "e"]))) == ["a", "b", "cd", "e"]
    assert list(_lines(iter(["\n\n"]))) == ["", ""]
    assert list(_lines(iter([]))) == []


def test_stream_status_lets_the_caller_skip_a_failed_body(client: courier.Client) -> None:
    with client.stream("GET", "/status/404") as response:
        assert response.status_code == 404
        with pytest.raises(courier.HTTPStatusError):
            response.raise_for_status()


async def _async_head(server_url: str) -> tuple[int, str, int]:
    async with courier.AsyncClient(base_url=server_url) as client:
        async with client.stream("GET", "/stream-bytes/100000") as response:
            status, kind = response.status_code, response.headers["content-type"]
            total = sum([len(chunk) async for chunk in response.aiter_bytes()])
    return status, kind, total


def test_async_stream_has_its_head_inside_async_with(server) -> None:
    import asyncio

    assert asyncio.run(_async_head(server.url)) == (200, "application/octet-stream", 100000)


def test_iter_lines_takes_a_long_line_in_many_pieces_at_the_cost_of_its_length(client: courier.Client) -> None:
    # 8 MiB arriving in 4 KiB pieces: joining the pieces once per piece copied 16 GiB, 29 s.
    size = 8 * 1024 * 1024
    with client.stream("GET", "/hostile/long-line", params={"bytes": size, "chunk_size": 4096}) as response:
        lines = list(response.iter_lines())
    assert [len(line) for line in lines] == [size, 3]
    assert lines[1] == "end"


def test_a_line_past_the_limit_is_an_error_and_stops_the_download(client: courier.Client) -> None:
    with client.stream("GET", "/hostile/long-line", params={"bytes": 1 << 20}) as response:
        with pytest.raises(courier.LimitExceeded, match="max_line_length"):
            for _ in response.iter_lines(max_line_length=64 * 1024):
                pass
    # The limit counts the line without its ending: a line of exactly the limit is fine.
    with client.stream("GET", "/hostile/long-line", params={"bytes": 4096}) as response:
        assert [len(line) for line in response.iter_lines(max_line_length=4096)] == [4096, 3]


def test_aiter_lines_is_bounded_too(server) -> None:
    import asyncio

    async def run() -> None:
        async with courier.AsyncClient(base_url=server.url) as client:
            async with client.stream("GET", "/hostile/long-line", params={"bytes": 2 << 20}) as response:
                lines = [line async for line in response.aiter_lines()]
                assert [len(line) for line in lines] == [2 << 20, 3]
            async with client.stream("GET", "/hostile/long-line", params={"bytes": 1 << 20}) as response:
                with pytest.raises(courier.LimitExceeded):
                    async for _ in response.aiter_lines(max_line_length=1000):
                        pass

    asyncio.run(run())


def test_the_line_splitter_keeps_crlf_and_bare_pieces_apart() -> None:
    from courier._streaming import _LineSplitter

    splitter = _LineSplitter(max_length=10)
    assert splitter.feed("ab") == []
    assert splitter.feed("c\r\nde\n\nf") == ["abc", "de", ""]
    assert splitter.finish() == ["f"]
    assert splitter.feed("0123456789\r\n") == ["0123456789"], "its CR is not part of the line"
    with pytest.raises(courier.LimitExceeded):
        splitter.feed("0123456789" + "xy")


def test_unread_async_streams_hold_only_themselves(server) -> None:
    # Two bodies nobody reads fill their pipes, and their on_data callbacks wait on the client's
    # two callback threads; every other request of the client must still go through, at once.
    import asyncio
    import time

    async def run() -> float:
        async with courier.AsyncClient(base_url=server.url) as client:
            streams = [client.stream("GET", "/bytes/104857600") for _ in range(2)]
            for stream in streams:
                await stream.__aenter__()
            await asyncio.sleep(0.5)
            started = time.monotonic()
            answers = await asyncio.wait_for(asyncio.gather(*(client.get("/anything") for _ in range(4))), 30)
            waited = time.monotonic() - started
            assert [answer.status_code for answer in answers] == [200] * 4
            for stream in streams:
                await stream.__aexit__(None, None, None)
            return waited

    assert asyncio.run(run()) < 10


def test_unread_sync_streams_hold_only_themselves(server) -> None:
    import time

    with courier.Client(base_url=server.url) as client:
        unread = [client.stream("GET", "/bytes/104857600") for _ in range(2)]
        for stream in unread:
            assert stream.status_code == 200
        time.sleep(0.5)
        started = time.monotonic()
        with client.stream("GET", "/bytes/1000") as third:
            assert len(third.read()) == 1000
        assert time.monotonic() - started < 10
        for stream in unread:
            stream.close()
