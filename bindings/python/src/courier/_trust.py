"""The system's CA store, for the wheel's libcurl, which was built knowing none.

Debian's libcurl is compiled with Debian's CA bundle path; the libcurl the wheel carries runs on
any distribution, so the binding hands it this machine's store, as Go's crypto/x509 and
OpenSSL-based wheels find it: SSL_CERT_FILE or SSL_CERT_DIR when the environment is trusted, else
the first bundle file the distribution ships, else its certificate directory.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

#: CA bundle files, in the order Go's crypto/x509 tries them.
BUNDLE_FILES = (
    "/etc/ssl/certs/ca-certificates.crt",  # Debian, Ubuntu, Gentoo, Arch
    "/etc/pki/tls/certs/ca-bundle.crt",  # Fedora, RHEL 6
    "/etc/ssl/ca-bundle.pem",  # openSUSE
    "/etc/pki/tls/cacert.pem",  # OpenELEC
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  # CentOS, RHEL 7
    "/etc/ssl/cert.pem",  # Alpine
)
#: Hashed certificate directories, tried when no bundle file exists.
BUNDLE_DIRECTORIES = ("/etc/ssl/certs", "/etc/pki/tls/certs")


def system_ca_store(trust_env: bool, environ: Mapping[str, str] = os.environ,
                    files: Sequence[str] = BUNDLE_FILES,
                    directories: Sequence[str] = BUNDLE_DIRECTORIES) -> tuple[str | None, str | None]:
    """(ca_file, ca_directory) for this machine; (None, None) when it has no store to find."""
    if trust_env:
        file, directory = environ.get("SSL_CERT_FILE"), environ.get("SSL_CERT_DIR")
        if file or directory:
            return file or None, directory or None
    for file in files:
        if os.path.isfile(file):
            return file, None
    for directory in directories:
        if os.path.isdir(directory):
            return None, directory
    return None, None
