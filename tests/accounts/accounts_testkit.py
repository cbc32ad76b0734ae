"""Helpers for the tests of sessions and accounts: a server on SQLite or PostgreSQL, and
devices (each its own cookie jar, like a browser) talking to that one server."""

from __future__ import annotations

import secrets
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "store"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from server_testkit import ROOMY_ACCOUNTS, ROOMY_GAMES, TEST_HOSTS
from storekit import POSTGRES, drop_prefixed, postgres_reachable

from spades.accounts import Cost
from spades.server import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

#: Cheap hashing for the tests (the real cost is measured by bench/signin.py).
FAST = Cost(time=1, memory=64, lanes=1)
FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:130.0) Gecko/20100101 Firefox/130.0"
PHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
         "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
PASSWORD = "seven tricks and a nil"
OTHER_PASSWORD = "bags of sand and spades"


def database(kind: str, tmp_path: Path) -> tuple[str, str]:
    """A database URL and a table prefix of the test's own (skip without PostgreSQL)."""
    import pytest

    prefix = f"a{secrets.token_hex(4)}_"
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}", prefix
    reason = postgres_reachable()
    if reason:
        pytest.skip(reason)
    return POSTGRES, prefix


@contextmanager
def server(url: str, prefix: str, peer: str = "192.0.2.10",
           **settings: Any) -> Iterator[TestClient]:
    """The app on this database; requests come from the address ``peer``."""
    options: dict[str, Any] = {"db_url": url, "table_prefix": prefix, "workers": 0,
                               "pace": 0.0, "seed": 5, "password_cost": FAST,
                               "public_url": "http://spades.example.org",
                               "allowed_hosts": TEST_HOSTS, "game_limits": ROOMY_GAMES,
                               "account_limits": ROOMY_ACCOUNTS}
    options.update(settings)
    try:
        with TestClient(create_app(Settings(**options)), client=(peer, 50000)) as http:
            yield http
    finally:
        if not url.startswith("sqlite"):
            drop_prefixed(url, prefix)


class Device:
    """A browser: its own cookies, its User-Agent, the CSRF token its page last read."""

    def __init__(self, http: TestClient, agent: str = FIREFOX):
        self.http = http
        self.agent = agent
        self.jar = httpx.Cookies()
        self.csrf: str | None = None

    def request(self, method: str, path: str, *, csrf: bool = True,
                headers: dict[str, str] | None = None, **kwargs: Any) -> httpx.Response:
        sent = {"User-Agent": self.agent}
        if csrf and self.csrf:
            sent["X-CSRF-Token"] = self.csrf
        sent.update(headers or {})
        self.http.cookies = self.jar
        try:
            response = self.http.request(method, path, headers=sent, **kwargs)
        finally:
            self.jar = httpx.Cookies(self.http.cookies)
            self.http.cookies = httpx.Cookies()
        if response.headers.get("content-type", "").startswith("application/json"):
            body = response.json()
            if isinstance(body, dict) and "csrf" in body and response.status_code < 300:
                self.csrf = body["csrf"]
        return response

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, json={} if body is None else body, **kwargs)

    @property
    def token(self) -> str | None:
        return self.jar.get("spades_session")

    def start(self, player: str | None = None) -> dict[str, Any]:
        response = self.post("/api/session", {} if player is None else {"player": player})
        assert response.status_code in (200, 201), response.text
        body: dict[str, Any] = response.json()
        return body

    def signup(self, email: str, password: str = PASSWORD) -> dict[str, Any]:
        response = self.post("/api/account/signup", {"email": email, "password": password})
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body

    def signin(self, email: str, password: str = PASSWORD) -> dict[str, Any]:
        response = self.post("/api/account/signin", {"email": email, "password": password})
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def new_game(self, preset: str = "house") -> str:
        response = self.post("/api/games", {"preset": preset, "level": "random"})
        assert response.status_code == 201, response.text
        game_id: str = response.json()["id"]
        return game_id

    def games(self) -> list[str]:
        response = self.get("/api/games")
        assert response.status_code == 200, response.text
        return [g["id"] for g in response.json()["games"]]

    def ticket(self, game_id: str) -> httpx.Response:
        """Ask for a ticket to the game's websocket, as the page does before opening it."""
        return self.post(f"/api/games/{game_id}/ticket")

    @contextmanager
    def socket(self, game_id: str) -> Iterator[Any]:
        """The game's websocket as a browser opens it: a ticket (with this device's cookie
        and CSRF token), then the socket with the ticket in its first message."""
        answer = self.ticket(game_id)
        assert answer.status_code == 200, answer.text
        headers = {"User-Agent": self.agent, "Origin": "http://testserver"}
        with self.http.websocket_connect(f"/ws/games/{game_id}", headers=headers) as ws:
            ws.send_json({"type": "hello", "ticket": answer.json()["ticket"]})
            yield ws
