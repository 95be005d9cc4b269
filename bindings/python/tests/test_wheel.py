"""The wheel (scripts/build-wheel.sh) alone: installed in a fresh venv with the Swift toolchain,
every libcurl and libcourier and the build tree hidden, it runs the Python quick start; and the
sdist, which carries no library, installs pure and finds the system's libcourier.so.1."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import REPO, SUMMARY, Server

HERE = Path(__file__).resolve().parent


def built_wheel() -> Path:
    wheel = os.environ.get("COURIER_WHEEL")
    if not wheel:
        pytest.fail("COURIER_WHEEL is not set: scripts/test-python builds the wheel and sets it")
    return Path(wheel)


def base_python() -> str:
    """The interpreter this venv was made from: a fresh venv starts from it, as a user's would."""
    return str(Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}")


def dependency_wheels(into: Path) -> Path:
    """cffi and pycparser as wheels, so the clean room's pip needs no index."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                    "--only-binary", ":all:", "-d", str(into), "cffi>=1.15"], check=True, timeout=300)
    return into


def test_the_wheel_carries_the_library_and_its_libcurl_with_a_manylinux_tag() -> None:
    wheel = built_wheel()
    assert "-py3-none-manylinux_" in wheel.name and wheel.name.endswith("_x86_64.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "courier/_lib/libcourier.so.1" in names
    assert any(name.startswith("courier.libs/libcurl-") for name in names), names
    assert not any("libswift" in name or "Foundation" in name for name in names), names


def test_the_wheel_alone_runs_the_quick_start_without_toolchain_libcurl_or_libcourier(
        server: Server, tmp_path: Path) -> None:
    wheel = shutil.copy(built_wheel(), tmp_path)
    quickstart = shutil.copy(REPO / "Examples" / "python" / "quickstart.py", tmp_path)
    swift = shutil.which("swift")
    assert swift, "the test hides the Swift toolchain, so it needs one on PATH to find"
    toolchain = Path(os.path.realpath(swift)).parents[1]
    dependencies = dependency_wheels(tmp_path / "dependencies")
    result = subprocess.run(
        ["unshare", "-m", "bash", str(HERE / "install_wheel_alone.sh"), str(wheel), str(dependencies),
         str(tmp_path), server.url, str(quickstart), base_python(), str(toolchain), str(REPO / ".build")],
        capture_output=True, text=True, timeout=300)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "toolchain entries: 0\nno swift on PATH\n" in output, output
    assert "200 POST /anything/users lang=en" in output, output
    assert "X-Stamp: attempt-1" in output, output
    assert "timed out as asked: TimeoutException" in output, output
    library = next(line for line in output.splitlines() if line.startswith("library: "))
    assert library.endswith("courier/_lib/libcourier.so.1 bundled"), output
    mapped = next(line for line in output.splitlines() if line.startswith("mapped: ")).split()[1:]
    assert any("/courier.libs/libcurl-" in path for path in mapped), output
    assert not any("libswift" in path for path in mapped), output
    assert not any(path.endswith("libcurl.so.4") or "libcurl.so.4." in path for path in mapped), output
    timing = next(line for line in output.splitlines() if line.startswith("install to first response: "))
    SUMMARY.append(f"wheel {Path(wheel).name} ({Path(wheel).stat().st_size / 1e6:.1f} MB): {timing}")


def test_the_sdist_carries_no_library_and_finds_the_systems(tmp_path: Path) -> None:
    hatchling = shutil.which("hatchling", path=str(Path(sys.executable).parent))
    assert hatchling, "the test venv has hatchling (scripts/test-python installs it)"
    source = tmp_path / "source"
    shutil.copytree(REPO / "bindings" / "python", source,
                    ignore=shutil.ignore_patterns("__pycache__", "_lib", "*.egg-info"))
    subprocess.run([hatchling, "build", "-t", "sdist", "-d", str(tmp_path / "dist")], cwd=source, check=True,
                   capture_output=True, timeout=120)
    sdist = next((tmp_path / "dist").glob("courier-*.tar.gz"))
    assert not any("/_lib/" in name for name in tarfile.open(sdist).getnames())
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--no-build-isolation", "--no-deps", "--target", str(site), str(sdist)], check=True, timeout=300)
    wheel_info = next(site.glob("courier-*.dist-info/WHEEL")).read_text()
    assert "Tag: py3-none-any" in wheel_info and "Root-Is-Purelib: true" in wheel_info, wheel_info
    assert not (site / "courier" / "_lib").exists()
    # The system loader finds libcourier.so.1 as it finds the libcourier1 package's copy.
    system = tmp_path / "system-lib"
    system.mkdir()
    library = os.environ.get("COURIER_DEFAULT_LIBRARY") or os.environ["COURIER_LIBRARY"]
    (system / "libcourier.so.1").symlink_to(library)
    env = {key: value for key, value in os.environ.items() if key not in ("COURIER_LIBRARY", "PKG_CONFIG_PATH")}
    env.update(LD_LIBRARY_PATH=str(system), PYTHONPATH=str(site))
    found = subprocess.run(
        [sys.executable, "-c",
         "import courier; from courier._lib import is_bundled, library_path; "
         "print(courier.__file__.startswith(%r), library_path, is_bundled)" % str(site)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "True libcourier.so.1 False", found.stdout
