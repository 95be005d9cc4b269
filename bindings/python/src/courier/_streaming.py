"""Responses whose body arrives chunk by chunk: Client.stream and AsyncClient.stream."""
from __future__ import annotations

import asyncio
import codecs
import collections
import datetime
import queue
import threading
from collections.abc import AsyncIterator, Iterator
from typing import Any

from ._core import _ClientCore
from ._errors import CourierError, LimitExceeded, StreamError
from ._models import Headers, Metrics, Request, Response
from ._registry import _dropped_calls, _registry_lock
from ._sending import _Inbox, _SendState, _start


MAX_LINE_LENGTH = 16 * 1024 * 1024
"""The longest line iter_lines() and aiter_lines() yield by default, in characters."""


class _LineSplitter:
    """Splits text arriving in pieces into lines ended by \n or \r\n.

    A line that arrives in many pieces is kept as the list of its pieces and joined once, when its
    newline comes, so its cost is its length, not its length times its pieces. A line longer than
    `max_length` characters raises LimitExceeded instead of growing without bound.
    """

    def __init__(self, max_length: int = MAX_LINE_LENGTH) -> None:
        self.max_length = max_length
        self.pieces: list[str] = []
        self.pending = 0

    def feed(self, text: str) -> list[str]:
        if "\n" not in text:
            self._keep(text)
            return []
        first, *middle, rest = text.split("\n")
        self._keep(first)
        lines = ["".join(self.pieces)]
        lines.extend(middle)
        self.pieces, self.pending = [], 0
        self._keep(rest)
        for line in middle:
            self._check(len(line))
        return [line[:-1] if line.endswith("\r") else line for line in lines]

    def finish(self) -> list[str]:
        rest = "".join(self.pieces)
        self.pieces, self.pending = [], 0
        return [rest[:-1] if rest.endswith("\r") else rest] if rest else []

    def _keep(self, piece: str) -> None:
        if piece:
            self.pieces.append(piece)
            self.pending += len(piece)
            self._check(self.pending)

    def _check(self, length: int) -> None:
        # A CR ending the line is not part of it; one character of slack keeps that exact.
        if length > self.max_length + 1:
            raise LimitExceeded(f"a line of the body is longer than {self.max_length} characters "
                                "(max_line_length)", code=12)


def _lines(texts: Iterator[str], max_length: int = MAX_LINE_LENGTH) -> Iterator[str]:
    splitter = _LineSplitter(max_length)
    for text in texts:
        yield from splitter.feed(text)
    yield from splitter.finish()


class _Pipe:
    """Carries a streamed body from on_data (a library thread) to the reader, with backpressure.

    It holds no reference to the StreamingResponse, so a response nobody closes can be collected,
    and its __del__ closes the pipe: on_data then aborts the download.
    """

    def __init__(self, max_chunks: int) -> None:
        self.chunks: queue.Queue[Any] = queue.Queue(maxsize=max_chunks)
        self.closed = threading.Event()
        self.outcome: Response | CourierError | None = None
        self.head: Response | None = None
        self.head_ready = threading.Event()

    def set_head(self, head: Response) -> None:
        self.head = head
        self.head_ready.set()

    def put(self, chunk: bytes) -> int:
        while not self.closed.is_set():
            try:
                self.chunks.put(chunk, timeout=0.05)
                return 0
            except queue.Full:
                continue
        return 1

    def settle(self, outcome: Response | CourierError) -> None:
        self.outcome = outcome
        self.head_ready.set()
        while not self.closed.is_set():
            try:
                self.chunks.put(None, timeout=0.05)
                return
            except queue.Full:
                continue


