#!/usr/bin/env bash
# Installs the wheel into a fresh venv on a machine without the Swift toolchain, libcurl,
# libcourier or Courier's build tree, then runs the Python quick start against the server:
#
#   install_wheel_alone.sh WHEEL DEPENDENCIES WORK SERVER_URL QUICKSTART PYTHON TOOLCHAIN BUILD_TREE
#
# test_wheel.py runs it in a mount namespace of its own (`unshare -m`), so no mount is seen
# outside. DEPENDENCIES holds the wheels of cffi and pycparser, so pip needs no index.
set -euo pipefail
wheel=$1 dependencies=$2 work=$3 server=$4 quickstart=$5 python=$6 toolchain=$7 build_tree=$8

mount --make-rprivate /
mount -t tmpfs tmpfs "$toolchain"
mount -t tmpfs tmpfs "$build_tree"
# Every libcurl, libcourier and Swift runtime library the loader could find becomes an empty file.
for library in $(ldconfig -p | awk '/libcurl|libcourier|libswift/ { print $NF }'); do
    mount --bind /dev/null "$(readlink -f "$library")"
done
echo "toolchain entries: $(ls -A "$toolchain" | wc -l)"
command -v swift || echo "no swift on PATH"
unset COURIER_LIBRARY PKG_CONFIG_PATH LD_LIBRARY_PATH PYTHONPATH

started=$(date +%s%N)
"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-index \
    --find-links "$dependencies" "$wheel"
installed=$(date +%s%N)
echo "installed in $(((installed - started) / 1000000)) ms"
first=""
"$work/venv/bin/python" -u "$quickstart" "$server" | while IFS= read -r line; do
    if [[ -z $first ]]; then
        first=$(date +%s%N)
        echo "install to first response: $(((first - started) / 1000000)) ms"
    fi
    echo "$line"
done
"$work/venv/bin/python" - <<'PY'
from courier._lib import is_bundled, library_path
print("library:", library_path, "bundled" if is_bundled else "not bundled")
maps = {line.split()[-1] for line in open("/proc/self/maps") if line.split()[-1].startswith("/")}
print("mapped:", " ".join(sorted(path for path in maps if "curl" in path or "swift" in path or "courier" in path)))
PY
