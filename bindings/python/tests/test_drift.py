"""The generated cffi files match the header, the library's exports and the C compiler's layout."""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import courier
from courier._courier_cffi import ffi

from conftest import REPO

PACKAGE = REPO / "bindings" / "python"
SOURCE = PACKAGE / "src" / "courier"
INSTALLED = Path(courier.__file__).resolve().parent


def load_generator():
    spec = importlib.util.spec_from_file_location("gen_cdef", PACKAGE / "tools" / "gen_cdef.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_regeneration_is_byte_identical(tmp_path: Path) -> None:
    load_generator().generate(tmp_path)
    for name in ("_cdef.h", "_courier_cffi.py"):
        generated = (tmp_path / name).read_bytes()
        assert generated == (SOURCE / name).read_bytes(), f"{name} drifted: run tools/gen_cdef.py"
        assert generated == (INSTALLED / name).read_bytes(), f"the installed {name} is stale: reinstall"


def cdef_functions() -> set[str]:
    text = (SOURCE / "_cdef.h").read_text()
    return set(re.findall(r"\b(courier_\w+)\s*\((?!\*)", text))


def test_cdef_functions_equal_library_exports() -> None:
    library = os.path.realpath(courier.library_path) if os.path.sep in courier.library_path else None
    if library is None:
        pytest.skip("the library was found by the system loader; set COURIER_LIBRARY to compare exports")
    output = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True,
                            text=True, timeout=60).stdout
    symbols = [line.split()[-1].split("@")[0] for line in output.splitlines() if line.split()]
    exported = {symbol for symbol in symbols if symbol.startswith("courier_")}
    declared = cdef_functions()
    assert declared == exported, (
        f"only in the cdef: {sorted(declared - exported)}; only in the library: {sorted(exported - declared)}")
    assert len(declared) > 60


STRUCTS = ["courier_client_options", "courier_send_options", "courier_interceptor"]


def test_struct_layout_equals_c_compiler(tmp_path: Path) -> None:
    lines = ["#include <courier.h>", "#include <stdio.h>", "#include <stddef.h>", "int main(void) {"]
    expected = []
    for struct in STRUCTS:
        lines.append(f'    printf("{struct} %zu\\n", sizeof({struct}));')
        expected.append(f"{struct} {ffi.sizeof(struct)}")
        for field, _ in ffi.typeof(struct).fields:
            lines.append(f'    printf("{struct}.{field} %zu\\n", offsetof({struct}, {field}));')
            expected.append(f"{struct}.{field} {ffi.offsetof(struct, field)}")
    lines += ["    return 0;", "}"]
    (tmp_path / "probe.c").write_text("\n".join(lines) + "\n")
    subprocess.run(["cc", "-I", str(REPO / "include"), "-o", str(tmp_path / "probe"), str(tmp_path / "probe.c")],
                   check=True, timeout=120)
    reported = subprocess.run([str(tmp_path / "probe")], check=True, capture_output=True, text=True,
                              timeout=30).stdout.split("\n")
    assert [line for line in reported if line] == expected


def test_abi_major_matches_header() -> None:
    header = (REPO / "include" / "courier.h").read_text()
    major = int(re.search(r"#define COURIER_ABI_MAJOR (\d+)", header).group(1))
    assert courier.abi_version[0] == major
    from courier._lib import lib
    assert lib.COURIER_ABI_MAJOR == major


def import_with(env_changes: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.update(env_changes)
    env["PKG_CONFIG_PATH"] = str(tmp_path)
    env.pop("LD_LIBRARY_PATH", None)
    return subprocess.run([sys.executable, "-c", "import courier"], capture_output=True, text=True,
                          env=env, timeout=60, cwd=tmp_path)


def test_abi_major_mismatch_is_refused_at_import(tmp_path: Path) -> None:
    (tmp_path / "fake.c").write_text("unsigned courier_abi_version(void) { return 2u << 16; }\n")
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(tmp_path / "libfake.so"), str(tmp_path / "fake.c")],
                   check=True, timeout=120)
    result = import_with({"COURIER_LIBRARY": str(tmp_path / "libfake.so")}, tmp_path)
    if result.returncode == 0:
        pytest.skip("a libcourier.so.1 is installed system-wide, so the import fell through to it")
    assert "ImportError" in result.stderr
    assert "ABI major 2" in result.stderr


def test_missing_library_import_error_lists_what_was_tried(tmp_path: Path) -> None:
    result = import_with({"COURIER_LIBRARY": str(tmp_path / "nope.so")}, tmp_path)
    if result.returncode == 0:
        pytest.skip("a libcourier.so.1 is installed system-wide")
    assert "ImportError" in result.stderr
    for fragment in ("COURIER_LIBRARY=", "bundled", "libcourier.so.1 through the system loader",
                     "pkg-config courier", "scripts/build-libcourier.sh"):
        assert fragment in result.stderr
