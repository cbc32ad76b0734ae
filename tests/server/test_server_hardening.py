"""Hardening of the web server: security headers on every response, the host names it
answers to (DNS rebinding), and the health endpoint (docs/self-hosting.md)."""

from __future__ import annotations

import warnings
from pathlib import Path

import httpx
import pytest
from server_testkit import HEADERS, PLAYER, TEST_HOSTS, client, db_url, new_game_id, open_table

from spades import __version__
from spades.server.headers import CONTENT_SECURITY_POLICY
from spades.server.hosts import (
    LOCAL_HOSTS,
    TWO_HOSTS,
    WRONG_HOST,
    allowed_names,
    host_name,
    parse_host,
)
from spades.store import Store

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import WebSocketDenialResponse

pytestmark = pytest.mark.timeout(120)
EVIL = "rebind.attacker.example"


def assert_guarded(response: object, https: bool = False) -> None:
    headers = response.headers  # type: ignore[attr-defined]
    assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    for needed in ("default-src 'self'", "script-src 'self'", "frame-ancestors 'none'",
                   "base-uri 'none'"):
        assert needed in headers["content-security-policy"]
    assert "unsafe-inline" not in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "DENY"
    if https:
        assert headers["strict-transport-security"].startswith("max-age=")
    else:
        assert "strict-transport-security" not in headers


