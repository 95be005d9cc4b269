"""Asynchronous sends: the state of one send, the completion and on_data trampolines, and the
per-loop inbox through which completions reach asyncio.

Sends under way are recorded in _registry, below both this and the client core, so that neither
imports the other.
"""
from __future__ import annotations

import asyncio
import datetime
import threading
import time
import weakref
from typing import Any, Callable

from ._calls import check, from_error
from ._courier_cffi import ffi
from ._errors import CourierError
from ._handles import ReleasedByTheLibrary, handles
from ._lib import lib, new_struct
from ._models import Request, Response
from ._native import copy_response, out_parameters, received_response
from ._interrupt import remember_interrupt
from ._pump import CompletionPump, pumping
from ._registry import _in_flight, _registry_lock, hold_across_fork

NULL = ffi.NULL


class _Latch:
    """A flag set once, that threads can wait for: what a send's end needs of threading.Event, for
    one lock instead of a Condition and two (one is made per send; almost nothing waits on it)."""

    __slots__ = ("_flag", "_lock")

    def __init__(self) -> None:
        self._flag = False
        self._lock = threading.Lock()
        self._lock.acquire()

    def set(self) -> None:
        """Sets the flag and wakes the waiters; call it once."""
        self._flag = True
        self._lock.release()

    def is_set(self) -> bool:
        return self._flag

    def wait(self, timeout: float | None = None) -> bool:
        if self._flag:
            return True
        if self._lock.acquire(timeout=-1 if timeout is None else max(0.0, timeout)):
            self._lock.release()
        return self._flag


class _SendState(ReleasedByTheLibrary):
    """One asynchronous send under way: the call handle, and what the completion settles."""

    # One is made per send: slots make it smaller and its fields quicker to set.
    __slots__ = ("request", "shares_request", "pump", "on_done", "lock", "call", "done", "started", "sink",
                 "head_sink", "sink_error", "finished", "on_cancel")

    def __init__(self, request: Request, on_done: Callable[[Response | CourierError], None],
                 pump: CompletionPump | None = None, shares_request: bool = False) -> None:
        self.request = request
        # The client's reused snapshot (see _ClientCore.acquire): copied only for what keeps it.
        self.shares_request = shares_request
        self.pump = pump
        self.on_done: Callable[[Response | CourierError], None] | None = on_done
        self.lock = threading.Lock()
        self.call: Any = None
        self.done = _Latch()
        self.started = time.perf_counter()
        self.sink: Callable[[bytes], int] | None = None
        self.head_sink: Callable[[Response], None] | None = None
        self.sink_error: BaseException | None = None
        self.finished = False
        self.on_cancel: Callable[[], None] | None = None

    def own_request(self) -> Request:
        """The request for an outcome to keep: a copy when it is the client's reused snapshot."""
        return self.request._copy() if self.shares_request else self.request

    def attach(self, call: Any) -> None:
        with self.lock:
            self.call = call
        with _registry_lock:
            if not self.finished:
                _in_flight.add(self)

    def cancel(self) -> None:
        if self.on_cancel is not None:
            self.on_cancel()
        with self.lock:
            call = self.call
        if call is not None and not self.done.is_set():
            lib.courier_call_cancel(call, NULL)

    def wait(self, timeout: float | None = None) -> bool:
        """Waits for the completion to have run; runs the client's queued completions meanwhile
        when it queues them (interpreter exit waits so, with no loop running them)."""
        if self.pump is None:
            return self.done.wait(timeout)
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.done.is_set():
            if not self.pump.run():
                return self.done.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
            left = 0.005 if deadline is None else min(0.005, deadline - time.monotonic())
            if left <= 0:
                return False
            self.done.wait(left)
        return True

    def release(self) -> None:
        """Frees the call handle once the completion has run."""
        with self.lock:
            call, self.call = self.call, None
        if call is not None:
            lib.courier_call_free(call)

    def complete(self, response: Any, error: Any) -> None:
        try:
            if response != NULL:
                # Seconds: the Response makes its timedelta when `elapsed` is first read.
                outcome: Response | CourierError = received_response(
                    response, self.request, time.perf_counter() - self.started, self.shares_request)
            else:
                outcome = from_error(error, self.own_request())
                if self.sink_error is not None:
                    outcome.__cause__ = self.sink_error
        except BaseException as failure:  # noqa: BLE001
            outcome = CourierError(f"cannot read the outcome: {failure}", request=self.own_request())
        finally:
            if error != NULL:
                lib.courier_error_free(error)
        with _registry_lock:
            self.finished = True
            _in_flight.discard(self)
        # Dropped once called: the callback usually holds this state (a closure over it), and
        # the cycle kept every send's objects, its response among them, for the garbage collector.
        on_done, self.on_done = self.on_done, None
        try:
            on_done(outcome)
        finally:
            self.done.set()


