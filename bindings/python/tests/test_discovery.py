"""The library is found in the documented order: COURIER_LIBRARY, bundled, system loader, pkg-config."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import courier

from conftest import REPO

LIBRARY = Path(os.path.realpath(courier.library_path)) if os.path.sep in courier.library_path else None
pytestmark = pytest.mark.skipif(LIBRARY is None, reason="set COURIER_LIBRARY to a path to run these")


def found_with(env_changes: dict[str, str], tmp_path: Path, pythonpath: Path | None = None) -> str:
    env = {key: value for key, value in os.environ.items()
           if key not in ("COURIER_LIBRARY", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH")}
    env["PKG_CONFIG_PATH"] = str(tmp_path / "no-pkgconfig")
    env.update(env_changes)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    result = subprocess.run([sys.executable, "-c", "import courier; print(courier.library_path)"],
                            capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_courier_library_comes_first(tmp_path: Path) -> None:
    assert found_with({"COURIER_LIBRARY": str(LIBRARY), "LD_LIBRARY_PATH": str(LIBRARY.parent)},
                      tmp_path) == str(LIBRARY)


def test_bundled_copy(tmp_path: Path) -> None:
    package = tmp_path / "site" / "courier"
    shutil.copytree(Path(courier.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    (package / "_lib").mkdir()
    (package / "_lib" / "libcourier.so.1").symlink_to(LIBRARY)
    path = found_with({"LD_LIBRARY_PATH": str(LIBRARY.parent)}, tmp_path, pythonpath=tmp_path / "site")
    assert path == str(package / "_lib" / "libcourier.so.1")


def test_system_loader(tmp_path: Path) -> None:
    soname = LIBRARY.parent / "libcourier.so.1"
    if not soname.exists():
        pytest.skip(f"{soname} does not exist")
    assert found_with({"LD_LIBRARY_PATH": str(LIBRARY.parent)}, tmp_path) == "libcourier.so.1"


def test_pkg_config(tmp_path: Path) -> None:
    if shutil.which("pkg-config") is None:
        pytest.skip("pkg-config is not installed")
    pc = tmp_path / "pc"
    pc.mkdir()
    (pc / "courier.pc").write_text(
        f"libdir={LIBRARY.parent}\nincludedir={REPO / 'include'}\n\nName: courier\nDescription: test\n"
        "Version: 0\nCflags: -I${includedir}\nLibs: -L${libdir} -lcourier\n")
    assert found_with({"PKG_CONFIG_PATH": str(pc)}, tmp_path) == str(LIBRARY.parent / "libcourier.so.1")


def test_wheel_is_pure_python(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                             "-w", str(tmp_path), str(REPO / "bindings" / "python")],
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0 and "hatchling" in result.stderr:
        pytest.skip("hatchling is not installed in this environment")
    assert result.returncode == 0, result.stderr
    wheels = list(tmp_path.glob("*.whl"))
    assert [wheel.name for wheel in wheels] == ["courier-0.2.0-py3-none-any.whl"]
    names = zipfile.ZipFile(wheels[0]).namelist()
    for required in ("courier/__init__.py", "courier/_courier_cffi.py", "courier/_cdef.h", "courier/py.typed",
                     "courier/httpx.py"):
        assert required in names
    assert not [name for name in names if name.endswith((".so", ".c"))]
