#!/usr/bin/env bash
# Builds Courier's C library and a pkg-config file for it.
#
#   scripts/build-libcourier.sh [--with-async-http-client] [debug|release] [PREFIX]
#
# SwiftPM builds the library as the product CourierC, libCourierC.so (the product name
# `courier` is the command-line tool's); its SONAME is libcourier.so.1. It carries the core and
# libcurl's transport: what a C caller uses. --with-async-http-client builds and installs the
# variant with the AsyncHTTPClient transport as well (the product CourierCWithAsyncHTTPClient:
# the same ABI and SONAME, and SwiftNIO and BoringSSL inside, about 15 MB more); without it,
# COURIER_TRANSPORT_ASYNC_HTTP_CLIENT fails with COURIER_E_UNSUPPORTED, naming this option. Without PREFIX, the
# library stays in the build directory (.build/debug or .build/release), where this script adds
# libcourier.so.1 and libcourier.so pointing to it, and pkgconfig/courier.pc, whose flags compile
# against include/ and link with an rpath to the build directory, so programs run without
# LD_LIBRARY_PATH:
#
#   PKG_CONFIG_PATH=.build/debug/pkgconfig cc app.c $(pkg-config --cflags --libs courier)
#
# With PREFIX, it also installs, like `make install`:
#   PREFIX/lib/libcourier.so.1, PREFIX/lib/libcourier.so -> libcourier.so.1,
#   PREFIX/include/courier.h, PREFIX/include/courier_plugin.h, PREFIX/lib/pkgconfig/courier.pc,
#   PREFIX/lib/courier/: the Swift runtime libraries it needs (those `ldd` finds in the toolchain)
# and gives the installed libcourier.so.1 a RUNPATH of $ORIGIN/courier (and each runtime library
# $ORIGIN), so the installed tree runs wherever it is copied, on a machine with no Swift toolchain.
#
# In the build directory the library links the Swift runtime from the toolchain that built it
# (its RUNPATH names the toolchain's runtime directory).
# COURIER_BUILD_DIR=DIR skips `swift build` and uses the library already in DIR (the C tests
# use this from inside `swift test`, which has built it).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

product=CourierC
if [[ ${1:-} == --with-async-http-client ]]; then
    product=CourierCWithAsyncHTTPClient
    shift
fi
configuration=${1:-debug}
prefix=${2:-}
case $configuration in
    debug) build_flags=() ;;
    release) build_flags=(-c release) ;;
    *) echo "usage: $0 [--with-async-http-client] [debug|release] [PREFIX]" >&2; exit 2 ;;
esac

if [[ -n ${COURIER_BUILD_DIR:-} ]]; then
    bin=$(cd "$COURIER_BUILD_DIR" && pwd)
else
    swift build "${build_flags[@]}" --product "$product"
    bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi
built=lib$product.so
[[ -f $bin/$built ]] || { echo "$0: $bin/$built was not built" >&2; exit 1; }
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

    # The Swift runtime, privately: every library ldd resolves inside the toolchain's runtime
    # directories (the library's own RUNPATH entries), and nothing else.
    # shellcheck disable=SC2016 # a literal $ORIGIN
    runtime_dirs=$(readelf -d "$bin/$built" | sed -n 's/.*Library runpath: \[\(.*\)\]/\1/p' | tr ':' '\n' | grep -v '^\$ORIGIN' || true)
    [[ -n $runtime_dirs ]] || { echo "$0: $bin/$built names no toolchain runtime directory" >&2; exit 1; }
    private="$prefix/lib/courier"
    rm -rf "$private"
    mkdir -p "$private"
    ldd "$bin/$built" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
        while read -r dir; do
            if [[ $path == "$dir"/* ]]; then
                install -m 0755 "$(readlink -f "$path")" "$private/$name"
                strip --strip-unneeded "$private/$name"
                patchelf --set-rpath "\$ORIGIN" "$private/$name"
            fi
        done <<<"$runtime_dirs"
    done
    patchelf --set-rpath "\$ORIGIN/courier" "$prefix/lib/libcourier.so.1"
    glibc=$(objdump -T "$prefix/lib/libcourier.so.1" "$private"/*.so* | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
    echo "installed into $prefix ($(du -sh "$prefix" | cut -f1), the Swift runtime in lib/courier, needs $glibc);" \
        "pkg-config: PKG_CONFIG_PATH=$prefix/lib/pkgconfig"
fi
