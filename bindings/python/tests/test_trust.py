"""The CA store handed to the wheel's libcurl: the environment's, else the distribution's."""
from __future__ import annotations

from pathlib import Path

from courier._trust import system_ca_store


def test_ssl_cert_file_and_dir_win_when_the_environment_is_trusted(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle.pem"
    bundle.write_text("")
    environ = {"SSL_CERT_FILE": "/custom/ca.pem", "SSL_CERT_DIR": "/custom/certs"}
    assert system_ca_store(True, environ, files=[str(bundle)]) == ("/custom/ca.pem", "/custom/certs")
    assert system_ca_store(False, environ, files=[str(bundle)]) == (str(bundle), None)


def test_the_first_bundle_file_that_exists_is_used(tmp_path: Path) -> None:
    second = tmp_path / "second.pem"
    second.write_text("")
    files = [str(tmp_path / "missing.pem"), str(second)]
    assert system_ca_store(True, {}, files=files, directories=[str(tmp_path)]) == (str(second), None)


def test_a_certificate_directory_is_the_fallback_and_nothing_found_is_none(tmp_path: Path) -> None:
    assert system_ca_store(True, {}, files=[], directories=["/nonexistent", str(tmp_path)]) == (None, str(tmp_path))
    assert system_ca_store(True, {}, files=[], directories=["/nonexistent"]) == (None, None)


def test_the_bundled_library_gets_the_system_store_and_a_system_library_keeps_its_own(monkeypatch) -> None:
    from courier import _options
    from courier._courier_cffi import ffi
    from courier._lib import new_struct

    monkeypatch.setenv("SSL_CERT_FILE", "/custom/ca.pem")
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    arguments = dict(proxy=None, no_proxy=None, trust_env=True, verify=True, cert=None, http_version="auto",
                     min_tls_version=None, limits=None, decompress=True, cookie_file=None)
    for bundled, expected in ((True, b"/custom/ca.pem"), (False, None)):
        monkeypatch.setattr(_options, "is_bundled", bundled)
        options = new_struct("courier_client_options")
        kept = _options.apply(options, **arguments)
        assert (ffi.string(options.ca_file) if options.ca_file != ffi.NULL else None) == expected
        del kept
