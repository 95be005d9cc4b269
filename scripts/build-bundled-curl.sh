#!/usr/bin/env bash
# Builds the libcurl that the Python wheel carries: this machine's Debian curl source (the version
# its libcurl4 comes from, with Debian's security fixes applied), configured for what Courier asks
# of curl and nothing more: HTTP and HTTPS over OpenSSL, HTTP/2 with nghttp2, proxies, and gzip,
# deflate, brotli and zstd decoding. Debian's own libcurl also links LDAP, Kerberos, RTMP, SSH,
# GnuTLS, libidn2 and libpsl, which would double the wheel; Courier uses none of them (its URLs
# name hosts in ASCII, Punycode for an internationalized one, and it keeps its own cookie jar).
#
#   scripts/build-bundled-curl.sh [DIR]
#
# Installs into DIR (.build/bundled-curl by default) and prints DIR/lib; a second run with the
# same source version does nothing. The source comes from `apt-get source` with source lists of its
# own (the system's apt configuration is left alone), so it needs Debian's archive, dpkg-dev, a C
# compiler and the -dev packages of OpenSSL, nghttp2, zlib, brotli and zstd (.ci/install installs
# them).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mkdir -p "${1:-.build/bundled-curl}" && cd "${1:-.build/bundled-curl}" && pwd)

version=$(dpkg-query -W -f '${source:Version}' libcurl4)
stamp=$out/built-from
if [[ -f $stamp && $(cat "$stamp") == "$version" && -e $out/lib/libcurl.so.4 ]]; then
    echo "$out/lib"
    exit 0
fi

work=$out/work
rm -rf "$work" "$out/lib" "$out/include"
mkdir -p "$work/lists/partial"
codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
cat > "$work/sources.list" <<EOF
deb-src http://deb.debian.org/debian $codename main
deb-src http://deb.debian.org/debian $codename-updates main
deb-src http://deb.debian.org/debian-security $codename-security main
EOF
apt=(apt-get -qq -o "Dir::Etc::SourceList=$work/sources.list" -o Dir::Etc::SourceParts=/nonexistent
     -o "Dir::State::Lists=$work/lists" -o Debug::NoDropPrivs=true -o APT::Sandbox::User=root)
"${apt[@]}" update >&2
# The source without Debian's patches: the series ends with the GnuTLS and NSS flavours' renames,
# which must not be applied, and three patches touch only configure.ac and Makefile.am, which this
# build does not regenerate. Every other patch (the security fixes among them) is applied below.
(cd "$work" && "${apt[@]}" source --download-only "curl=$version" >&2 \
    && dpkg-source --skip-patches -x curl_*.dsc source >/dev/null)
source=$work/source
while read -r patch _; do
    [[ -z $patch || $patch == \#* ]] && continue
    case $patch in
        90_gnutls.patch | 99_nss.patch) continue ;;
    esac
    if grep -q '^+++ ' "$source/debian/patches/$patch" \
        && ! grep '^+++ ' "$source/debian/patches/$patch" | grep -qvE '/(configure\.ac|Makefile\.am)([[:space:]]|$)'; then
        continue
    fi
    patch -s -p1 -d "$source" < "$source/debian/patches/$patch"
done < "$source/debian/patches/series"

(cd "$source" && ./configure -q --prefix="$out" --disable-static --enable-shared \
    --with-openssl --with-nghttp2 --with-zlib --with-brotli --with-zstd \
    --without-libpsl --without-libidn2 --without-librtmp --without-libssh2 --without-libssh \
    --without-gssapi --without-libgsasl --without-hyper --without-ngtcp2 --without-nghttp3 \
    --without-quiche --without-msh3 --disable-ldap --disable-ldaps --disable-rtsp --disable-dict \
    --disable-telnet --disable-tftp --disable-pop3 --disable-imap --disable-smb --disable-smtp \
    --disable-gopher --disable-mqtt --disable-manual --disable-ntlm-wb \
    --without-ca-bundle --without-ca-path --with-ca-fallback >&2
 make -s -j"$(nproc)" -C lib >&2 && make -s -C lib install >&2 && make -s -C include install >&2)
rm -rf "$work"
echo "$version" > "$stamp"
echo "$out/lib"