@ffi.callback("courier_completion_fn", onerror=remember_interrupt)
def _completion_trampoline(user_data: Any, response: Any, error: Any) -> None:
    state = handles.pop(user_data)
    if state is None:
        if response != NULL:
            lib.courier_response_free(response)
        if error != NULL:
            lib.courier_error_free(error)
        return
    state.complete(response, error)


@ffi.callback("courier_data_fn", error=1)
def _data_trampoline(user_data: Any, data: Any, length: int) -> int:
    state = handles.get(user_data)
    if state is None or state.sink is None:
        return 1
    try:
        return state.sink(ffi.buffer(data, length)[:])
    except BaseException as failure:  # noqa: BLE001 - aborts the download; the caller sees it
        state.sink_error = failure
        return 1


@ffi.callback("courier_head_fn", error=1)
def _head_trampoline(user_data: Any, head: Any) -> int:
    state = handles.get(user_data)
    if state is None or state.head_sink is None:
        return 0
    try:
        elapsed = datetime.timedelta(seconds=time.perf_counter() - state.started)
        state.head_sink(copy_response(head, state.own_request(), elapsed))
        return 0
    except BaseException as failure:  # noqa: BLE001 - aborts the send; the caller sees it
        state.sink_error = failure
        return 1


def _start(client: Any, request_pointer: Any, state: _SendState, streaming: bool) -> None:
    """Sends `request_pointer` on the courier_client `client`; the completion settles `state`."""
    options = NULL
    user_data = handles.add(state)
    if streaming:
        options = new_struct("courier_send_options")
        options.on_data = _data_trampoline
        options.on_head = _head_trampoline
        options.user_data = user_data
    out = out_parameters
    try:
        code = lib.courier_client_send_async(client, request_pointer, options, _completion_trampoline,
                                             user_data, out.call, out.error)
    except BaseException:
        handles.pop(user_data)
        raise
    if code:
        handles.pop(user_data)
        check(code, out.error, state.own_request())
    state.attach(out.call[0])


class _Inbox:
    """Outcomes waiting for one event loop: a completion wakes the loop only when the inbox was
    empty, so many sends finishing together cost one call_soon_threadsafe, not one each."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lock = threading.Lock()
        self.items: list[Callable[[], None]] = []

    def put(self, item: Callable[[], None]) -> bool:
        with self.lock:
            self.items.append(item)
            if len(self.items) > 1:
                return True
        try:
            self.loop.call_soon_threadsafe(self.drain)
        except RuntimeError:
            with self.lock:
                self.items.clear()
            return False
        return True

    def drain(self) -> None:
        with self.lock:
            items, self.items = self.items, []
        for item in items:
            item()


_inboxes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Inbox] = weakref.WeakKeyDictionary()
_inboxes_lock = hold_across_fork(threading.Lock())


def _inbox(loop: asyncio.AbstractEventLoop) -> _Inbox:
    with _inboxes_lock:
        inbox = _inboxes.get(loop)
        if inbox is None:
            inbox = _inboxes[loop] = _Inbox(loop)
        return inbox


def _post(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Response], state: _SendState,
          outcome: Response | CourierError) -> None:
    """From the completion's thread: settle the future on its loop, then free the call handle;
    at once when the completion runs on that loop (a client that queues its completions), else
    through the loop's inbox."""
    def settle() -> None:
        state.release()
        if future.done():
            return
        if isinstance(outcome, CourierError):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    if pumping.loop is loop or asyncio._get_running_loop() is loop:
        settle()
    elif not _inbox(loop).put(settle):
        state.release()
