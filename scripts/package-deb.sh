#!/usr/bin/env bash
# Builds Courier's Debian packages with dpkg-deb alone (no debhelper, no debian/ directory):
#
#   scripts/package-deb.sh [debug|release] [OUTDIR]
#
# writes into OUTDIR (default .build/deb), for this machine's architecture:
#   libcourier1_VERSION_ARCH.deb     /usr/lib/MULTIARCH/libcourier.so.1, with the Swift runtime
#                                    linked in (as scripts/build-libcourier.sh installs it);
#                                    shlibs and symbols files, an ldconfig trigger
#   libcourier-dev_VERSION_ARCH.deb  /usr/include/courier.h, courier_plugin.h, the CCourier module
#                                    map for Swift plugins (/usr/include/courier/module.modulemap),
#                                    /usr/lib/MULTIARCH/libcourier.so and pkgconfig/courier.pc
#   courier_VERSION_ARCH.deb         /usr/bin/courier and, in /usr/lib/MULTIARCH/courier-cli/ (its
#                                    RUNPATH), the Swift runtime it loads (Foundation and ICU too)
#
# then install them with `apt install ./libcourier1_*.deb ./libcourier-dev_*.deb ./courier_*.deb`.
# VERSION is the library's own (courier_version(), as build-libcourier.sh reads it), so a debug
# build makes packages of the same version as a release build: ship release ones.
# Depends: on Debian libraries (libc6, libcurl4…) are read by dpkg-shlibdeps (package dpkg-dev);
# the exported symbols must match abi/libcourier1.symbols, the symbols file, which lists each
# courier_* function with the version that introduced it (add new ones there when the ABI grows).
#
# COURIER_BUILD_DIR=DIR uses the `courier` tool already built in DIR instead of running `swift
# build`, and COURIER_LIBRARY_BUILD_DIR=DIR the library built with --static-runtime in DIR. COURIER_DEB_MAINTAINER sets the Maintainer: field (default: the author of
# the last commit). dpkg-deb compresses with xz; DPKG_DEB_COMPRESSOR_TYPE=none (or gzip) and
# DPKG_DEB_COMPRESSOR_LEVEL, which dpkg-deb reads itself, make it faster (the tests use none).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

configuration=${1:-debug}
outdir=${2:-.build/deb}
case $configuration in
    debug) build_flags=() ;;
    release) build_flags=(-c release) ;;
    *) echo "usage: $0 [debug|release] [OUTDIR]" >&2; exit 2 ;;
esac
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture patchelf; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is missing (bash .ci/install installs it)" >&2; exit 1; }
done

if [[ -n ${COURIER_BUILD_DIR:-} ]]; then
    bin=$(cd "$COURIER_BUILD_DIR" && pwd)
else
    swift build "${build_flags[@]}" --product courier
    bin=$(swift build "${build_flags[@]}" --show-bin-path)
fi
[[ -x $bin/courier ]] || { echo "$0: $bin/courier was not built" >&2; exit 1; }

arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=usr/lib/$multiarch
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/courier-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The relocatable install (the library with its runtime inside, the headers) is the source of
# every package.
stage=$work/stage
COURIER_BUILD_DIR=${COURIER_LIBRARY_BUILD_DIR:-} scripts/build-libcourier.sh "$configuration" "$stage" >"$work/install.log" \
    || { cat "$work/install.log" >&2; exit 1; }
version=$(PKG_CONFIG_PATH=$stage/lib/pkgconfig pkg-config --modversion courier)

lib=$work/libcourier1
dev=$work/libcourier-dev
cli=$work/courier
mkdir -p "$lib/DEBIAN" "$lib/$libdir" "$dev/DEBIAN" "$dev/$libdir/pkgconfig" "$dev/usr/include/courier" \
    "$cli/DEBIAN" "$cli/usr/bin"

