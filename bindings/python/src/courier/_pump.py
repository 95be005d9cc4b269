"""Runs an AsyncClient's completions on the event loops that await them.

The AsyncClient's courier_client queues its completions (queue_completions): each loop that sends
watches the client's completion descriptor and runs the waiting completions when it turns
readable, so a response is read and its future settled on the loop's own thread, many at a time,
with no library thread taking the GIL from the loop once per response.
"""
from __future__ import annotations

import asyncio
import os
import select
import threading
import weakref
from typing import Any, Callable

from ._calls import invoke
from ._courier_cffi import ffi
from ._interrupt import raise_if_interrupted
from ._lib import lib

NULL = ffi.NULL


class _Pumping(threading.local):
    """The loop whose completions this thread is running now, if any: a completion that finds its
    own loop here settles its future at once, without asking asyncio for the running loop (which
    costs a getpid() system call in CPython 3.11 and earlier)."""

    loop: asyncio.AbstractEventLoop | None = None


pumping = _Pumping()


class CompletionPump:
    """The loops watching one client's completion descriptor, each through a duplicate of it.

    A loop watches its own duplicate, closed only once the loop has stopped watching it, so that
    courier_client_free closing the client's descriptor never leaves a loop's selector holding a
    number the process may hand to a new socket.
    """

    def __init__(self, current: Callable[[], Any]) -> None:
        """`current` gives the client's courier_client *, or None once it is closed."""
        box = ffi.new("int *")
        invoke(lib.courier_client_completion_fd, current(), box)
        self._descriptor = box[0]
        self._current = current
        self._lock = threading.Lock()
        self._watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Watch] = weakref.WeakKeyDictionary()
        self._recent: Callable[[], asyncio.AbstractEventLoop | None] = lambda: None

    def watch(self, loop: asyncio.AbstractEventLoop) -> None:
        """Has `loop` run the client's completions from now on (once per loop; from its thread).
        The duplicates of loops closed since are closed then (a closed loop lingers until the
        garbage collector frees its cycles).

        A loop without add_reader (Windows' proactor) gets a thread that waits on the descriptor
        and runs them there instead; outcomes then reach the loop as they do from library threads.
        """
        if self._recent() is loop:
            return
        with self._lock:
            if loop not in self._watches:
                for closed in [other for other in self._watches if other.is_closed()]:
                    self._watches.pop(closed).close()
                watch = _Watch(loop, os.dup(self._descriptor))
                try:
                    loop.add_reader(watch.descriptor, self._run_on, loop)
                except NotImplementedError:
                    threading.Thread(target=self._serve, args=(watch,), daemon=True,
                                     name="courier-completions").start()
                self._watches[loop] = watch
            self._recent = weakref.ref(loop)

    def run(self) -> bool:
        """Runs the completions waiting now on this thread; False once the client is freed."""
        pointer = self._current()
        return pointer is not None and lib.courier_client_run_completions(pointer, NULL, NULL) == 0

    def stop(self, deferred: bool = False) -> None:
        """Stops every loop watching, before the client is freed: each loop removes its reader on
        its own thread (at once when it is this thread's, unless `deferred`, as from __del__),
        then closes its duplicate."""
        with self._lock:
            watches = list(self._watches.items())
            self._watches.clear()
            self._recent = lambda: None
        current = None if deferred else asyncio._get_running_loop()
        for loop, watch in watches:
            if loop is current:
                watch.end(loop)
                continue
            try:
                loop.call_soon_threadsafe(watch.end, loop)
            except RuntimeError:  # the loop is closed, and its selector with it
                watch.close()

    def _run_on(self, loop: asyncio.AbstractEventLoop) -> None:
        pumping.loop = loop
        try:
            ran = self.run()
        finally:
            pumping.loop = None
        if not ran:
            with self._lock:
                watch = self._watches.pop(loop, None)
            if watch is not None:
                watch.end(loop)
        # A signal handler that raised inside a completion (see _interrupt.remember_interrupt).
        raise_if_interrupted()

    def _serve(self, watch: _Watch) -> None:
        poller = select.poll()
        poller.register(watch.descriptor, select.POLLIN)
        while watch.open:
            if poller.poll(100) and not self.run():
                break
        watch.close()


class _Watch:
    """One loop's duplicate of the completion descriptor, closed when the watch ends or, failing
    that, when the loop is collected."""

    def __init__(self, loop: asyncio.AbstractEventLoop, descriptor: int) -> None:
        self.descriptor = descriptor
        self._closer = weakref.finalize(loop, os.close, descriptor)

    @property
    def open(self) -> bool:
        return self._closer.alive

    def end(self, loop: asyncio.AbstractEventLoop) -> None:
        """On the loop's thread: stops watching, then closes the duplicate."""
        if self._closer.alive and not loop.is_closed():
            loop.remove_reader(self.descriptor)
        self.close()

    def close(self) -> None:
        self._closer()
