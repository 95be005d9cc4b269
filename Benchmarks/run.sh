#!/usr/bin/env bash
# Courier's HTTP benchmarks in one command (about 30 minutes on a 2-core machine once built):
#   1. builds the Benchmarks package (release), the C clients and the release C library;
#   2. starts a throwaway nginx on 127.0.0.1 (HTTP/1.1, and HTTP/2 over TLS on the next port)
#      pinned to CPU 0, every client pinned to CPU 1 (taskset), so they never share a core;
#   3. runs every row once per round, ROUNDS rounds interleaved (row A, B, C…, then again), so
#      slow drift of the machine hits every row alike, DURATION seconds per row;
#   4. runs the whole set again with a busy loop on the client's core (the "busy" pass): a design
#      with fewer thread handoffs loses less there;
#   5. the body-size pass: 0 B, 25 B, 16 KiB, 1 MiB and 64 MiB bodies at INFLIGHT in flight, in
#      MB/s, raw libcurl multi against the clients that keep the body (BODY_ROUNDS rounds);
#   6. the scale pass: 1, 32, 256, 1,024 and 10,000 in flight (SCALE_LADDER) against
#      c/hold_server.c, which answers every request HOLD_MS (200) ms after it arrived: CPU per
#      request, heap per request in flight, descriptors, latency above the hold, and what is left
#      after the client is freed (each client's BENCH_SCALE=1 mode: a warm-up cycle, then a measured
#      cycle on a new client; SCALE_SECONDS per rung, SCALE_ROUNDS rounds);
#   7. runs the in-memory pipeline suite (package-benchmark), the thread-hop probe, the memory check,
#      the footprint check (the installed C library's size, at most 20 MiB: scripts/footprint.sh)
#      and the Python comparison (python/run.sh: courier.Client and AsyncClient against requests,
#      httpx, pycurl and aiohttp);
#   8. records the async frames a send holds while it waits (scripts/async-frames.py);
#   9. prints, per pass, one table of medians with their spread, CPU time and allocations per
#      request, and the ratios to the baselines; then the issue's targets, met or missed.
# Usage: ./run.sh     environment: DURATION=3 ROUNDS=5 COUNT=1000000 PORT=18089 INTERCEPTORS=5 INFLIGHT=32
#        SKIP_BUSY=1, SKIP_BODIES=1, SKIP_SCALE=1, SKIP_PIPELINE=1, SKIP_MEMORY=1, SKIP_FOOTPRINT=1,
#        SKIP_PYTHON=1 skip steps 4 to 7;
#        SKIP_INSTRUCTIONS=1 skips the instruction counts (scripts/instructions.sh, about 2 minutes).
#        Results stay in .build/results/.
#        COMPARE_WITH=REV (a commit) also builds REV's Courier clients (scripts/compare-build.sh, kept in
#        .build/compare/) and runs each Courier row twice per round, this tree's and REV's back to back:
#        an A/B of two commits in one run, which two runs one after the other cannot give on a host
#        whose speed drifts; the pair's order flips every round, so neither build always runs first.
#        The summary adds a table of this tree against REV.
#        ROWS=REGEX runs only the rows whose key matches (an extended regex, e.g. '^(client|capi|courier-curl)').
set -euo pipefail
cd "$(dirname "$0")"

