"""A client keeps cookies as requests.Session and httpx.Client do, and `client.cookies` is its jar."""
from __future__ import annotations

import asyncio
import http.cookiejar

import pytest

import courier
from conftest import Server


def test_a_cookie_a_server_sets_is_sent_with_the_next_request(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        first = client.get("/cookies/set?flavour=oat")
        assert first.json() == {"cookies": {"flavour": "oat"}}  # through the redirect it set it on
        assert client.get("/cookies").json() == {"cookies": {"flavour": "oat"}}
        assert client.cookies["flavour"] == "oat"
        assert dict(client.cookies) == {"flavour": "oat"}


def test_cookies_given_at_construction_and_per_request_are_sent(server: Server) -> None:
    with courier.Client(base_url=server.url, cookies={"session": "abc"}) as client:
        assert client.get("/cookies").json() == {"cookies": {"session": "abc"}}
        sent = client.get("/cookies", cookies={"extra": "1"}).json()["cookies"]
        assert sent == {"session": "abc", "extra": "1"}
        assert client.get("/cookies").json() == {"cookies": {"session": "abc"}}


def test_client_cookies_can_be_set_deleted_cleared_and_replaced(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        client.cookies.set("theme", "dark", domain="127.0.0.1")
        client.cookies["anywhere"] = "yes"
        assert client.get("/cookies").json() == {"cookies": {"theme": "dark", "anywhere": "yes"}}
        assert client.cookies.get("theme", domain="127.0.0.1") == "dark"
        del client.cookies["theme"]
        assert client.get("/cookies").json() == {"cookies": {"anywhere": "yes"}}
        client.cookies = {"only": "this"}
        assert dict(client.cookies) == {"only": "this"}
        client.cookies.clear()
        assert not client.cookies
        assert client.get("/cookies").json() == {"cookies": {}}


def test_the_jar_is_an_http_cookiejar_with_the_servers_attributes(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        client.get("/cookies/set?k=v")
        jar = client.cookies.jar
        assert isinstance(jar, http.cookiejar.CookieJar)
        [cookie] = list(jar)
        assert (cookie.name, cookie.value, cookie.domain, cookie.path) == ("k", "v", "127.0.0.1", "/")


def test_a_cookie_holding_a_control_character_is_refused_and_nothing_is_stored(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        with pytest.raises(courier.InvalidRequest):
            client.cookies.set("bad", "a\r\nInjected: 1", domain="127.0.0.1")
        with pytest.raises(courier.InvalidRequest):
            client.cookies.set("semi", "a;b", domain="127.0.0.1")
        assert not client.cookies


def test_a_name_held_for_two_domains_is_a_conflict_unless_the_domain_is_given() -> None:
    cookies = courier.Cookies()
    cookies.set("id", "1", domain="a.example")
    cookies.set("id", "2", domain="b.example")
    with pytest.raises(courier.CookieConflict):
        cookies.get("id")
    assert cookies.get("id", domain="b.example") == "2"
    assert len(cookies) == 2


def test_the_async_client_keeps_cookies_too(server: Server) -> None:
    async def main() -> dict:
        async with courier.AsyncClient(base_url=server.url) as client:
            await client.get("/cookies/set?a=1")
            return (await client.get("/cookies")).json()

    assert asyncio.run(main()) == {"cookies": {"a": "1"}}


def test_history_lists_the_redirects_followed(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        response = client.get("/redirect/2")
        assert response.status_code == 200
        assert [hop.status_code for hop in response.history] == [302, 302]
        assert response.history[0].url.endswith("/redirect/2")
        assert "location" in response.history[0].headers
        assert client.get("/status/200").history == []


def test_response_cookies_are_those_its_set_cookie_fields_set(server: Server) -> None:
    with courier.Client(base_url=server.url, follow_redirects=False) as client:
        response = client.get("/cookies/set?x=1&y=2")
        assert dict(response.cookies) == {"x": "1", "y": "2"}


def test_a_streamed_response_has_its_history_with_the_head(server: Server) -> None:
    with courier.Client(base_url=server.url) as client:
        with client.stream("GET", "/redirect/2") as response:
            assert [hop.status_code for hop in response.history] == [302, 302]
            assert response.status_code == 200
            b"".join(response.iter_bytes())


def test_a_library_older_than_abi_1_3_says_so_instead_of_answering_empty(server: Server, monkeypatch) -> None:
    import courier._cookies
    import courier._native

    with courier.Client(base_url=server.url) as client:
        monkeypatch.setattr(courier._cookies, "abi_minor", 2)
        monkeypatch.setattr(courier._native, "abi_minor", 2)
        with pytest.raises(courier.Unsupported, match="ABI 1.3"):
            dict(client.cookies)
        response = client.get("/redirect/1")
        with pytest.raises(courier.Unsupported, match="ABI 1.3"):
            response.history
