"""Behind a TLS reverse proxy: the real uvicorn server of `spades serve`, in-process, with
the headers nginx sends (docs/self-hosting.md). From a trusted proxy X-Forwarded-Proto and
X-Forwarded-For are believed (the scheme is https, the client is the real one, HSTS is
sent); from any other address they are ignored. A public URL that starts with https:// says
the pages are served over TLS: the cookie is Secure and HSTS is sent on every answer."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_testkit import client, db_url

from spades.server import Settings, create_app
from spades.server.hosts import allowed_names
from spades.server.listen import make_server

pytestmark = pytest.mark.timeout(120)
PUBLIC = "cards.example.org"
#: What nginx's `proxy_set_header` lines of docs/self-hosting.md send.
NGINX = {"Host": PUBLIC, "X-Forwarded-For": "198.51.100.7", "X-Forwarded-Proto": "https",
         "X-Real-IP": "198.51.100.7"}


class Seen:
    """The app wrapped so a test sees the scheme and client each request reached it with."""

    def __init__(self, app: Any):
        self.app = app
        self.scopes: list[dict[str, Any]] = []
        self.state = app.state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            self.scopes.append(scope)
        await self.app(scope, receive, send)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(tmp_path: Path, trusted: Sequence[str]) -> Iterator[tuple[str, Seen]]:
    app = Seen(create_app(Settings(db_url=db_url(tmp_path), workers=0, pace=0.0,
                                   allowed_hosts=allowed_names([PUBLIC]))))
    port = free_port()
    server = make_server(app, "127.0.0.1", port, trusted_proxy=trusted)
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)


def get(url: str, headers: dict[str, str]) -> tuple[int, Any]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers


def test_a_trusted_proxy_makes_the_scheme_https_and_the_client_real(tmp_path: Path) -> None:
    with serving(tmp_path, ["127.0.0.1"]) as (url, seen):
        status, headers = get(url + "/api/health", NGINX)
        assert status == 200
        assert headers["Strict-Transport-Security"].startswith("max-age=")
        scope = seen.scopes[-1]
        assert scope["scheme"] == "https"
        assert scope["client"][0] == "198.51.100.7"


@pytest.mark.parametrize("trusted", [[], ["10.9.8.7"], ["192.168.0.0/16"]])
def test_forwarded_headers_from_an_untrusted_address_are_ignored(
        tmp_path: Path, trusted: list[str]) -> None:
    with serving(tmp_path, trusted) as (url, seen):
        status, headers = get(url + "/api/health", NGINX)
        assert status == 200
        assert "Strict-Transport-Security" not in headers
        scope = seen.scopes[-1]
        assert scope["scheme"] == "http"
        assert scope["client"][0] == "127.0.0.1"


def test_a_websocket_upgrades_through_the_proxy(tmp_path: Path) -> None:
    """The upgrade as nginx forwards it (Host, Upgrade, Connection and the forwarded
    headers passed on): the game's first state comes, and the app saw wss from the client."""
    from websockets.sync.client import connect

    player = "player-proxy-0001"
    with serving(tmp_path, ["127.0.0.1"]) as (url, seen):
        request = urllib.request.Request(
            url + "/api/games", data=json.dumps({"preset": "house", "level": "random"}).encode(),
            headers={**NGINX, "Content-Type": "application/json", "X-Spades-Player": player})
        with urllib.request.urlopen(request, timeout=10) as response:
            game_id = json.loads(response.read())["id"]
        port = int(url.rsplit(":", 1)[1])
        extra = {k: v for k, v in NGINX.items() if k != "Host"}
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        request = urllib.request.Request(
            f"{url}/api/games/{game_id}/ticket", data=b"", method="POST",
            headers={**NGINX, "X-Spades-Player": player})
        with urllib.request.urlopen(request, timeout=10) as response:
            token = json.loads(response.read())["ticket"]
        with connect(f"ws://{PUBLIC}/ws/games/{game_id}", sock=sock,
                     additional_headers=extra, origin=f"https://{PUBLIC}",
                     open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "ticket": token}))
            first = json.loads(ws.recv(timeout=10))
        assert first["type"] in ("hello", "state")
        socket_scope = [s for s in seen.scopes if s["type"] == "websocket"][-1]
        assert socket_scope["scheme"] == "wss"
        assert socket_scope["client"][0] == "198.51.100.7"


def test_uvicorn_refuses_a_websocket_to_another_host_with_400(tmp_path: Path) -> None:
    """DNS rebinding through a websocket: the real server answers the upgrade with 400."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with serving(tmp_path, []) as (url, _):
        port = int(url.rsplit(":", 1)[1])
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        with pytest.raises(InvalidStatus) as refused:
            connect("ws://rebind.attacker.example/ws/games/x",
                    sock=sock, open_timeout=10)
        response = refused.value.response
        assert response.status_code == 400
        assert b"does not answer to that host name" in response.body
        assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.parametrize("public, https", [("https://cards.example.org", True),
                                           ("HTTPS://cards.example.org/", True),
                                           ("http://cards.example.org", False)])
def test_an_https_public_url_alone_sends_hsts_and_marks_the_cookie_secure(
        tmp_path: Path, public: str, https: bool) -> None:
    """No proxy is trusted and the hop is plain HTTP: the public URL alone decides (before
    the fix only a trusted proxy's X-Forwarded-Proto did, and these failed)."""
    with client(tmp_path, public_url=public) as http:
        for path in ("/api/health", "/", "/no/such/page"):
            headers = http.get(path).headers
            assert ("strict-transport-security" in headers) is https, path
            if https:
                assert headers["strict-transport-security"].startswith("max-age=")
        started = http.post("/api/session", json={})
        assert started.status_code == 201
        cookie = started.headers["set-cookie"].lower()
        assert cookie.startswith("spades_session=") and "httponly" in cookie
        assert ("; secure" in cookie) is https


def raw_request(url: str, head: str) -> bytes:
    """Send ``head`` as it is (no client library would send two Host headers) and read the
    whole answer."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode("latin-1"))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("hosts", [("localhost", "rebind.attacker.example"),
                                   ("127.0.0.1:8622@rebind.attacker.example",)])
def test_the_real_server_refuses_two_hosts_and_a_userinfo_host(
        tmp_path: Path, hosts: tuple[str, ...]) -> None:
    """uvicorn passes every Host header on: two of them, or one with a userinfo part, get
    400 (before the fix the first ``localhost``, or the ``127.0.0.1`` before ``@``, was
    believed)."""
    with serving(tmp_path, []) as (url, seen):
        lines = "".join(f"Host: {host}\r\n" for host in hosts)
        answer = raw_request(url, f"GET /api/health HTTP/1.1\r\n{lines}"
                                  "Connection: close\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
        assert b"rebind" not in answer
        assert seen.scopes  # it reached the app, which refused it
        fine = raw_request(url, "GET /api/health HTTP/1.1\r\nHost: LocalHost.:8622\r\n"
                                "Connection: close\r\n\r\n")
        assert fine.startswith(b"HTTP/1.1 200 "), fine[:200]
