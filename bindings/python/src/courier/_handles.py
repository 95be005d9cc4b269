"""Maps the `void *user_data` the library hands back to the Python object it stands for.

The library sees only small integers cast to pointers, never a Python object's address, so a
late or stray callback finds nothing instead of a freed object. An entry lives until the
library's destroy callback or completion removes it.
"""
from __future__ import annotations

import threading
from typing import Any

from ._courier_cffi import ffi


class HandleTable:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._objects: dict[int, Any] = {}
        self._next = 0

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
            return self._objects.pop(int(ffi.cast("uintptr_t", user_data)), None)

    def __len__(self) -> int:
        return len(self._objects)


handles = HandleTable()