class StreamingResponse:
    """A response whose body arrives chunk by chunk (Client.stream).

    `status_code`, `headers` and `url` are available as soon as the head has arrived (reading them
    waits for it), before the body is read, as with httpx.
    """

    def __init__(self, core: _ClientCore, request_pointer: Any, request: Request, max_chunks: int) -> None:
        self.request = request
        self._consumed = False
        pipe = _Pipe(max_chunks)
        self._pipe = pipe
        self._state = _SendState(request, pipe.settle)
        self._state.sink = pipe.put
        self._state.head_sink = pipe.set_head
        self._state.on_cancel = pipe.closed.set
        _start(core.live(), request_pointer, self._state, streaming=True)

    def iter_bytes(self) -> Iterator[bytes]:
        """The body's chunks as they arrive; raises the send's error at the end if it failed."""
        if self._consumed:
            raise StreamError("the body has already been read", code=18)
        self._consumed = True
        while True:
            chunk = self._pipe.chunks.get()
            if chunk is None:
                break
            yield chunk
        if isinstance(self._pipe.outcome, CourierError):
            raise self._pipe.outcome

    def read(self) -> bytes:
        """Reads the rest of the body into memory and returns it."""
        return b"".join(self.iter_bytes())

    def iter_text(self, encoding: str = "utf-8") -> Iterator[str]:
        """The body decoded incrementally (invalid bytes replaced)."""
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        for chunk in self.iter_bytes():
            text = decoder.decode(chunk)
            if text:
                yield text
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail

    def iter_lines(self, encoding: str = "utf-8", max_line_length: int = MAX_LINE_LENGTH) -> Iterator[str]:
        """The body's lines as they complete, without their line endings (\n or \r\n).

        A line longer than `max_line_length` characters (16 MiB by default) raises LimitExceeded
        and stops the download."""
        return self._bounded(_lines(self.iter_text(encoding), max_line_length))

    def _bounded(self, lines: Iterator[str]) -> Iterator[str]:
        try:
            yield from lines
        except LimitExceeded:
            self.close()
            raise

    def _head(self) -> Response:
        """The head once it has arrived; the send's error when it failed before one did."""
        self._pipe.head_ready.wait()
        if self._pipe.head is not None:
            return self._pipe.head
        outcome = self._pipe.outcome
        if isinstance(outcome, CourierError):
            raise outcome
        if outcome is None:
            raise StreamError("the send ended without a response head", code=18)
        return outcome

    @property
    def status_code(self) -> int:
        return self._head().status_code

    @property
    def reason_phrase(self) -> str:
        return self._head().reason_phrase

    @property
    def headers(self) -> Headers:
        return self._head().headers

    @property
    def url(self) -> str:
        return self._head().url

    @property
    def history(self) -> list[Response]:
        """The redirect responses that led here, first hop first; there with the head."""
        return self._head().history

    @property
    def elapsed(self) -> datetime.timedelta:
        return self._head().elapsed

    @property
    def metrics(self) -> Metrics:
        """Where the time went: the head's phases once it has arrived, and the body phase and the
        total once the body has been read to its end."""
        outcome = self._pipe.outcome
        return outcome.metrics if isinstance(outcome, Response) else self._head().metrics

    @property
    def is_success(self) -> bool:
        return self._head().is_success

    def raise_for_status(self) -> StreamingResponse:
        self._head().raise_for_status()
        return self

    def close(self) -> None:
        """Stops the download if it is still running and waits for the send to end."""
        self._pipe.closed.set()
        self._state.cancel()
        self._state.wait()
        self._state.release()

    def __enter__(self) -> StreamingResponse:
        return self

    def __del__(self) -> None:
        # Unblocks a download nobody reads (its on_data then aborts it); no library call here.
        pipe = getattr(self, "_pipe", None)
        if pipe is not None:
            pipe.closed.set()
        state = getattr(self, "_state", None)
        if state is not None and state.call is not None:
            with _registry_lock:
                _dropped_calls.append(state)

    def __exit__(self, *exc: object) -> None:
        self.close()


class _AsyncPipe:
    """Carries a streamed body from on_data (a library thread) to a coroutine, with backpressure:
    on_data waits while `max_chunks` chunks are unread; the reader is woken through the loop's inbox."""

    def __init__(self, max_chunks: int, inbox: _Inbox) -> None:
        self.inbox = inbox
        self.lock = threading.Lock()
        self.chunks: collections.deque[bytes] = collections.deque()
        self.room = threading.Semaphore(max_chunks)
        self.closed = threading.Event()
        self.ended = False
        self.outcome: Response | CourierError | None = None
        self.head: Response | None = None
        self.waiter: asyncio.Future[None] | None = None

    def set_head(self, head: Response) -> None:
        with self.lock:
            self.head = head
        self._wake()

    async def wait_head(self) -> None:
        while True:
            with self.lock:
                if self.head is not None or self.ended:
                    return
                waiter = self.waiter = asyncio.get_running_loop().create_future()
            await waiter

    def _wake(self) -> None:
        with self.lock:
            waiter, self.waiter = self.waiter, None
        if waiter is not None:
            def resume() -> None:
                if not waiter.done():
                    waiter.set_result(None)
            self.inbox.put(resume)

    def put(self, chunk: bytes) -> int:
        while not self.room.acquire(timeout=0.05):
            if self.closed.is_set():
                return 1
        if self.closed.is_set():
            return 1
        with self.lock:
            self.chunks.append(chunk)
        self._wake()
        return 0

    def settle(self, outcome: Response | CourierError) -> None:
        with self.lock:
            self.outcome = outcome
            self.ended = True
        self._wake()

    async def next(self) -> bytes | None:
        while True:
            with self.lock:
                if self.chunks:
                    chunk = self.chunks.popleft()
                    self.room.release()
                    return chunk
                if self.ended:
                    return None
                waiter = self.waiter = asyncio.get_running_loop().create_future()
            await waiter


