from __future__ import annotations

import hashlib
import hmac

import pytest

import courier


def signature(key: bytes, method: str, path: str, body: bytes) -> str:
    return hmac.new(key, f"{method}\n{path}\n".encode() + body, hashlib.sha256).hexdigest()


def headers_of(response: courier.Response) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for name, value in response.json()["header_list"]:
        found.setdefault(name.lower(), []).append(value)
    return found


def test_hmac_signer_plugin(server, plugins) -> None:
    with courier.Client(base_url=server.url) as client:
        plugin = client.load_plugin(plugins / "hmac_signer.so", "secret-key")
        assert plugin.name == "hmac-signer"
        assert plugin.version
        response = client.post("/anything/signed", content=b"payload", params={"q": "1"})
        assert headers_of(response)["x-signature"] == [signature(b"secret-key", "POST", "/anything/signed", b"payload")]
        plugin.unload()
        assert "x-signature" not in headers_of(client.get("/anything"))
        with pytest.raises(courier.PluginError):
            plugin.unload()


def test_plugins_and_python_interceptors_share_one_chain(server, plugins) -> None:
    seen: list[str | None] = []

    class Before:
        def on_request(self, exchange):
            exchange.request.headers["X-Order"] = "python-first"
            seen.append(exchange.request.headers.get("X-Signature"))

    class After:
        def on_request(self, exchange):
            seen.append(exchange.request.headers.get("X-Signature"))

    with courier.Client(base_url=server.url, interceptors=[
        Before(), courier.Plugin(plugins / "hmac_signer.so", "k"), After(),
    ]) as client:
        response = client.get("/anything")
    assert seen[0] is None and seen[1] == signature(b"k", "GET", "/anything", b"")
    assert headers_of(response)["x-order"] == ["python-first"]


def test_memory_cache_plugin_answers_repeats(server, plugins) -> None:
    with courier.Client(base_url=server.url, plugins=[(plugins / "memory_cache.so", "10")]) as client:
        first = client.get("/anything?n=1")
        second = client.get("/anything?n=1")
    assert first.content == second.content
    assert first.status_code == second.status_code == 200


@pytest.mark.parametrize("name, config, fragment", [
    ("missing.so", None, ""),
    ("hmac_signer.c", None, ""),
    ("hmac_signer.so", None, ""),
    ("memory_cache.so", "not-a-number", "config"),
])
def test_plugin_load_errors(server, plugins, name, config, fragment) -> None:
    with courier.Client(base_url=server.url) as client:
        with pytest.raises(courier.PluginError) as caught:
            client.load_plugin(plugins / name, config)
        assert caught.value.code == 15
        assert fragment in str(caught.value)
        assert str(caught.value)
        assert client.get("/anything").status_code == 200


def test_plugin_load_error_in_constructor(server, plugins) -> None:
    with pytest.raises(courier.PluginError):
        courier.Client(base_url=server.url, plugins=[(plugins / "missing.so", None)])


def build_plugin(tmp_path, name: str, source: str):
    import subprocess

    from conftest import REPO

    (tmp_path / f"{name}.c").write_text(source)
    subprocess.run(["cc", "-shared", "-fPIC", "-I", str(REPO / "include"), "-o", str(tmp_path / f"{name}.so"),
                    str(tmp_path / f"{name}.c")], check=True, timeout=120)
    return tmp_path / f"{name}.so"


def test_plugin_abi_mismatch_and_missing_symbols(server, tmp_path) -> None:
    other_major = build_plugin(tmp_path, "other_major", """
        #include <courier_plugin.h>
        COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
            sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR + 1, 0, "future", "9.0.0" };
        COURIER_PLUGIN_EXPORT int courier_plugin_init(const courier_host_api *api, courier_registrar *registrar,
                const char *config, char *errbuf, size_t errbuf_len) {
            (void)api; (void)registrar; (void)config; (void)errbuf; (void)errbuf_len; return 0; }
    """)
    no_info = build_plugin(tmp_path, "no_info", "int courier_plugin_init(void) { return 0; }\n")
    no_init = build_plugin(tmp_path, "no_init", """
        #include <courier_plugin.h>
        COURIER_PLUGIN_EXPORT const courier_plugin_metadata courier_plugin_info = {
            sizeof(courier_plugin_metadata), COURIER_ABI_MAJOR, 0, "no-init", "1.0.0" };
    """)
    with courier.Client(base_url=server.url) as client:
        for path in (other_major, no_info, no_init):
            with pytest.raises(courier.PluginError) as caught:
                client.load_plugin(path)
            assert caught.value.code == 15 and str(caught.value)
        assert client.get("/anything").status_code == 200
