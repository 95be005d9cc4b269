#!/usr/bin/env bash
# Instructions per request, counted by callgrind: a figure that does not move with the host.
#
# Requests per second move with the machine (issue 48: the same commit's ratios differ by 15–20%
# from one host to another) and with whatever else runs on it; the instructions a request executes
# do not. Each C row runs twice under callgrind, with SMALL and LARGE requests, and the difference
# divided by LARGE − SMALL is the cost of one request without the program's start and end.
#
# Usage: scripts/instructions.sh URL BIN RESULTS [COMPARE_DIR]
#   BIN holds curl_client_bench and capi_bench (run.sh's release builds); the C library is the one
#   capi_bench links (run.sh's LD_LIBRARY_PATH-free build), or COMPARE_DIR/lib's for the A/B rows.
# Output: RESULTS/instructions.txt, one "KEY|LABEL|INSTRUCTIONS" line per row.
#
# The C library is copied without its debug information first: valgrind 3.19 (Debian 12) cannot
# read the DWARF 5 that Swift 6 writes. The Swift rows run instruction-probe, not
# courier-http-bench (valgrind stops with an internal error on the latter), and only for this tree:
# an older commit has no probe.
set -euo pipefail

url=$1 bin=$2 results=$3 compare=${4:-}
inflight=${INFLIGHT:-32}
small=${SMALL:-1000} large=${LARGE:-4000}
work=$(mktemp -d "${TMPDIR:-/tmp}/courier-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The library capi_bench loads, found as the loader finds it, copied without debug information.
strip_library() {
    local program=$1 into=$2
    local library
    library=$(LD_LIBRARY_PATH=${3:-} ldd "$program" | awk '/libcourier\.so/ { print $3 }')
    mkdir -p "$into"
    objcopy --strip-debug "$library" "$into/libcourier.so.1"
}

# count LIBDIR PROGRAM ARGS...: instructions per request (ARGS has @COUNT@ where the count goes).
count() {
    local libdir=$1 program=$2
    shift 2
    local totals=()
    for requests in "$small" "$large"; do
        local args=("${@//@COUNT@/$requests}")
        LD_LIBRARY_PATH=$libdir valgrind --tool=callgrind --callgrind-out-file="$work/out" \
            "$program" "${args[@]}" >"$work/log" 2>&1 || { tail -5 "$work/log" >&2; echo "?"; return; }
        totals+=("$(awk '/Collected :/ { print $4 }' "$work/log")")
    done
    echo $(((totals[1] - totals[0]) / (large - small)))
}

strip_library "$bin/capi_bench" "$work/lib"
rows=(
    "client-1|libcurl as a client does it (I/O thread, eventfd)|$bin/curl_client_bench $url @COUNT@ 600 1"
    "capi-1|Courier C API, courier_client_send|$bin/capi_bench $url @COUNT@ 600 0"
    "capi-stamp-1|Courier C API, 1 header-setting C interceptor|$bin/capi_bench $url @COUNT@ 600 1"
    "client-N|libcurl as a client does it (I/O thread, eventfd)|$bin/curl_client_bench $url @COUNT@ 600 $inflight"
    "capi-async-N|Courier C API, courier_client_send_async|$bin/capi_bench $url @COUNT@ 600 0 $inflight"
)
# The Swift rows through instruction-probe (courier-http-bench cannot run under valgrind: see the
# probe's comment), without its debug information for the same reason as the library's.
if [[ -x $bin/instruction-probe ]]; then
    objcopy --strip-debug "$bin/instruction-probe" "$work/instruction-probe"
    rows+=(
        "courier-curl-1|Courier, curl transport, 5 no-op interceptors|$work/instruction-probe $url @COUNT@ 1 5"
        "courier-curl-N|Courier, curl transport, 5 no-op interceptors|$work/instruction-probe $url @COUNT@ $inflight 5"
    )
fi
: >"$results/instructions.txt"
for row in "${rows[@]}"; do
    IFS='|' read -r key label command <<<"$row"
    # shellcheck disable=SC2086 # the command is a word list by design
    figure=$(count "$work/lib" $command)
    echo "$key|$label|$figure" | tee -a "$results/instructions.txt"
    if [[ -n $compare && $key == capi* ]]; then
        revision=$(basename "$compare")
        [[ -d $work/compare-lib ]] || strip_library "$compare/capi_bench" "$work/compare-lib" "$compare/lib"
        # shellcheck disable=SC2086
        figure=$(count "$work/compare-lib" ${command/#$bin\/capi_bench/$compare/capi_bench})
        echo "${key%-*}@$revision-${key##*-}|$label, at $revision|$figure" | tee -a "$results/instructions.txt"
    fi
done