class AsyncStreamingResponse:
    """A response whose body arrives chunk by chunk (AsyncClient.stream); `async with` waits for the
    head, so the status and headers are available inside the block, before the body is read."""

    def __init__(self, core: _ClientCore, request_pointer: Any, request: Request, max_chunks: int,
                 inbox: _Inbox) -> None:
        self.request = request
        self._consumed = False
        pipe = _AsyncPipe(max_chunks, inbox)
        self._pipe = pipe
        self._state = _SendState(request, pipe.settle, core.pump)
        self._state.sink = pipe.put
        self._state.head_sink = pipe.set_head
        self._state.on_cancel = pipe.closed.set
        _start(core.live(), request_pointer, self._state, streaming=True)
        if core.pump is not None:
            core.pump.watch(inbox.loop)

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body's chunks as they arrive; raises the send's error at the end if it failed."""
        if self._consumed:
            raise StreamError("the body has already been read", code=18)
        self._consumed = True
        while True:
            chunk = await self._pipe.next()
            if chunk is None:
                break
            yield chunk
        if isinstance(self._pipe.outcome, CourierError):
            raise self._pipe.outcome

    async def aread(self) -> bytes:
        """Reads the rest of the body into memory and returns it."""
        return b"".join([chunk async for chunk in self.aiter_bytes()])

    async def aiter_text(self, encoding: str = "utf-8") -> AsyncIterator[str]:
        """The body decoded incrementally (invalid bytes replaced)."""
        decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        async for chunk in self.aiter_bytes():
            text = decoder.decode(chunk)
            if text:
                yield text
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail

    async def aiter_lines(self, encoding: str = "utf-8", max_line_length: int = MAX_LINE_LENGTH) -> AsyncIterator[str]:
        """The body's lines as they complete, without their line endings.

        A line longer than `max_line_length` characters (16 MiB by default) raises LimitExceeded
        and stops the download."""
        splitter = _LineSplitter(max_line_length)
        try:
            async for text in self.aiter_text(encoding):
                for line in splitter.feed(text):
                    yield line
        except LimitExceeded:
            await self.aclose()
            raise
        for line in splitter.finish():
            yield line

    def _head(self) -> Response:
        """The head once it has arrived (inside `async with`, or after reading the body)."""
        with self._pipe.lock:
            head, ended, outcome = self._pipe.head, self._pipe.ended, self._pipe.outcome
        if head is not None:
            return head
        if isinstance(outcome, CourierError):
            raise outcome
        if not ended or outcome is None:
            raise StreamError("the head has not arrived yet: use `async with client.stream(...)`, which waits for it",
                              code=18)
        return outcome

    @property
    def status_code(self) -> int:
        return self._head().status_code

    @property
    def headers(self) -> Headers:
        return self._head().headers

    @property
    def url(self) -> str:
        return self._head().url

    @property
    def history(self) -> list[Response]:
        """The redirect responses that led here, first hop first; there with the head."""
        return self._head().history

    @property
    def metrics(self) -> Metrics:
        """Where the time went: the head's phases once it has arrived, and the body phase and the
        total once the body has been read to its end."""
        with self._pipe.lock:
            outcome = self._pipe.outcome
        return outcome.metrics if isinstance(outcome, Response) else self._head().metrics

    def raise_for_status(self) -> AsyncStreamingResponse:
        self._head().raise_for_status()
        return self

    async def aclose(self) -> None:
        """Stops the download if it is still running and waits for the send to end."""
        self._pipe.closed.set()
        self._state.cancel()
        while not self._state.done.is_set():
            await asyncio.sleep(0.005)
        self._state.release()

    async def __aenter__(self) -> AsyncStreamingResponse:
        await self._pipe.wait_head()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __del__(self) -> None:
        pipe = getattr(self, "_pipe", None)
        if pipe is not None:
            pipe.closed.set()
        state = getattr(self, "_state", None)
        if state is not None and state.call is not None:
            with _registry_lock:
                _dropped_calls.append(state)