cp -a "$stage/lib/libcourier.so.1" "$lib/$libdir/"
install -m 0755 "$bin/courier" "$cli/usr/bin/courier"
strip --strip-unneeded "$cli/usr/bin/courier"
# The tool carries the Swift runtime it loads in a private directory of its own: the library's
# runtime is inside the library (and FoundationEssentials only; the tool uses Foundation and ICU).
cli_private=$cli/$libdir/courier-cli
mkdir -p "$cli_private"
toolchain_dirs=$(readelf -d "$bin/courier" | sed -n 's/.*Library runpath: \[\(.*\)\]/\1/p' | tr ':' '\n' | grep -v '^\$ORIGIN' || true)
ldd "$bin/courier" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | while read -r name path; do
    while read -r dir; do
        if [[ -n $dir && $path == "$dir"/* ]]; then
            install -m 0755 "$(readlink -f "$path")" "$cli_private/$name"
            strip --strip-unneeded "$cli_private/$name"
            patchelf --set-rpath "\$ORIGIN" "$cli_private/$name"
        fi
    done <<<"$toolchain_dirs"
done
patchelf --set-rpath "\$ORIGIN/../lib/$multiarch/courier-cli" "$cli/usr/bin/courier"
missing=$(LD_LIBRARY_PATH=$cli_private ldd "$cli/usr/bin/courier" | awk '$3 == "not" { print $1 }')
[[ -z $missing ]] || { echo "$0: the courier tool needs runtime libraries its package lacks: $missing" >&2; exit 1; }
# The manual page (docs/courier.1, from scripts/generate-manual) and the shell completions argument-parser writes.
install -D -m 0644 docs/courier.1 "$cli/usr/share/man/man1/courier.1"
gzip -9n "$cli/usr/share/man/man1/courier.1"
mkdir -p "$cli/usr/share/bash-completion/completions" "$cli/usr/share/zsh/vendor-completions" "$cli/usr/share/fish/vendor_completions.d"
for shell in bash zsh fish; do
    case $shell in
        bash) target=$cli/usr/share/bash-completion/completions/courier ;;
        zsh) target=$cli/usr/share/zsh/vendor-completions/_courier ;;
        fish) target=$cli/usr/share/fish/vendor_completions.d/courier.fish ;;
    esac
    LD_LIBRARY_PATH=$cli_private "$cli/usr/bin/courier" --generate-completion-script $shell >"$target"
    chmod 0644 "$target"
done

install -m 0644 include/courier.h include/courier_plugin.h "$dev/usr/include/"
# Headers are one directory up from this map, so `swiftc -I /usr/include/courier` finds CCourier.
sed 's|header "|header "../|' include/module.modulemap >"$dev/usr/include/courier/module.modulemap"
ln -s libcourier.so.1 "$dev/$libdir/libcourier.so"
# No rpath: /usr/lib/MULTIARCH is where the dynamic loader looks anyway.
cat >"$dev/$libdir/pkgconfig/courier.pc" <<PC
prefix=/usr
includedir=\${prefix}/include
libdir=\${prefix}/lib/$multiarch

Name: courier
Description: Courier HTTP request pipeline, C API (libcourier.so.1)
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lcourier
PC

# The library's exports against the committed symbols file: a function missing from the file
# (new, so it needs the version that adds it) or from the library (an ABI break) stops the build.
exported=$(nm -D --defined-only --with-symbol-versions "$lib/$libdir/libcourier.so.1" \
    | awk '$3 ~ /^courier_/ { sub(/@@/, "@", $3); print $3 } $3 ~ /^COURIER_[0-9.]+$/ { print $3 "@" $3 }' | sort)
listed=$(awk '/^ / { print $1 }' abi/libcourier1.symbols | sort)
if [[ $exported != "$listed" ]]; then
    echo "$0: libcourier.so.1's exports differ from abi/libcourier1.symbols (< library, > file):" >&2
    diff <(echo "$exported") <(echo "$listed") >&2 || true
    exit 1
fi
install -m 0644 abi/libcourier1.symbols "$lib/DEBIAN/symbols"
echo "libcourier 1 libcourier1 (>= $version)" >"$lib/DEBIAN/shlibs"
echo "activate-noawait ldconfig" >"$lib/DEBIAN/triggers"

# dpkg-shlibdeps reads debian/control from its working directory and the DEBIAN/ directories of
# the package trees; runtime libraries in a private directory need no dependency information.
mkdir -p "$work/shlibdeps/debian"
printf 'Source: courier\n\nPackage: libcourier1\nArchitecture: any\n' >"$work/shlibdeps/debian/control"
# shlibdeps FILE…: the Depends: value for FILEs.
shlibdeps() {
    (cd "$work/shlibdeps" && dpkg-shlibdeps -O -l"$cli_private" "$@" 2>"$work/shlibdeps.log") \
        | sed -n 's/^shlibs:Depends=//p' \
        || { cat "$work/shlibdeps.log" >&2; exit 1; }
}
lib_depends=$(shlibdeps "$lib/$libdir/libcourier.so.1")
cli_depends=$(shlibdeps "$cli/usr/bin/courier" $(ls "$cli_private"/*.so* 2>/dev/null))
[[ -n $lib_depends && -n $cli_depends ]] || { cat "$work/shlibdeps.log" >&2; exit 1; }

swift_version=$(swiftc --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -n 1 || true)
maintainer=${COURIER_DEB_MAINTAINER:-$(git -C "$repo" log -1 --format='%an <%ae>' 2>/dev/null || true)}
[[ -n $maintainer ]] || maintainer="Courier maintainers <courier@localhost>"
# control PACKAGE_DIR SECTION DEPENDS DESCRIPTION: writes PACKAGE_DIR/DEBIAN/control.
control() {
    local size
    size=$(du -sk --exclude=DEBIAN "$1" | cut -f1)
    cat >"$1/DEBIAN/control" <<CONTROL
Package: $(basename "$1")
Version: $version
Architecture: $arch
Section: $2
Priority: optional
Maintainer: $maintainer
Installed-Size: $size
Depends: $3
Multi-Arch: $([[ $1 == "$cli" ]] && echo foreign || echo same)
Description: $4
CONTROL
}
control "$lib" libs "$lib_depends" "HTTP request pipeline, C library
 Courier sends HTTP requests through an ordered chain of interceptors on libcurl. This is the
 C library, libcourier.so.1, with the Swift runtime (Swift ${swift_version:-(unknown)}) linked in,
 so it runs without a Swift toolchain and beside other Swift code of any version."
control "$dev" libdevel "libcourier1 (= $version)" "HTTP request pipeline, C development files
 Headers (courier.h, courier_plugin.h), pkg-config file and the unversioned libcourier.so link
 for building programs and interceptor plugins against libcourier."
control "$cli" web "$cli_depends" "HTTP request pipeline, command-line tool
 courier sends one request through Courier's pipeline, in the style of HTTPie, and serves the
 project's loopback test server (courier serve). It carries the Swift runtime it loads in a
 private directory."

for package in "$lib" "$dev" "$cli"; do
    name=$(basename "$package")
    (cd "$package" && find usr -type f -exec md5sum {} + >DEBIAN/md5sums)
    dpkg-deb --root-owner-group --build "$package" "$outdir/${name}_${version}_$arch.deb" >/dev/null
    echo "$outdir/${name}_${version}_$arch.deb ($(du -h "$outdir/${name}_${version}_$arch.deb" | cut -f1))"
done
