"""What the process holds for every client: the live courier_clients and the sends under way, which
interpreter exit frees and cancels, and a child of fork() forgets.

One module below the clients (_core) and the sends (_sending, _streaming), which all change it, so
that neither has to import the other for it.
"""
from __future__ import annotations

import atexit
import os
import threading
from typing import Any, TypeVar

from ._calls import _pending_lock
from ._handles import ReleasedByTheLibrary, handles
from ._lib import lib
from ._models import _lazy_lock

# Every live courier_client, so that interpreter exit frees them; and calls under way, so that
# exit cancels them first. Clients dropped without close() are queued here by __del__ (which
# never calls the library) and freed on the next ordinary call.
_registry_lock = threading.RLock()  # re-entrant: __del__ may run while this thread holds it
_live_clients: dict[int, Any] = {}
_dropped: list[Any] = []
_in_flight: set[Any] = set()
_dropped_calls: list[Any] = []
_dropped_requests: list[Any] = []


def _free_dropped() -> None:
    with _registry_lock:
        dropped = _dropped[:]
        _dropped.clear()
        calls = [state for state in _dropped_calls if state.done.is_set()]
        _dropped_calls[:] = [state for state in _dropped_calls if not state.done.is_set()]
        requests = _dropped_requests[:]
        _dropped_requests.clear()
    for request in requests:
        lib.courier_request_free(request)
    for state in calls:
        state.release()
    for pointer in dropped:
        lib.courier_client_free(pointer)


# fork(): a client belongs to the process that created it. The library refuses the parent's
# clients in a child (ForkError) without touching their connections or threads; this side makes
# sure the child never waits on a lock a vanished thread held, and forgets the parent's clients,
# sends and callbacks so that the child's exit neither frees nor waits for them.
_fork_locks: list[Any] = [_registry_lock, handles._lock, _pending_lock, _lazy_lock]
LockType = TypeVar("LockType")


def hold_across_fork(lock: LockType) -> LockType:
    """Has fork() take `lock` before it forks and release it after, in parent and child, as it does
    the locks of the modules below: for a module above this one."""
    _fork_locks.append(lock)
    return lock


def _before_fork() -> None:
    for lock in _fork_locks:
        lock.acquire()


def _after_fork_in_parent() -> None:
    for lock in reversed(_fork_locks):
        lock.release()


def _after_fork_in_child() -> None:
    for lock in reversed(_fork_locks):
        lock.release()
    with _registry_lock:
        _live_clients.clear()
        _dropped.clear()
        _in_flight.clear()
        _dropped_calls.clear()
    handles.forget_all()


os.register_at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
                    after_in_child=_after_fork_in_child)


@atexit.register
def _shutdown() -> None:
    _free_dropped()
    with _registry_lock:
        calls = list(_in_flight)
    for send in calls:
        send.cancel()
    for send in calls:
        send.wait(5.0)
    with _registry_lock:
        clients = list(_live_clients.values()) + _dropped
        _live_clients.clear()
        _dropped.clear()
    for pointer in clients:
        lib.courier_client_free(pointer)
    # The library's last calls into Python for these clients can come after courier_client_free
    # returns, on its own threads: an interceptor's destroy callback runs when the last send using
    # it lets go, a cancelled send's completion when it ends. Once the interpreter is finalizing, a
    # thread calling into it crashes the process, so wait for them while it still runs (bounded:
    # a wedged send must not hang the exit).
    handles.wait_while_any(_released_by_the_library, timeout=10.0)


def _released_by_the_library(entry: Any) -> bool:
    """Entries whose release the library calls back for on its own: interceptors and sends."""
    return isinstance(entry, ReleasedByTheLibrary)
