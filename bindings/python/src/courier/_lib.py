"""Finds and opens libcourier, and checks its ABI major against the header the cdef came from."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from ._courier_cffi import ffi

SONAME = "libcourier.so.1"
#: Where the wheel (scripts/build-wheel.sh) puts the library, with the libcurl it bundles.
BUNDLED = Path(__file__).resolve().parent / "_lib" / SONAME
FIX = (
    "Install the wheel that carries the library (`scripts/build-wheel.sh` in a Courier checkout "
    "builds it), or the libcourier1 package (`scripts/package-deb.sh` makes it), or build the "
    "library from a Courier checkout with `scripts/build-libcourier.sh` and set "
    "COURIER_LIBRARY=/path/to/courier/.build/debug/libcourier.so.1 (or PKG_CONFIG_PATH="
    "/path/to/courier/.build/debug/pkgconfig). That build needs the Swift runtime it was built with."
)


def _pkg_config_candidate() -> str | None:
    if shutil.which("pkg-config") is None:
        raise OSError("pkg-config is not installed")
    result = subprocess.run(
        ["pkg-config", "--variable=libdir", "courier"], capture_output=True, text=True, timeout=10
    )
    if result.returncode != 0:
        raise OSError(result.stderr.strip() or "pkg-config does not know courier")
    return str(Path(result.stdout.strip()) / SONAME)


def _candidates() -> list[tuple[str, Any]]:
    """(description, path-or-callable) in the documented search order."""
    found: list[tuple[str, Any]] = []
    env = os.environ.get("COURIER_LIBRARY")
    if env:
        found.append((f"COURIER_LIBRARY={env}", env))
    else:
        found.append(("COURIER_LIBRARY (not set)", None))
    found.append((f"the bundled copy {BUNDLED}", str(BUNDLED) if BUNDLED.exists() else None))
    found.append((f"{SONAME} through the system loader", SONAME))
    found.append(("pkg-config courier", _pkg_config_candidate))
    return found


def load() -> tuple[Any, str]:
    """Opens the first library that loads and has the right ABI major; ImportError otherwise."""
    tried: list[str] = []
    for description, target in _candidates():
        if target is None:
            tried.append(f"{description}: not found")
            continue
        try:
            path = target() if callable(target) else target
            lib = ffi.dlopen(path)
        except Exception as error:  # noqa: BLE001 - every failure is reported below
            tried.append(f"{description}: {error}")
            continue
        major = lib.courier_abi_version() >> 16
        if major != lib.COURIER_ABI_MAJOR:
            tried.append(
                f"{description}: ABI major {major}, but this package was generated for "
                f"{lib.COURIER_ABI_MAJOR}"
            )
            continue
        return lib, path
    raise ImportError(
        "courier: cannot load libcourier. Tried, in order:\n  - " + "\n  - ".join(tried) + "\n" + FIX
    )


lib, library_path = load()
#: The loaded library's ABI minor: what it adds after 1.0 is used only when it is there.
abi_minor = lib.courier_abi_version() & 0xFFFF
#: Whether the library is the wheel's own copy, whose libcurl knows no CA store of this system.
is_bundled = Path(library_path).resolve() == BUNDLED



_INIT_FUNCTIONS = {
    "courier_client_options": "courier_client_options_init",
    "courier_send_options": "courier_send_options_init",
    "courier_interceptor": "courier_interceptor_init",
}


def new_struct(ctype: str) -> Any:
    """A zeroed extensible struct filled by its exported *_init, sized as this binding's cdef.

    What the header's inline *_init does for C: the library writes only the struct's first
    version, every later field keeps its default of 0, and struct_size tells the library how
    much of the struct this binding knows.
    """
    struct = ffi.new(f"{ctype} *")
    getattr(lib, _INIT_FUNCTIONS[ctype])(struct)
    struct.struct_size = ffi.sizeof(ctype)
    return struct