duration=${DURATION:-3}
rounds=${ROUNDS:-5}
count=${COUNT:-1000000}
port=${PORT:-18089}
interceptors=${INTERCEPTORS:-5}
inflight=${INFLIGHT:-32}
results=.build/results
bin=.build/release
mkdir -p "$results"
rm -rf "${results:?}"/*

cpus=$(nproc)
# The host, with every run: the same commit's ratios move from one kind of machine to another
# (issue 48), so the summary says which CPU, which flags and which clock source gave them.
{
    lscpu | grep -E '^(Model name|Vendor ID|CPU\(s\)|Thread\(s\) per core|Hypervisor vendor|L3 cache|Flags):' || true
    echo "Clock source: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo unknown)"
    echo "Kernel: $(uname -r)"
} >"$results/host.txt"
if ((cpus >= 2)); then
    server_cpu=0 client_cpu=1
else
    server_cpu=0 client_cpu=0
    echo "== only one CPU: server and client share it (the figures say less)" >&2
fi

for tool in wrk cc pkg-config taskset openssl valgrind objcopy; do
    command -v "$tool" >/dev/null || missing="${missing:-} $tool"
done
if [[ -n ${missing:-} ]] || ! pkg-config --exists libcurl; then
    echo "== installing wrk, libcurl4-openssl-dev, openssl and util-linux (taskset)" >&2
    sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk libcurl4-openssl-dev pkg-config openssl util-linux valgrind binutils >/dev/null
fi

echo "== building (release)"
swift build -c release >"$results/build.log" 2>&1 || { grep -E "error" "$results/build.log" | head -20; echo "build failed" >&2; exit 1; }
tail -1 "$results/build.log"
cflags=(-O2 -Wall -Wextra -Werror -pthread)
cc "${cflags[@]}" -shared -fPIC -o "$bin/libmalloc_count.so" c/malloc_count.c
cc "${cflags[@]}" -o "$bin/curl_easy_bench" c/curl_easy_bench.c $(pkg-config --cflags --libs libcurl)
cc "${cflags[@]}" -o "$bin/curl_client_bench" c/curl_client_bench.c $(pkg-config --cflags --libs libcurl)
echo "== building the C library (release)"
../scripts/build-libcourier.sh release >"$results/libcourier.log" 2>&1 || { grep -E "error" "$results/libcourier.log" | head -5; exit 1; }
for program in capi_bench capi_interceptor_bench; do
    cc "${cflags[@]}" -o "$bin/$program" "c/$program.c" \
        $(PKG_CONFIG_PATH=../.build/release/pkgconfig pkg-config --cflags --libs courier)
done
cc "${cflags[@]}" -o "$bin/hold_server" c/hold_server.c

compare=""
if [[ -n ${COMPARE_WITH:-} ]]; then
    echo "== building the Courier clients of $COMPARE_WITH (release), for the A/B rows"
    compare=$(scripts/compare-build.sh "$COMPARE_WITH" 2>"$results/compare-build.log") \
        || { tail -20 "$results/compare-build.log"; echo "building $COMPARE_WITH failed" >&2; exit 1; }
fi

while (echo >/dev/tcp/127.0.0.1/"$port") 2>/dev/null || (echo >/dev/tcp/127.0.0.1/$((port + 1))) 2>/dev/null; do
    port=$((port + 2))
done
tls_port=$((port + 1))
url="http://127.0.0.1:$port/small.json"
tls_url="https://127.0.0.1:$tls_port/small.json"
nginx_dir=$(mktemp -d "${TMPDIR:-/tmp}/courier-nginx.XXXXXX")
ca_file="$nginx_dir/tls/cert.pem"
busy_pid="" hold_pid=""
cleanup() {
    [[ -z $busy_pid ]] || kill "$busy_pid" 2>/dev/null || true
    [[ -z $hold_pid ]] || kill "$hold_pid" 2>/dev/null || true
    scripts/nginx.sh stop "$port" "$nginx_dir" >/dev/null || true
    rm -rf "$nginx_dir"
}
trap cleanup EXIT
NGINX_TLS_PORT=$tls_port taskset -c "$server_cpu" scripts/nginx.sh start "$port" "$nginx_dir"

# The rows: KEY|LABEL|COMMAND. Keys end in -1 (one in flight), -N (N in flight) or -h2 (N HTTP/2
# streams on one connection); summarize.py compares each with the baselines of its kind.
seq=(--url "$url" --count "$count" --seconds "$duration")
par=("${seq[@]}" --in-flight "$inflight")
h2=(--url "$tls_url" --count "$count" --seconds "$duration" --in-flight "$inflight" --http2 1 --ca-file "$ca_file")
rows=(
    "wrk-1|wrk -c1 -t1 (ceiling)|wrk -c1 -t1 -d${duration}s $url"
    "curl-1|raw libcurl, easy handle|$bin/curl_easy_bench easy $url $count $duration"
    "client-1|libcurl as a client does it (I/O thread, eventfd)|$bin/curl_client_bench $url $count $duration 1"
    "ahc-1|raw AsyncHTTPClient|$bin/ahc-bench ${seq[*]} --scenario ahc-1"
    "ahc-untraced-1|raw AsyncHTTPClient, no tracer|$bin/ahc-bench ${seq[*]} --no-tracer --scenario ahc-untraced-1"
    "capi-1|Courier C API, courier_client_send|$bin/capi_bench $url $count $duration 0"
    "capi-stamp-1|Courier C API, 1 header-setting C interceptor|$bin/capi_bench $url $count $duration 1"
    "courier-curl-1|Courier, curl transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport curl --interceptors $interceptors ${seq[*]} --scenario courier-curl-1"
    "courier-ahc-1|Courier, AHC transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport ahc --interceptors $interceptors ${seq[*]} --scenario courier-ahc-1"
    "urlsession-1|raw URLSession (FoundationNetworking)|$bin/urlsession-bench ${seq[*]} --scenario urlsession-1"
    "courier-urlsession-1|Courier, URLSession transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport urlsession --interceptors $interceptors ${seq[*]} --scenario courier-urlsession-1"
    "wrk-N|wrk -c$inflight -t2 (ceiling)|wrk -c$inflight -t2 -d${duration}s $url"
    "curl-N|raw libcurl, multi|$bin/curl_easy_bench multi $url $count $duration $inflight"
    "client-N|libcurl as a client does it (I/O thread, eventfd)|$bin/curl_client_bench $url $count $duration $inflight"
    "ahc-N|raw AsyncHTTPClient|$bin/ahc-bench ${par[*]} --scenario ahc-N"
    "ahc-untraced-N|raw AsyncHTTPClient, no tracer|$bin/ahc-bench ${par[*]} --no-tracer --scenario ahc-untraced-N"
    "capi-async-N|Courier C API, courier_client_send_async|$bin/capi_bench $url $count $duration 0 $inflight"
    "courier-curl-N|Courier, curl transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport curl --interceptors $interceptors ${par[*]} --scenario courier-curl-N"
    "courier-ahc-N|Courier, AHC transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport ahc --interceptors $interceptors ${par[*]} --scenario courier-ahc-N"
    "urlsession-N|raw URLSession (FoundationNetworking)|$bin/urlsession-bench ${par[*]} --scenario urlsession-N"
    "courier-urlsession-N|Courier, URLSession transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport urlsession --interceptors $interceptors ${par[*]} --scenario courier-urlsession-N"
    "curl-h2|raw libcurl, multi, CURLPIPE_MULTIPLEX|$bin/curl_easy_bench h2 $tls_url $count $duration $inflight $ca_file"
    "client-h2|libcurl as a client does it, HTTP/2 (I/O thread, eventfd)|$bin/curl_client_bench $tls_url $count $duration $inflight $ca_file"
    "courier-curl-h2|Courier, curl transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport curl --interceptors $interceptors ${h2[*]} --scenario courier-curl-h2"
)
if [[ -n $compare ]]; then
    # Each Courier row again with REV's binaries, right after this tree's: key KEY@REV, same kind.
    revision=$(basename "$compare")
    paired=()
    for row in "${rows[@]}"; do
        paired+=("$row")
        IFS='|' read -r key label command <<<"$row"
        [[ $key == capi-* || $key == courier-* ]] || continue
        command=${command/#$bin\/courier-http-bench/$compare/courier-http-bench}
        command=${command/#$bin\/capi_bench/env LD_LIBRARY_PATH=$compare/lib $compare/capi_bench}
        paired+=("${key%-*}@$revision-${key##*-}|$label, at $revision|$command")
    done
    rows=("${paired[@]}")
fi
if [[ -n ${ROWS:-} ]]; then
    chosen=()
    for row in "${rows[@]}"; do [[ ! ${row%%|*} =~ $ROWS ]] || chosen+=("$row"); done
    rows=("${chosen[@]}")
fi
printf '%s\n' "${rows[@]}" | cut -d'|' -f1,2 >"$results/rows.txt"

# run_pass NAME: every row once per round, ROUNDS rounds, each client pinned to the client CPU
# with the malloc counter preloaded; output in results/NAME/ROUND/KEY.txt (exit status in KEY.status).
run_pass() {
    local pass=$1
    for ((round = 1; round <= rounds; round++)); do
        mkdir -p "$results/$pass/$round"
        # In even rounds each A/B pair runs the other way round (KEY@REV first).
        local ordered=("${rows[@]}") index
        if ((round % 2 == 0)); then
            for ((index = 1; index < ${#ordered[@]}; index++)); do
                if [[ ${ordered[index]%%|*} == *@* ]]; then
                    local swapped=${ordered[index - 1]}
                    ordered[index - 1]=${ordered[index]}
                    ordered[index]=$swapped
                fi
            done
        fi
        for row in "${ordered[@]}"; do
            IFS='|' read -r key label command <<<"$row"
            local out="$results/$pass/$round/$key.txt" status=0
            # shellcheck disable=SC2086 # the command is a word list by design
            LD_PRELOAD="$PWD/$bin/libmalloc_count.so" timeout "${row_timeout:-$((duration * 3 + 30))}" taskset -c "$client_cpu" $command \
                >"$out" 2>&1 || status=$?
            echo "$status" >"$results/$pass/$round/$key.status"
            printf '== %s round %d/%d: %-16s %s\n' "$pass" "$round" "$rounds" "$key" \
                "$( ((status == 0)) && grep -E '^RESULT|^Requests/sec' "$out" | tail -1 || echo "failed (exit $status)")"
        done
    done
}

echo "== load before the run: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews every figure)"
run_pass quiet
if [[ -z ${SKIP_BUSY:-} ]]; then
    # A busy loop on the client's core: the client gets about half of it, and every thread
    # handoff may wait for the loop's time slice.
    taskset -c "$client_cpu" sh -c 'while :; do :; done' &
    busy_pid=$!
    run_pass busy
    kill "$busy_pid"; busy_pid=""
fi
# The body-size pass: the same clients at INFLIGHT in flight, each size a file nginx serves.
if [[ -z ${SKIP_BODIES:-} ]]; then
    base="http://127.0.0.1:$port"
    body_rows=()
    for size in 0 25 16k 1m 64m; do
        path=$([[ $size == 25 ]] && echo small.json || echo "$size.bin")
        body_rows+=(
            "body-$size-curl|raw libcurl, multi (body discarded)|$bin/curl_easy_bench multi $base/$path $count $duration $inflight"
            "body-$size-client|libcurl as a client does it (body kept)|$bin/curl_client_bench $base/$path $count $duration $inflight"
            "body-$size-capi|Courier C API, courier_client_send_async|$bin/capi_bench $base/$path $count $duration 0 $inflight"
            "body-$size-courier|Courier, curl transport, $interceptors no-op interceptors|$bin/courier-http-bench --transport curl --interceptors $interceptors --url $base/$path --count $count --seconds $duration --in-flight $inflight --scenario body-$size-courier"
        )
    done
    saved_rows=("${rows[@]}") saved_rounds=$rounds
    rows=("${body_rows[@]}") rounds=${BODY_ROUNDS:-3}
    printf '%s\n' "${rows[@]}" | cut -d'|' -f1,2 >"$results/body-rows.txt"
    run_pass bodies
    rows=("${saved_rows[@]}") rounds=$saved_rounds
fi

# The scale pass: the ladder of requests in flight against the holding server, on CPU 0 as nginx.
if [[ -z ${SKIP_SCALE:-} ]]; then
    hold_ms=${HOLD_MS:-200}
    hold_port=$((port + 2))
    while (echo >/dev/tcp/127.0.0.1/"$hold_port") 2>/dev/null; do hold_port=$((hold_port + 1)); done
    # 10,000 connections are 10,000 descriptors in the client and as many in the server.
    ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
    taskset -c "$server_cpu" "$bin/hold_server" "$hold_port" "$hold_ms" >"$results/hold-server.log" 2>&1 &
    hold_pid=$!
    for _ in $(seq 50); do grep -q listening "$results/hold-server.log" 2>/dev/null && break; sleep 0.1; done
    hold_url="http://127.0.0.1:$hold_port/held"
    scale_seconds=${SCALE_SECONDS:-5}
    scale_rows=()
    for n in ${SCALE_LADDER:-1 32 256 1024 10000}; do
        scale_rows+=(
            "scale-curl-$n|raw libcurl, multi|env BENCH_SCALE=1 $bin/curl_easy_bench multi $hold_url $count $scale_seconds $n"
            "scale-capi-$n|Courier C API, courier_client_send_async|env BENCH_SCALE=1 $bin/capi_bench $hold_url $count $scale_seconds 0 $n"
            "scale-courier-$n|Courier, curl transport, $interceptors no-op interceptors|env BENCH_SCALE=1 $bin/courier-http-bench --transport curl --interceptors $interceptors --url $hold_url --count $count --seconds $scale_seconds --in-flight $n --scenario scale-courier-$n"
            "scale-ahc-$n|raw AsyncHTTPClient|env BENCH_SCALE=1 $bin/ahc-bench --url $hold_url --count $count --seconds $scale_seconds --in-flight $n --scenario scale-ahc-$n"
        )
    done
    saved_rows=("${rows[@]}") saved_rounds=$rounds
    # A rung's row runs two cycles (c/bench_common.h says which): at 10,000 in flight each
    # cycle's warm-up and drain take tens of seconds, since libcurl's cost per request grows there.
    rows=("${scale_rows[@]}") rounds=${SCALE_ROUNDS:-3} row_timeout=${SCALE_ROW_TIMEOUT:-240}
    printf '%s\n' "${rows[@]}" | cut -d'|' -f1,2 >"$results/scale-rows.txt"
    echo "$hold_ms" >"$results/hold-ms.txt"
    run_pass scale
    rows=("${saved_rows[@]}") rounds=$saved_rounds row_timeout=""
    kill "$hold_pid" 2>/dev/null || true
    wait "$hold_pid" 2>/dev/null || true
    hold_pid=""
fi

# The functions a send waits in: the C send's, the pipeline's, the curl transport's, the built-in interceptors'.
async_frames_pattern='^(outcomeHandles|AsyncSendWorkers.work|SendOperation.run\(|Client.send\(_:interceptors|Client.stream|InterceptorChain.run|Next.callAsFunction|specialized static Client.followingRedirects|specialized static Client.send\(_:through|CurlTransport.send\(|withCancellationHandler<A>\(isolation|(specialized )?[A-Za-z]+Interceptor.intercept\(|CacheInterceptor.fetch|Response.collectingBody|ResponseBodyStream.collect)'
if [[ -z ${SKIP_INSTRUCTIONS:-} ]]; then
    echo "== instructions per request (callgrind; a count that does not move with the host)"
    scripts/instructions.sh "$url" "$bin" "$results" "$compare" >/dev/null \
        || echo "== instruction counts failed; see $results/instructions.txt" >&2
fi
# The async frames a send holds while it waits (a count the compiler, not the host, decides).
PATH=$(dirname "$(command -v swift)"):$PATH scripts/async-frames.py ../.build/release/libcourier.so.1 \
    "$async_frames_pattern" >"$results/frames.txt" 2>&1 || echo "== async frame sizes failed; see $results/frames.txt" >&2
cleanup
trap - EXIT

failures=0
if [[ -z ${SKIP_PIPELINE:-} ]]; then
    echo "== C interceptor crossings, in memory (a chain of 0/1/4/16 header-editing C interceptors and one that answers)"
    "$bin/capi_interceptor_bench" | tee "$results/capi-interceptors.txt" || failures=$((failures + 1))
    echo "== where a send runs (thread-hop probe)"
    "$bin/pipeline-threads" | tee "$results/pipeline-threads.txt"
    echo "== pipeline suite (package-benchmark, in memory; times and mallocs are per operation)"
    swift package benchmark run --target Pipeline --format markdown --path stdout --no-progress \
        >"$results/pipeline.md" 2>"$results/pipeline.err" || { failures=$((failures + 1)); tail -5 "$results/pipeline.err"; }
fi
if [[ -z ${SKIP_MEMORY:-} ]]; then
    echo "== memory: 1 GiB uploaded as a file, as a streamed multipart, and downloaded to a file (ceiling 64 MiB)"
    "$bin/memory-check" 1 | tee "$results/memory.txt" || failures=$((failures + 1))
fi

if [[ -z ${SKIP_FOOTPRINT:-} ]]; then
    echo "== footprint: the C library installed as docs/c.md says (target: at most 20 MiB, no Foundation, ICU or NIO)"
    scripts/footprint.sh | tee "$results/footprint.txt" || failures=$((failures + 1))
fi

if [[ -z ${SKIP_PYTHON:-} ]]; then
    echo "== Python: courier.Client and AsyncClient against requests, httpx, urllib3, pycurl and aiohttp"
    NGINX_PORT=$port python/run.sh "$duration" | tee "$results/python.md" || failures=$((failures + 1))
fi

python3 scripts/summarize.py "$results" --duration "$duration" --inflight "$inflight" | tee "$results/summary.md"
exit $((failures > 0))
