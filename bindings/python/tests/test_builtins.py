"""Courier's own interceptors (Retry, Logging, Validation, ConcurrencyLimit, DigestAuth) in a Python chain; Cache has test_cache.py."""
from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

import courier


class CountPasses:
    name = "count-passes"

    def __init__(self) -> None:
        self.passes = 0

    def on_request(self, exchange: courier.Exchange) -> None:
        self.passes += 1


def flaky(failures: int) -> str:
    return f"/flaky/{uuid.uuid4().hex}/{failures}"


def test_retry_resends_through_the_python_interceptor_inside_it(server) -> None:
    counter = CountPasses()
    retry = courier.Retry(max_attempts=4, backoff=0.001, jitter="none", budget="unlimited")
    with courier.Client(base_url=server.url, interceptors=[retry, counter]) as client:
        response = client.get(flaky(2))
    assert response.status_code == 200
    assert response.headers["X-Attempt"] == "3"
    assert counter.passes == 3


def test_retry_outside_its_attempts_returns_the_last_failure(server) -> None:
    with courier.Client(base_url=server.url, interceptors=[courier.Retry(2, backoff=0.001)]) as client:
        response = client.get(flaky(5))
        assert response.status_code == 503
        assert response.headers["X-Attempt"] == "2"
        # POST is not idempotent: sent once unless `methods` or an Idempotency-Key says otherwise.
        assert client.post(flaky(1)).status_code == 503


def test_retry_of_post_with_an_idempotency_key(server) -> None:
    retry = courier.Retry(backoff=0.001, idempotency_key=True, methods=["GET"])
    with courier.Client(base_url=server.url, interceptors=[retry]) as client:
        response = client.post(flaky(1), json={"a": 1})
    assert response.status_code == 200
    sent = {name.lower(): value for name, value in response.json()["headers"]}  # /flaky echoes as /echo does
    assert len(sent["idempotency-key"]) == 36


def test_validation_raises_http_status_error_with_the_response(server) -> None:
    with courier.Client(base_url=server.url, interceptors=[courier.Validation()]) as client:
        with pytest.raises(courier.HTTPStatusError) as caught:
            client.get("/status/404")
        assert caught.value.code == 11
        assert caught.value.stage == "validation"
        assert caught.value.response is not None and caught.value.response.status_code == 404

    with courier.Client(base_url=server.url,
                        interceptors=[courier.Validation([range(200, 300), 404], content_types="any")]) as client:
        assert client.get("/status/404").status_code == 404


def test_validation_of_content_types(server) -> None:
    with courier.Client(base_url=server.url,
                        interceptors=[courier.Validation(content_types=["application/*"])]) as client:
        assert client.get("/anything").status_code == 200
        assert client.get("/bytes/8").status_code == 200
    with courier.Client(base_url=server.url,
                        interceptors=[courier.Validation(content_types=["text/*"])]) as client:
        with pytest.raises(courier.UnacceptableContentType):
            client.get("/bytes/8")


def test_retry_sees_the_status_validation_raises(server) -> None:
    chain = [courier.Retry(backoff=0.001), courier.Validation()]
    with courier.Client(base_url=server.url, interceptors=chain) as client:
        assert client.get(flaky(2)).status_code == 200
        with pytest.raises(courier.HTTPStatusError):
            client.get(flaky(3))


def test_logging_writes_redacted_lines_to_a_file(server, tmp_path: Path) -> None:
    log = tmp_path / "courier.log"
    logging = courier.Logging("debug", file=log, redact_headers=["X-Api-Key"])
    with courier.Client(base_url=server.url, interceptors=[logging]) as client:
        client.get("/anything/logged", headers={"X-Api-Key": "k3y-0f-the-api"}, bearer="t0ps3cret")
    text = log.read_text()
    assert "GET " in text and "/anything/logged" in text and " 200" in text
    assert "t0ps3cret" not in text and "k3y-0f-the-api" not in text
    assert "<redacted>" in text