def test_every_response_carries_the_security_headers(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        for path in ("/", "/index.html", "/help.html", "/js/main.js", "/css/table.css",
                     "/api/presets", "/api/health", "/api/version", "/api/games",
                     f"/api/games/{game_id}/record", "/no/such/page", "/api/games/nope"):
            response = http.get(path, headers=HEADERS)
            assert response.status_code in (200, 404), (path, response.status_code)
            assert_guarded(response)
        refused = http.get("/api/games")  # 400: no player
        assert refused.status_code == 400
        assert_guarded(refused)
        wrong_host = http.get("/", headers={"host": EVIL})
        assert wrong_host.status_code == 400
        assert_guarded(wrong_host)


def test_strict_transport_security_only_over_https(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        assert_guarded(http.get("/api/presets"), https=False)
    with client(tmp_path) as http:
        http.base_url = "https://testserver"  # type: ignore[assignment]
        assert_guarded(http.get("/api/presets"), https=True)


@pytest.mark.parametrize("value, name", [
    ("127.0.0.1:8000", "127.0.0.1"), ("localhost", "localhost"), ("LocalHost:80", "localhost"),
    ("[::1]:8000", "::1"), ("[::1]", "::1"), ("::1", "::1"), ("cards.lan.", "cards.lan"),
    ("Cards.LAN.:8443", "cards.lan"), ("[::1", ""), ("", "")])
def test_host_names_lose_their_port_brackets_case_and_final_dot(value: str, name: str) -> None:
    assert host_name(value) == name


#: Host values that are not a host and a port (each was read as an allowed name before the
#: parsing was made strict: ``127.0.0.1:8622@evil.example`` as 127.0.0.1, say).
MALFORMED = ["127.0.0.1:8622@evil.example", "user@localhost", "localhost:", "localhost:80a",
             "localhost:99999", "localhost..", "localhost:8000:1", "::1", "[::1]x",
             "[::1]:", "[127.0.0.1]", "local host", "localhost/x", "localhost%2e",
             ".localhost", "localhost:+80", "local\thost"]


@pytest.mark.parametrize("value", [*MALFORMED, "localhost:８０", "ｌocalhost"])
def test_a_malformed_host_is_no_name(value: str) -> None:
    assert parse_host(value) is None


@pytest.mark.parametrize("value, parsed", [
    ("localhost", ("localhost", None)), ("LocalHost.:8000", ("localhost", 8000)),
    ("127.0.0.1:8622", ("127.0.0.1", 8622)), ("[::1]:80", ("::1", 80)),
    ("[0:0::1]", ("::1", None)), ("cards_web.lan", ("cards_web.lan", None))])
def test_a_host_is_a_name_and_a_port(value: str, parsed: tuple[str, int | None]) -> None:
    assert parse_host(value) == parsed


@pytest.mark.parametrize("host", MALFORMED)
def test_a_malformed_host_header_gets_400(tmp_path: Path, host: str) -> None:
    with client(tmp_path, allowed_hosts=LOCAL_HOSTS) as http:
        for method, path in (("GET", "/api/health"), ("POST", "/api/games")):
            response = http.request(method, path, headers={**HEADERS, "host": host},
                                    json={"preset": "house"})
            assert response.status_code == 400, (host, path)
            assert response.json() == {"error": WRONG_HOST}
        assert http.get("/api/games", headers={**HEADERS, "host": "localhost"}).json() == {
            "games": []}


@pytest.mark.parametrize("hosts", [("localhost", EVIL), ("localhost", "localhost"),
                                   (EVIL, "localhost")])
def test_a_request_with_two_host_headers_gets_400(tmp_path: Path,
                                                   hosts: tuple[str, str]) -> None:
    with client(tmp_path, allowed_hosts=LOCAL_HOSTS) as http:
        headers = httpx.Headers([("host", hosts[0]), ("host", hosts[1]),
                                 ("x-spades-player", PLAYER)])
        response = http.post("/api/games", headers=headers, json={"preset": "house"})
        assert response.status_code == 400
        assert response.json() == {"error": TWO_HOSTS}
        with pytest.raises(WebSocketDenialResponse) as refused, \
                http.websocket_connect("/ws/games/x", headers=headers):
            pass
        assert refused.value.status_code == 400
        assert http.get("/api/games", headers={**HEADERS, "host": "localhost"}).json() == {
            "games": []}


def test_allowed_names_are_local_plus_the_configured_but_never_every_interface() -> None:
    assert allowed_names() == LOCAL_HOSTS
    assert allowed_names(["0.0.0.0", "::", "Cards.lan", "cards.lan", "192.168.1.20"]) == (
        *LOCAL_HOSTS, "cards.lan", "192.168.1.20")


@pytest.mark.parametrize("base", ["http://127.0.0.1:8000", "http://localhost:8000",
                                  "http://[::1]:8000", "http://localhost"])
def test_the_local_names_are_answered_with_any_port(tmp_path: Path, base: str) -> None:
    with client(tmp_path, allowed_hosts=LOCAL_HOSTS) as http:
        http.base_url = base  # type: ignore[assignment]
        assert http.get("/api/presets").status_code == 200


@pytest.mark.parametrize("host", [EVIL, "localhost.attacker.example", "127.0.0.1.nip.io",
                                  "testserver", "", "[::2]:8000", "0.0.0.0:8000"])
def test_another_host_gets_400_with_a_sentence_and_changes_nothing(tmp_path: Path,
                                                                    host: str) -> None:
    with client(tmp_path, allowed_hosts=LOCAL_HOSTS) as http:
        http.base_url = "http://127.0.0.1:8000"  # type: ignore[assignment]
        for method, path in (("GET", "/"), ("GET", "/api/games"), ("POST", "/api/games"),
                             ("GET", "/api/health")):
            response = http.request(method, path, headers={**HEADERS, "host": host},
                                    json={"preset": "house"})
            assert response.status_code == 400, (host, path)
            assert response.json() == {"error": WRONG_HOST}
            if host:
                assert host_name(host) not in response.text  # never echoed
            assert "location" not in response.headers
        assert http.get("/api/games", headers=HEADERS).json() == {"games": []}
    store = Store(db_url(tmp_path))
    try:
        assert store.list_games(PLAYER) == []
    finally:
        store.close()


def test_a_configured_name_is_answered(tmp_path: Path) -> None:
    with client(tmp_path, allowed_hosts=allowed_names(["cards.lan"])) as http:
        http.base_url = "http://cards.lan:8000"  # type: ignore[assignment]
        assert http.get("/api/presets").status_code == 200
        assert http.get("/", headers={"host": "other.lan:8000"}).status_code == 400


def test_a_websocket_with_another_host_is_refused(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        url = f"/ws/games/{game_id}"
        with open_table(http, game_id) as ws:  # the allowed name: the game comes
            assert ws.receive_json()["type"] in ("state", "hello")
        with pytest.raises(WebSocketDenialResponse) as refused, \
                http.websocket_connect(url, headers={"host": EVIL}):
            pass
        assert refused.value.status_code == 400
        assert refused.value.json() == {"error": WRONG_HOST}


def test_the_test_names_are_not_the_default() -> None:
    from spades.server import Settings

    assert Settings().allowed_hosts == LOCAL_HOSTS
    assert "testserver" in TEST_HOSTS and "testserver" not in LOCAL_HOSTS


# ---------------------------------------------------------------------- health

def test_health_is_ok_when_the_store_reads(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        response = http.get("/api/health")
        assert response.status_code == 200
        assert response.json() == {"ok": True, "store": "ok", "version": __version__}
        assert response.headers["cache-control"] == "no-store"


def test_health_is_503_with_a_sentence_when_the_tables_are_gone(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        assert http.get("/api/health").status_code == 200
        store = Store(db_url(tmp_path), create=False)
        try:
            store.drop_tables()
        finally:
            store.close()
        response = http.get("/api/health")
        assert response.status_code == 503
        body = response.json()
        assert body["ok"] is False and body["store"] == "error"
        assert body["error"] == "the saved games cannot be read right now"


def test_health_is_503_when_the_database_file_was_deleted(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        assert http.get("/api/health").status_code == 200
        for file in tmp_path.glob("games.db*"):
            file.unlink()
        response = http.get("/api/health")
        assert response.status_code == 503 and response.json()["ok"] is False
