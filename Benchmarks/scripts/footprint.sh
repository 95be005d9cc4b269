#!/usr/bin/env bash
# The C library's installed footprint: installs the release library as docs/c.md says
# (scripts/build-libcourier.sh release PREFIX) into a scratch prefix, prints the tree's size, the
# library's (and a private runtime directory's, if an install has one), and what the library
# links, and fails when the tree is larger than the target or links a Swift library, full
# Foundation, ICU or SwiftNIO (issue #40: the runtime is linked into the library).
#
#   Benchmarks/scripts/footprint.sh [PREFIX]     environment: FOOTPRINT_LIMIT_MIB=20
#
# Sizes are `du` sizes in MiB (what `du -sh PREFIX` prints), of the tree with its symbolic link
# and pkg-config file. Without PREFIX the tree goes to a temporary directory, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
limit=${FOOTPRINT_LIMIT_MIB:-20}
prefix=${1:-}
if [[ -z $prefix ]]; then
    prefix=$(mktemp -d "${TMPDIR:-/tmp}/courier-footprint.XXXXXX")
    trap 'rm -rf "$prefix"' EXIT
fi

scripts/build-libcourier.sh release "$prefix" >/dev/null

mib() { awk -v bytes="$1" 'BEGIN { printf "%.1f", bytes / 1048576 }'; }
tree=$(du -sb "$prefix" | cut -f1)
library=$(stat -L -c %s "$prefix/lib/libcourier.so.1")
runtime=0
[[ ! -d $prefix/lib/courier ]] || runtime=$(du -sb "$prefix/lib/courier" | cut -f1)
echo "installed tree: $(mib "$tree") MiB (du -sh: $(du -sh "$prefix" | cut -f1)); libcourier.so.1: $(mib "$library") MiB; private runtime: $(mib "$runtime") MiB"
linked=$(ldd "$prefix/lib/libcourier.so.1")
echo "$linked" | awk '/=>/ { print "  " $1 }' | sort | tr '\n' ' '
echo

status=0
if heavy=$(echo "$linked" | grep -E 'libswift|libFoundation|libdispatch|ICU|NIO'); then
    echo "footprint: the library links what it should not:" >&2
    echo "$heavy" >&2
    status=1
fi
if ((tree > limit * 1048576)); then
    echo "footprint: the installed tree is $(mib "$tree") MiB, over the ${limit} MiB target" >&2
    status=1
else
    echo "footprint: within the ${limit} MiB target"
fi
exit $status
