#!/bin/sh
# Uses Courier's Debian packages the way their users do, on a machine without Swift. Run by
# DebianPackageTests in a mount namespace of its own (`unshare -m`), so no mount is seen outside:
#
#   use-installed.sh ROOT TOOLCHAIN EMPTY WORK URL REPO SWIFT_PLUGIN
#
# ROOT holds the packages as `dpkg --root` installed them; its usr/ is laid over /usr. TOOLCHAIN
# (the Swift toolchain's directory) is hidden behind the empty directory EMPTY, so any library
# still sought there fails to load. Then, in WORK: builds the C example (REPO/Examples/c) and the
# hmac_signer C plugin with `pkg-config courier`, sends a request to URL through both and the
# Swift plugin SWIFT_PLUGIN, sends one with the installed `courier` tool, and one with the Python
# binding, pip-installed from REPO/bindings/python into a venv (with the system's python3-cffi),
# which finds the installed library as a user's would.
# Prints `ldd` of every binary, so the caller can check that nothing resolves into the toolchain.
set -eu
root=$1 toolchain=$2 empty=$3 work=$4 url=$5 repo=$6 swift_plugin=$7

mount -t overlay overlay -o "lowerdir=$root/usr:/usr" /usr
mount --bind "$empty" "$toolchain"
echo "toolchain entries: $(find "$toolchain" -mindepth 1 -maxdepth 1 | wc -l)"
libdir=$(pkg-config --variable=libdir courier)

cd "$work"
# shellcheck disable=SC2046 # pkg-config's flags are meant to be split.
cc -o app "$repo/Examples/c/courier_get.c" $(pkg-config --cflags --libs courier)
# shellcheck disable=SC2046
cc -shared -fPIC -o hmac_signer.so "$repo/Examples/plugins/hmac_signer.c" $(pkg-config --cflags courier) -lcrypto
ldd ./app "$libdir/libcourier.so.1" /usr/bin/courier "$swift_plugin"

echo "== C example"
./app -H 'X-From: c' -p ./hmac_signer.so=secret -p "$swift_plugin=installed" "$url/anything"
echo "== courier tool"
/usr/bin/courier --pretty none -p hb "$url/anything" X-From:cli
echo
echo "== Python binding"
python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --no-deps "$repo/bindings/python"
# No COURIER_LIBRARY: the binding finds the installed library through the system loader.
env -u COURIER_LIBRARY -u PYTHONPATH "$work/venv/bin/python" -c '
import sys, courier
with courier.Client() as client:
    response = client.get(sys.argv[1] + "/anything", headers={"X-From": "python"})
mapped = sorted({line.split()[-1] for line in open("/proc/self/maps")
                 if line.rstrip().endswith(("/libcourier.so.1", "/libswiftCore.so"))})
print("python loaded", courier.library_path, "HTTP", response.status_code)
print("mapped", *mapped)
print(response.text)
' "$url"
