#!/usr/bin/env bash
# Courier's HTTP benchmarks in one command, in about three minutes on a 2-core machine:
#   1. builds the Benchmarks package (release) and the libcurl baseline;
#   2. starts a throwaway nginx on 127.0.0.1 serving a 25-byte /small.json;
#   3. runs each client for DURATION seconds (or COUNT requests): wrk ceilings, raw libcurl,
#      raw AsyncHTTPClient, and Courier over each transport that exists in this checkout;
#   4. runs the in-memory pipeline suite (package-benchmark) and the thread-hop probe;
#   5. stops nginx and prints one table: requests/s and the ratio to each baseline.
# Usage: ./run.sh                 environment: DURATION=5 COUNT=1000000 PORT=18089 INTERCEPTORS=5
#        SKIP_PIPELINE=1 skips step 4. Results are kept in .build/results/.
set -euo pipefail
cd "$(dirname "$0")"

duration=${DURATION:-5}
count=${COUNT:-1000000}
port=${PORT:-18089}
interceptors=${INTERCEPTORS:-5}
inflight=32
results=.build/results
bin=.build/release
mkdir -p "$results"
rm -f "$results"/*.txt

# Reads the p50 of each pipeline benchmark and prints the per-interceptor slope (least squares
# over the 0/1/4/16 chains) and the builder's cost against the direct initializer.
summarize_pipeline() {
    awk '
        /^### / { name = substr($0, 5) }
        /^\| Time \(wall clock\)/ { split($0, c, "|"); ns[name] = c[5] + 0 }
        /^\| Malloc \(total\)/ { split($0, c, "|"); mallocs[name] = c[5] + 0 }
        END {
            print ""
            print "## Pipeline, in memory (p50 per operation)"
            print ""
            print "| no-op interceptors | ns per send | mallocs per send |"
            print "|---:|---:|---:|"
            n = 0
            for (k = 0; k <= 16; k++) {
                key = "Client.send, " k " no-op interceptors"
                if (!(key in ns)) continue
                printf "| %d | %d | %d |\n", k, ns[key], mallocs[key]
                x[n] = k; t[n] = ns[key]; m[n] = mallocs[key]; n++
            }
            if (n >= 2) {
                for (i = 0; i < n; i++) { sx += x[i]; st += t[i]; sm += m[i]; sxx += x[i] * x[i]; sxt += x[i] * t[i]; sxm += x[i] * m[i] }
                d = n * sxx - sx * sx
                printf "\nPer no-op interceptor (slope over %d chains): %.0f ns, %.2f mallocs.\n", n, (n * sxt - sx * st) / d, (n * sxm - sx * sm) / d
            }
            dsl = "Login request, builder DSL"; direct = "Login request, direct init + JSONEncoder"
            if ((dsl in ns) && (direct in ns) && ns[direct] > 0)
                printf "Login request: builder %d ns / %d mallocs, direct init %d ns / %d mallocs: the builder costs %.1fx.\n", ns[dsl], mallocs[dsl], ns[direct], mallocs[direct], ns[dsl] / ns[direct]
        }' "$1"
}

for tool in wrk cc pkg-config; do
    command -v "$tool" >/dev/null || missing="${missing:-} $tool"
done
if [[ -n ${missing:-} ]] || ! pkg-config --exists libcurl; then
    echo "== installing wrk and libcurl4-openssl-dev" >&2
    sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk libcurl4-openssl-dev pkg-config >/dev/null
fi

echo "== building (release)"
swift build -c release >"$results/build.log" 2>&1 || { grep -E "error" "$results/build.log" | head -20; echo "build failed" >&2; exit 1; }
tail -1 "$results/build.log"
cc -O2 -Wall -Wextra -Werror -o "$bin/curl_easy_bench" c/curl_easy_bench.c $(pkg-config --cflags --libs libcurl)
# The C API rows use the release C library (libCourierC.so) of the Courier checkout (skipped when it has none).
capi_skip=""
if [[ -d ../Sources/CourierCAPI ]]; then
    echo "== building the C library (release)"
    if ../scripts/build-libcourier.sh release >"$results/libcourier.log" 2>&1; then
        for program in capi_bench capi_interceptor_bench; do
            cc -O2 -Wall -Wextra -Werror -o "$bin/$program" "c/$program.c" \
                $(PKG_CONFIG_PATH=../.build/release/pkgconfig pkg-config --cflags --libs courier)
        done
    else
        grep -E "error" "$results/libcourier.log" | head -5
        capi_skip="the C library did not build (see $results/libcourier.log)"
    fi
else
    capi_skip="this checkout has no C API (Sources/CourierCAPI)"
fi

while (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null; do port=$((port + 1)); done
url="http://127.0.0.1:$port/small.json"
nginx_dir=$(mktemp -d "${TMPDIR:-/tmp}/courier-nginx.XXXXXX")
stop_nginx() { scripts/nginx.sh stop "$port" "$nginx_dir" >/dev/null || true; rm -rf "$nginx_dir"; }
trap stop_nginx EXIT
scripts/nginx.sh start "$port" "$nginx_dir"
echo "== load before the run: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews every figure)"

# scenario KEY LABEL COMMAND...: runs one client, keeps its output, notes its requests/s or why it has none.
failures=0
scenario() {
    local key=$1 label=$2; shift 2
    echo "== $label"
    local status=0
    timeout $((duration * 3 + 30)) "$@" >"$results/$key.txt" 2>&1 || status=$?
    cat "$results/$key.txt"
    local rps=""
    if [[ $status -eq 0 ]]; then
        rps=$(sed -n 's/^RESULT .*rps=\([0-9.]*\).*/\1/p; s/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$results/$key.txt" | tail -1)
        rps=${rps%.*}
    fi
    if [[ -n $rps ]]; then
        echo "$key|$label|$rps" >>"$results/table.txt"
    elif [[ $status -eq 3 ]]; then
        echo "$key|$label|skipped: $(sed -n 's/^SKIP [^:]*: //p' "$results/$key.txt")" >>"$results/table.txt"
    else
        echo "$key|$label|failed (exit $status)" >>"$results/table.txt"
        failures=$((failures + 1))
    fi
}
: >"$results/table.txt"
load=(--url "$url" --count "$count" --seconds "$duration")
scenario wrk-1 "wrk -c1 -t1 (ceiling, 1 connection)" wrk -c1 -t1 -d"${duration}s" "$url"
scenario wrk-32 "wrk -c$inflight -t2 (ceiling, $inflight connections)" wrk -c"$inflight" -t2 -d"${duration}s" "$url"
scenario curl-1 "raw libcurl, easy handle, sequential" "$bin/curl_easy_bench" easy "$url" "$count" "$duration"
scenario curl-32 "raw libcurl, multi, $inflight in flight" "$bin/curl_easy_bench" multi "$url" "$count" "$duration" "$inflight"
scenario ahc-1 "raw AsyncHTTPClient, sequential" "$bin/ahc-bench" "${load[@]}" --scenario ahc-1
scenario ahc-32 "raw AsyncHTTPClient, $inflight in flight" "$bin/ahc-bench" "${load[@]}" --in-flight "$inflight" --scenario ahc-32
if [[ -z $capi_skip ]]; then
    scenario capi-1 "Courier C API (courier_client_send), sequential" "$bin/capi_bench" "$url" "$count" "$duration" 0
    scenario capi-stamp-1 "Courier C API, 1 header-editing C interceptor, sequential" \
        "$bin/capi_bench" "$url" "$count" "$duration" 1
