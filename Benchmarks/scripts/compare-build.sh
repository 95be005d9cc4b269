#!/usr/bin/env bash
# Builds the Courier clients of another commit for run.sh's A/B rows (COMPARE_WITH=REV) and
# prints the directory that holds them: .build/compare/SHORT/ with courier-http-bench,
# capi_bench and lib/libcourier.so.1 (capi_bench runs with LD_LIBRARY_PATH=lib, which wins over
# its RUNPATH). A directory whose `complete` marker exists is reused as it is.
#
#   scripts/compare-build.sh REV
set -euo pipefail
cd "$(dirname "$0")/.."
revision=$(git rev-parse --short "${1:?usage: compare-build.sh REV}")
out="$PWD/.build/compare/$revision"
if [[ -f $out/complete ]]; then
    echo "$out"
    exit 0
fi
rm -rf "$out"
mkdir -p "$out/src" "$out/lib"
# The commit's files, not a worktree: nothing to clean up in the repository afterwards.
git -C .. archive "$revision" | tar -x -C "$out/src"
(cd "$out/src/Benchmarks" && swift build -c release --product courier-http-bench >&2)
(cd "$out/src" && scripts/build-libcourier.sh release >&2)
cp "$out/src/Benchmarks/.build/release/courier-http-bench" "$out/"
cp "$out/src/.build/release/libCourierC.so" "$out/lib/libcourier.so.1"
cc -O2 -Wall -Wextra -Werror -pthread -o "$out/capi_bench" "$out/src/Benchmarks/c/capi_bench.c" \
    $(PKG_CONFIG_PATH="$out/src/.build/release/pkgconfig" pkg-config --cflags --libs courier)
rm -rf "$out/src"
touch "$out/complete"
echo "$out"
