#!/usr/bin/env bash
# Builds Courier's C library and a pkg-config file for it.
#
#   scripts/build-libcourier.sh [--with-async-http-client] [--static-runtime] [debug|release] [PREFIX]
#
# SwiftPM builds the library as the product CourierC, libCourierC.so (the product name
# `courier` is the command-line tool's); its SONAME is libcourier.so.1. It carries the core and
# libcurl's transport: what a C caller uses. --with-async-http-client builds and installs the
# variant with the AsyncHTTPClient transport as well (the product CourierCWithAsyncHTTPClient:
# the same ABI and SONAME, with SwiftNIO and BoringSSL inside); without it,
# COURIER_TRANSPORT_ASYNC_HTTP_CLIENT fails with COURIER_E_UNSUPPORTED, naming this option.
#
# Without PREFIX, the library stays in the build directory (.build/debug or .build/release), where
# this script adds libcourier.so.1 and libcourier.so pointing to it, and pkgconfig/courier.pc,
# whose flags compile against include/ and link with an rpath to the build directory, so programs
# run without LD_LIBRARY_PATH:
#
#   PKG_CONFIG_PATH=.build/debug/pkgconfig cc app.c $(pkg-config --cflags --libs courier)
#
# There the library links the Swift runtime of the toolchain that built it (its RUNPATH names
# the toolchain's runtime directory), and shares the build with `swift build` and `swift test`.
#
# With PREFIX (or with --static-runtime), the library is built with the Swift runtime linked in
# (`-static-stdlib`, unused code dropped with `--gc-sections`, in its own build directory,
# .build/static-runtime), so it needs no Swift library at all and carries its own runtime beside
# any other Swift code in the process. With PREFIX it is then installed, like `make install`:
#   PREFIX/lib/libcourier.so.1, PREFIX/lib/libcourier.so -> libcourier.so.1,
#   PREFIX/include/courier.h, PREFIX/include/courier_plugin.h, PREFIX/lib/pkgconfig/courier.pc
# and runs wherever the tree is copied, on a machine with no Swift toolchain.
#
# COURIER_BUILD_DIR=DIR skips `swift build` and uses the library already in DIR (the C tests
# use this from inside `swift test`; for an install, DIR must hold a --static-runtime build).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

product=CourierC
static_runtime=""
while [[ ${1:-} == --* ]]; do
    case $1 in
        --with-async-http-client) product=CourierCWithAsyncHTTPClient ;;
        --static-runtime) static_runtime=1 ;;
        *) echo "usage: $0 [--with-async-http-client] [--static-runtime] [debug|release] [PREFIX]" >&2; exit 2 ;;
    esac
    shift
done
configuration=${1:-debug}
prefix=${2:-}
case $configuration in
    debug) build_flags=() ;;
    release) build_flags=(-c release) ;;
    *) echo "usage: $0 [--with-async-http-client] [--static-runtime] [debug|release] [PREFIX]" >&2; exit 2 ;;
esac
# An installed library carries its Swift runtime: a tree with no toolchain, and no runtime shared
# (by name) with other Swift code in the process, which may be another Swift version.
[[ -z $prefix ]] || static_runtime=1
if [[ -n $static_runtime ]]; then
    build_flags+=(--scratch-path .build/static-runtime -Xswiftc -static-stdlib -Xlinker --gc-sections)
fi

if [[ -n ${COURIER_BUILD_DIR:-} ]]; then
    bin=$(cd "$COURIER_BUILD_DIR" && pwd)
else
    swift build "${build_flags[@]}" --product "$product"
    bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi
built=lib$product.so
[[ -f $bin/$built ]] || { echo "$0: $bin/$built was not built" >&2; exit 1; }
if [[ -n $static_runtime ]] && readelf -d "$bin/$built" | grep -q 'NEEDED.*libswiftCore'; then
    echo "$0: $bin/$built links the shared Swift runtime; an install needs a --static-runtime build" >&2
    exit 1
fi
# -lcourier finds libcourier.so; programs then record the SONAME, libcourier.so.1.
ln -sf "$built" "$bin/libcourier.so"
ln -sf "$built" "$bin/libcourier.so.1"

# The release version, asked of the library itself (which also proves that it loads).
probe_dir=$(mktemp -d "${TMPDIR:-/tmp}/courier-version.XXXXXX")
trap 'rm -rf "$probe_dir"' EXIT
printf '#include <courier.h>\n#include <stdio.h>\nint main(void) { puts(courier_version()); return 0; }\n' \
    >"$probe_dir/version.c"
cc -I"$repo/include" -o "$probe_dir/version" "$probe_dir/version.c" -L"$bin" -lcourier -Wl,-rpath,"$bin"
version=$("$probe_dir/version")

# write_pc FILE PREFIX_LINE INCLUDEDIR LIBDIR: a courier.pc for headers in INCLUDEDIR and the library in LIBDIR.
# Written aside and renamed, so a concurrent run (tests run several) never shows a half-written file.
write_pc() {
    mkdir -p "$(dirname "$1")"
    cat >"$1.$$" <<PC
$2
includedir=$3
libdir=$4

Name: courier
Description: Courier HTTP request pipeline, C API (libcourier.so.1)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lcourier
PC
    mv -f "$1.$$" "$1"
}

write_pc "$bin/pkgconfig/courier.pc" "" "$repo/include" "$bin"
echo "built $bin/$built ($version); pkg-config: PKG_CONFIG_PATH=$bin/pkgconfig"

if [[ -n $prefix ]]; then
    mkdir -p "$prefix/lib" "$prefix/include"
    prefix=$(cd "$prefix" && pwd)
    install -m 0755 "$bin/$built" "$prefix/lib/libcourier.so.1"
    strip --strip-unneeded "$prefix/lib/libcourier.so.1"
    ln -sf libcourier.so.1 "$prefix/lib/libcourier.so"
    install -m 0644 include/courier.h include/courier_plugin.h "$prefix/include/"
    write_pc "$prefix/lib/pkgconfig/courier.pc" "prefix=$prefix" "\${prefix}/include" "\${prefix}/lib"

    # The runtime is inside: no RUNPATH (SwiftPM's $ORIGIN has nothing to find).
    patchelf --remove-rpath "$prefix/lib/libcourier.so.1"
    glibc=$(objdump -T "$prefix/lib/libcourier.so.1" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
    echo "installed into $prefix ($(du -sh "$prefix" | cut -f1), the Swift runtime inside, needs $glibc);" \
        "pkg-config: PKG_CONFIG_PATH=$prefix/lib/pkgconfig"
fi