else
    echo "capi-1|Courier C API (courier_client_send), sequential|skipped: $capi_skip" >>"$results/table.txt"
fi
for transport in curl ahc; do
    name=$([[ $transport == curl ]] && echo "curl" || echo "AHC")
    scenario "courier-$transport-1" "Courier ($name transport, $interceptors no-op interceptors), sequential" \
        "$bin/courier-http-bench" --transport "$transport" --interceptors "$interceptors" "${load[@]}" --scenario "courier-$transport-1"
    scenario "courier-$transport-32" "Courier ($name transport, $interceptors no-op interceptors), $inflight in flight" \
        "$bin/courier-http-bench" --transport "$transport" --interceptors "$interceptors" "${load[@]}" --in-flight "$inflight" \
        --scenario "courier-$transport-32"
done
stop_nginx
trap - EXIT

if [[ -z $capi_skip ]]; then
    echo "== C interceptor crossings, in memory (a chain of 0/1/4/16 header-editing C interceptors and one that answers)"
    "$bin/capi_interceptor_bench" | tee "$results/capi-interceptors.txt" || failures=$((failures + 1))
fi

if [[ -z ${SKIP_PIPELINE:-} ]]; then
    echo "== where a send runs (thread-hop probe)"
    "$bin/pipeline-threads" | tee "$results/pipeline-threads.txt"
    echo "== pipeline suite (package-benchmark, in memory; times and mallocs are per operation)"
    swift package benchmark run --target Pipeline --format markdown --path stdout --no-progress \
        >"$results/pipeline.md" 2>"$results/pipeline.err" || { failures=$((failures + 1)); tail -5 "$results/pipeline.err"; }
    sed -n '/^## Pipeline/,$p' "$results/pipeline.md"
    summarize_pipeline "$results/pipeline.md" | tee "$results/pipeline-summary.md"