@pytest.mark.parametrize("transport", ["curl", "ahc"])
def test_logging_warns_once_when_tls_verification_is_off(server, tmp_path: Path, transport: str) -> None:
    log = tmp_path / "insecure.log"
    with courier.Client(base_url=server.url, verify=False, transport=transport,
                        interceptors=[courier.Logging(file=log)]) as client:
        for _ in range(3):
            client.get("/status/204")
    lines = log.read_text().splitlines()
    warnings = [line for line in lines if "TLS certificate verification is off" in line]
    assert len(warnings) == 1, lines
    assert len([line for line in lines if "/status/204" in line]) == 3
    with courier.Client(base_url=server.url, interceptors=[courier.Logging(file=log)]) as client:
        client.get("/status/204")
    assert len([line for line in log.read_text().splitlines() if "verification is off" in line]) == 1


def test_logging_to_an_open_file(server, tmp_path: Path) -> None:
    path = tmp_path / "open.log"
    with open(path, "w") as file:
        file.write("before\n")
        with courier.Client(base_url=server.url, interceptors=[courier.Logging(file=file)]) as client:
            client.get("/status/204")
    lines = path.read_text().splitlines()
    assert lines[0] == "before"
    assert any("/status/204" in line and "204" in line for line in lines[1:])


def test_concurrency_limit_holds_async_sends_back(server) -> None:
    async def main() -> list[int]:
        async with courier.AsyncClient(base_url=server.url,
                                       interceptors=[courier.ConcurrencyLimit(1)]) as client:
            responses = await asyncio.gather(*(client.get("/inflight/100") for _ in range(4)))
        return [response.json()["inFlight"] for response in responses]

    assert asyncio.run(main()) == [1, 1, 1, 1]


def test_builtins_are_removed_by_name(server) -> None:
    with courier.Client(base_url=server.url) as client:
        client.add_interceptor(courier.Validation(name="strict"))
        with pytest.raises(courier.HTTPStatusError):
            client.get("/status/500")
        client.remove_interceptor("strict")
        assert client.get("/status/500").status_code == 500
        with pytest.raises(courier.CourierError):
            client.remove_interceptor("strict")


@pytest.mark.parametrize("builtin, named", [
    (courier.Retry(0), "max_attempts"),
    (courier.Retry(jitter="some"), "jitter"),
    (courier.Retry(errors=["cancelled"]), "cancelled"),
    (courier.Retry(statuses=[42]), "statuses"),
    (courier.Logging("loud"), "loud"),
    (courier.Logging(file="/nonexistent-dir/x.log"), "/nonexistent-dir/x.log"),
    (courier.Logging(redact_headers=["Bad Name"]), "Bad Name"),
    (courier.Validation(["299-200"]), "statuses[0]"),
    (courier.Validation(content_types=["json"]), "json"),
    (courier.ConcurrencyLimit(0), "max_requests"),
])
def test_bad_options_raise_naming_the_option_and_add_nothing(server, builtin: courier.Builtin, named: str) -> None:
    with courier.Client(base_url=server.url) as client:
        with pytest.raises(courier.InvalidRequest) as caught:
            client.add_interceptor(builtin)
        assert named in str(caught.value)
        assert client.get("/status/503").status_code == 503


def test_options_of_the_wrong_python_type_raise_before_the_library(server) -> None:
    with pytest.raises(TypeError):
        courier.Retry(backoff="fast").config()  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        courier.Logging(file=3.5).config()
    with pytest.raises(ValueError):
        courier.Validation([range(300, 200)]).config()


def test_repr_shows_the_options_given() -> None:
    assert repr(courier.Retry(5, backoff=0.5)) == "courier.Retry(max_attempts=5, initial_backoff_ms=500)"


def test_digest_auth_answers_the_servers_challenge(server) -> None:
    with courier.Client(base_url=server.url, interceptors=[courier.DigestAuth("ada", "s3cret")]) as client:
        assert client.get("/digest-auth/auth/ada/s3cret/SHA-256").json() == {"authenticated": True, "user": "ada"}
        assert client.post("/digest-auth/auth/ada/s3cret/MD5", json={"a": 1}).status_code == 200
    with courier.Client(base_url=server.url, interceptors=[courier.DigestAuth("ada", "wrong")]) as client:
        assert client.get("/digest-auth/auth/ada/s3cret/MD5").status_code == 401


def test_digest_auth_needs_user_and_password_as_text(server) -> None:
    with pytest.raises(courier.CourierError):
        courier.Client(base_url=server.url, interceptors=[courier.DigestAuth("ada", 7)])  # type: ignore[arg-type]
