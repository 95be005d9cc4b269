#!/usr/bin/env bash
# The Python comparison: courier.Client against requests, httpx, urllib3 and pycurl, sequential
# keep-alive GETs of nginx's 25-byte /small.json, and courier.AsyncClient against
# httpx.AsyncClient and aiohttp.ClientSession at 32 in flight. Release library; one run; a quiet machine; nginx and the
# client pinned to separate cores when there are two, as in Benchmarks/run.sh.
#
# pycurl is measured twice: the wheel (which bundles its own, newer libcurl) and a pycurl built
# from source against the system libcurl that Courier uses (needs libcurl4-openssl-dev and the
# Python headers; the row is skipped, with a note, when it cannot be built).
#
#   Benchmarks/python/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
seconds=${1:-3}
venv=$repo/.build/python-bench-venv
port=${NGINX_PORT:-18089}
dir=$(mktemp -d "${TMPDIR:-/tmp}/courier-pybench.XXXXXX")

scripts/build-libcourier.sh release >/dev/null
[[ -x $venv/bin/python ]] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check requests httpx urllib3 aiohttp pycurl \
    || "$venv/bin/python" -m pip install --quiet --disable-pip-version-check requests httpx urllib3 aiohttp
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./bindings/python
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'cffi>=1.15'
system_pycurl=$venv/system-pycurl
if [[ ! -d $system_pycurl ]] && ! "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --no-binary pycurl --target "$system_pycurl" pycurl >"$dir/system-pycurl.log" 2>&1; then
    rm -rf "$system_pycurl"
    echo "== no pycurl on the system libcurl (needs libcurl4-openssl-dev and Python headers):" >&2
    tail -3 "$dir/system-pycurl.log" >&2
fi

# The CPU the figures come from (they move with the host more than with the code: issue 48).
lscpu | grep -E '^(Model name|CPU\(s\)|Hypervisor vendor|Flags):' || true

server_cpu=0 client_cpu=0
if (( $(nproc) >= 2 )); then client_cpu=1; fi

taskset -c "$server_cpu" Benchmarks/scripts/nginx.sh start "$port" "$dir"
trap 'Benchmarks/scripts/nginx.sh stop "$port" "$dir"; rm -rf "$dir"' EXIT
COURIER_LIBRARY=$repo/.build/release/libcourier.so.1 SYSTEM_PYCURL=$system_pycurl \
    taskset -c "$client_cpu" "$venv/bin/python" Benchmarks/python/bench.py "http://127.0.0.1:$port/small.json" "$seconds"
