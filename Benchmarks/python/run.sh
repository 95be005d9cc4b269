#!/usr/bin/env bash
# The Python comparison: courier.Client against requests, httpx, urllib3 and pycurl, sequential
# keep-alive GETs of nginx's 25-byte /small.json, and courier.AsyncClient against
# httpx.AsyncClient at 32 in flight. Release library; one run; a quiet machine.
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
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check requests httpx urllib3 pycurl \
    || "$venv/bin/python" -m pip install --quiet --disable-pip-version-check requests httpx urllib3
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./bindings/python
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check 'cffi>=1.15'

Benchmarks/scripts/nginx.sh start "$port" "$dir"
trap 'Benchmarks/scripts/nginx.sh stop "$port" "$dir"; rm -rf "$dir"' EXIT
COURIER_LIBRARY=$repo/.build/release/libcourier.so.1 \
    "$venv/bin/python" Benchmarks/python/bench.py "http://127.0.0.1:$port/small.json" "$seconds"
