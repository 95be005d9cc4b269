"""Ctrl-C during a blocking send: the send options that let the main thread's signal handlers run.

CPython runs a signal handler (KeyboardInterrupt's among them) only on the main thread, between
bytecodes; a thread blocked inside courier_client_send runs none. The library asks the send's
should_cancel (ABI 1.2) every 100 ms while it waits, and at once when a signal interrupts the
wait: entering that callback runs the pending handlers, and an exception one raises cancels the
send, which then re-raises it, as requests and httpx do while they block on a socket. The same
holds for an AsyncClient's completion that its loop runs on the main thread (remember_interrupt).
"""
from __future__ import annotations

import threading
from typing import Any

from ._courier_cffi import ffi
from ._lib import lib, new_struct

NULL = ffi.NULL
_MAIN_THREAD = threading.main_thread().ident
# Raised by a signal handler inside _should_cancel; read by the send on the main thread.
_raised: list[BaseException] = []


def _remember(exception: type[BaseException], value: BaseException, traceback: Any) -> int:
    _raised.append(value)
    return 1


@ffi.callback("courier_cancel_check_fn", error=1, onerror=_remember)
def _should_cancel(user_data: Any) -> int:
    # Entering Python here is the point: CPython runs the pending signal handlers first.
    return 0


def _make_options() -> Any:
    if lib.courier_abi_version() & 0xFFFF < 2:
        return NULL  # a library older than ABI 1.2 would refuse the field
    options = new_struct("courier_send_options")
    options.should_cancel = _should_cancel
    return options


_OPTIONS = _make_options()


def send_options() -> Any:
    """The options for a blocking send from this thread: on the main thread, ones that let
    KeyboardInterrupt cancel it; elsewhere NULL (signals are handled on the main thread only)."""
    if threading.get_ident() != _MAIN_THREAD:
        return NULL
    _raised.clear()
    return _OPTIONS


def remember_interrupt(exception: type[BaseException], value: BaseException, traceback: Any) -> None:
    """The onerror of a callback the main thread may run outside a blocking send (an AsyncClient's
    completion, run by its loop): what a signal handler raised there (KeyboardInterrupt,
    SystemExit) is kept for raise_if_interrupted once the library has returned; any other
    exception, or one on another thread, is printed, as cffi does."""
    if issubclass(exception, Exception) or threading.get_ident() != _MAIN_THREAD:
        raise value
    _raised.append(value)


def raise_if_interrupted() -> None:
    """Re-raises what a signal handler raised while the send waited (after it was cancelled), or
    inside a completion; on the main thread only, the one signal handlers run on."""
    if _raised and threading.get_ident() == _MAIN_THREAD:
        raised = _raised.pop()
        _raised.clear()
        raise raised
