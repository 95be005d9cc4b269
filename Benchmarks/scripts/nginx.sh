#!/usr/bin/env bash
# Starts or stops a throwaway nginx serving /small.json (25 bytes) on 127.0.0.1:PORT, as the
# current user, and /0.bin, /16k.bin, /1m.bin and /64m.bin for the body-size rows.
#
#   scripts/nginx.sh start PORT DIR   DIR becomes nginx's prefix: config, pid, error log, temp files
#   scripts/nginx.sh stop  PORT DIR   stops the nginx whose pid is in DIR, and only that one
#
# One worker process (NGINX_WORKERS overrides it): on a 2-core machine the other core is left to
# the client being measured. Keep-alive with keepalive_requests 1000000, access_log off,
# open_file_cache on, so every client is measured against the same cheap responder.
# With NGINX_TLS_PORT set it also listens there with TLS and HTTP/2, on a throwaway self-signed
# certificate for 127.0.0.1 made with openssl; clients trust DIR/tls/cert.pem (their CA file).
# Installs nginx-light with apt-get when nginx is missing.
set -euo pipefail

usage() { echo "usage: $0 start|stop PORT DIR" >&2; exit 2; }
[[ $# -eq 3 ]] || usage
action=$1 port=$2 dir=$3
[[ $port =~ ^[0-9]+$ ]] && (( port > 0 && port < 65536 )) || usage
workers=${NGINX_WORKERS:-1}
tls_port=${NGINX_TLS_PORT:-}
pidfile="$dir/nginx.pid"

start() {
    if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
        echo "nginx: installing nginx-light" >&2
        local sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nginx-light >/dev/null
    fi
    local nginx; nginx=$(command -v nginx || echo /usr/sbin/nginx)
    mkdir -p "$dir/html" "$dir/logs" "$dir/tmp"
    printf '{"ok":true,"id":42,"n":7}' >"$dir/html/small.json"
    # The body-size rows' files (run.sh's body pass): empty, 16 KiB, 1 MiB and 64 MiB of zeros.
    : >"$dir/html/0.bin"
    head -c 16384 /dev/zero >"$dir/html/16k.bin"
    head -c 1048576 /dev/zero >"$dir/html/1m.bin"
    head -c 67108864 /dev/zero >"$dir/html/64m.bin"
    local tls_server=""
    if [[ -n $tls_port ]]; then
        mkdir -p "$dir/tls"
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=127.0.0.1 \
            -addext subjectAltName=IP:127.0.0.1 -keyout "$dir/tls/key.pem" -out "$dir/tls/cert.pem" 2>/dev/null
        tls_server="server {
        listen 127.0.0.1:$tls_port ssl http2 reuseport;
        ssl_certificate $dir/tls/cert.pem;
        ssl_certificate_key $dir/tls/key.pem;
        http2_max_concurrent_streams 256;
        root $dir/html;
        location = /small.json { }
    }"
    fi
    # As root the workers would drop to nobody, who cannot read a private temp dir: keep our user.
    local user_line=""
    [[ $(id -u) -eq 0 ]] && user_line="user $(id -un) $(id -gn);"
    cat >"$dir/nginx.conf" <<CONF
$user_line
worker_processes $workers;
pid $pidfile;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    keepalive_timeout 75s;
    keepalive_requests 1000000;
    open_file_cache max=16;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    server {
        listen 127.0.0.1:$port reuseport;
        root $dir/html;
        location = /small.json { }
        # The body-size files, sent with sendfile(2); /small.json keeps the path every other
        # row has always measured.
        location / { sendfile on; }
    }
    $tls_server
}
CONF
    "$nginx" -p "$dir" -e "$dir/logs/error.log" -c "$dir/nginx.conf"
    for _ in $(seq 50); do
        if curl -fsS -o /dev/null "http://127.0.0.1:$port/small.json" 2>/dev/null; then
            echo "nginx: serving http://127.0.0.1:$port/small.json ($workers worker), pid $(cat "$pidfile")"
            [[ -z $tls_port ]] || echo "nginx: and https://127.0.0.1:$tls_port/small.json over HTTP/2 (CA file $dir/tls/cert.pem)"
            return
        fi
        sleep 0.1
    done
    echo "nginx: did not answer on 127.0.0.1:$port; see $dir/logs/error.log" >&2
    stop
    exit 1
}

stop() {
    [[ -s $pidfile ]] || { echo "nginx: no pid file in $dir, nothing to stop"; return; }
    local pid; pid=$(cat "$pidfile")
    kill -QUIT "$pid" 2>/dev/null || true
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || { echo "nginx: stopped (pid $pid)"; return; }
        sleep 0.1
    done
    kill -TERM "$pid" 2>/dev/null || true
    echo "nginx: sent TERM to pid $pid after 5 s"
}

case $action in
    start) start ;;
    stop) stop ;;
    *) usage ;;
esac
