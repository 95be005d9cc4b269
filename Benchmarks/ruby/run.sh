#!/usr/bin/env bash
# The Ruby comparison: Courier::Client against Net::HTTP (one persistent connection) and, when
# Debian's ruby-typhoeus is installed, Typhoeus (libcurl through Ethon), sequential keep-alive
# GETs of nginx's 25-byte /small.json. Release library; one run; a quiet machine; nginx and the
# client pinned to separate cores when there are two, as in Benchmarks/run.sh.
#
#   Benchmarks/ruby/run.sh [SECONDS]
#
# COURIER_LIBRARY=PATH measures that library instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
seconds=${1:-3}
port=${NGINX_PORT:-18190}
dir=$(mktemp -d "${TMPDIR:-/tmp}/courier-rbbench.XXXXXX")

if [[ -z ${COURIER_LIBRARY:-} ]]; then
    scripts/build-libcourier.sh release >/dev/null
    COURIER_LIBRARY=$repo/.build/release/libcourier.so.1
fi
export COURIER_LIBRARY

server_cpu=0 client_cpu=0
if (( $(nproc) >= 2 )); then client_cpu=1; fi

taskset -c "$server_cpu" Benchmarks/scripts/nginx.sh start "$port" "$dir"
trap 'Benchmarks/scripts/nginx.sh stop "$port" "$dir"; rm -rf "$dir"' EXIT
taskset -c "$client_cpu" ruby -I bindings/ruby/lib Benchmarks/ruby/bench.rb "http://127.0.0.1:$port/small.json" "$seconds"
