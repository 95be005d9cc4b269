"""Maps the `void *user_data` the library hands back to the Python object it stands for.

The library sees only small integers cast to pointers, never a Python object's address, so a
late or stray callback finds nothing instead of a freed object. An entry lives until the
library's destroy callback or completion removes it.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ._courier_cffi import ffi


class ReleasedByTheLibrary:
    """An entry whose release the library calls back for on its own threads (an interceptor's
    destroy callback, a send's completion): interpreter exit waits for these to go."""

    __slots__ = ()


class HandleTable:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._objects: dict[int, Any] = {}
        self._next = 0
        self._waiting = 0

    def add(self, obj: Any) -> Any:
        """Keeps `obj` alive and returns the `void *` that names it."""
        with self._lock:
            self._next += 1
            key = self._next
            self._objects[key] = obj
        return ffi.cast("void *", key)

    def get(self, user_data: Any) -> Any:
        return self._objects.get(int(ffi.cast("uintptr_t", user_data)))

    def pop(self, user_data: Any) -> Any:
        with self._lock:
            popped = self._objects.pop(int(ffi.cast("uintptr_t", user_data)), None)
            if self._waiting:
                self._changed.notify_all()
            return popped

    def wait_while_any(self, kept: Callable[[Any], bool], timeout: float) -> bool:
        """Waits until no entry satisfies `kept`, for at most `timeout` seconds; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._waiting += 1
            try:
                while any(kept(obj) for obj in self._objects.values()):
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return False
                    self._changed.wait(left)
            finally:
                self._waiting -= 1
        return True

    def forget_all(self) -> None:
        """Drops every entry: in a process made by fork(), they are the parent's to release."""
        with self._lock:
            self._objects.clear()
            self._changed.notify_all()

    def __len__(self) -> int:
        return len(self._objects)


handles = HandleTable()