fi

if [[ -z ${SKIP_MEMORY:-} ]]; then
    echo "== memory: 1 GiB uploaded as a file, as a streamed multipart, and downloaded to a file (ceiling 64 MiB)"
    "$bin/memory-check" 1 | tee "$results/memory.txt" || failures=$((failures + 1))
fi

# The table: each row against the baseline with the same concurrency (sequential rows against
# libcurl easy, AHC sequential and wrk -c1; in-flight rows against libcurl multi, AHC 32, wrk -c32).
rate() { awk -F'|' -v k="$1" '$1 == k && $3 ~ /^[0-9]+$/ { print $3 }' "$results/table.txt"; }
ratio() { [[ -n $1 && -n $2 && $2 -gt 0 ]] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }' || echo "—"; }
echo
echo "## HTTP on loopback: nginx /small.json (25 bytes), keep-alive, ${duration} s per row"
echo
echo "| scenario | requests/s | × raw libcurl | × raw AHC | × wrk |"
echo "|---|---:|---:|---:|---:|"
while IFS='|' read -r key label value; do
    suffix=${key##*-}
    if [[ $value =~ ^[0-9]+$ ]]; then
        echo "| $label | $value | $(ratio "$value" "$(rate "curl-$suffix")") | $(ratio "$value" "$(rate "ahc-$suffix")") | $(ratio "$value" "$(rate "wrk-$suffix")") |"
    else
        echo "| $label | $value | — | — | — |"
    fi
done <"$results/table.txt" | tee "$results/summary.md"
# One C interceptor crossing: the per-request time with one header-editing C interceptor minus without.
ns_per_request() { sed -n 's/^RESULT .*ns_per_request=\([0-9]*\).*/\1/p' "$results/$1.txt" 2>/dev/null | tail -1; }
plain=$(ns_per_request capi-1) stamped=$(ns_per_request capi-stamp-1)
if [[ -n $plain && -n $stamped ]]; then
    echo
    echo "C API: $plain ns per request; one header-editing C interceptor adds $((stamped - plain)) ns per crossing" \
        "(the difference of two ${duration} s rows: noise of a few hundred ns either way)." | tee -a "$results/summary.md"
fi
if [[ -s $results/capi-interceptors.txt ]]; then
    echo "C API in memory: $(grep '^c-interceptor crossing' "$results/capi-interceptors.txt")." | tee -a "$results/summary.md"
fi
exit $((failures > 0))
