"""Who can open a game's websocket (docs/protocol.md, "Who can reach a game"): a ticket from
``POST /api/games/{id}/ticket``, good once, for 30 seconds, for one game and one player; no
player id in the socket's address (an old page that sends one is told to reload); no page
of a foreign origin."""

from __future__ import annotations

import asyncio
import json
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from friends_kit import seat_by_invitation
from server_testkit import OTHER, PLAYER, Driver, client, new_game_id, open_table, ticket

from spades.server import sockets
from spades.server.common import NOT_FOUND
from spades.server.origins import origin_allowed
from spades.server.tickets import TICKET_LIFE, Tickets

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect


def refusal(ws: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The error frame a refused socket gets, and how it was closed."""
    error = ws.receive_json()
    closing = ws.receive()
    assert closing["type"] == "websocket.close", closing
    return error, closing


def hello(http: TestClient, game_id: str, token: Any, **options: Any) -> Any:
    ws = http.websocket_connect(f"/ws/games/{game_id}", **options).__enter__()
    ws.send_json({"type": "hello", "ticket": token})
    return ws


def first_state(ws: Any) -> dict[str, Any]:
    state = Driver(ws).recv()
    assert state["type"] == "state", state
    return state


# ------------------------------------------------------------------ tickets

def test_a_ticket_opens_its_game_once(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        token = ticket(http, game_id)
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": token})
            assert first_state(ws)["game"]["you"] == 0
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:  # the same ticket again
            ws.send_json({"type": "hello", "ticket": token})
            error, closing = refusal(ws)
        assert error["type"] == "error" and error["code"] == "ticket"
        assert closing["code"] == sockets.TICKET_CLOSE
        assert "once" in closing["reason"] and "new one" in closing["reason"]


def test_a_ticket_for_game_a_does_not_open_game_b(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_a, game_b = new_game_id(http), new_game_id(http)
        token = ticket(http, game_a)
        with http.websocket_connect(f"/ws/games/{game_b}") as ws:
            ws.send_json({"type": "hello", "ticket": token})
            error, closing = refusal(ws)
        assert error["code"] == "ticket" and closing["code"] == sockets.TICKET_CLOSE
        # and it is used up: it does not open game A afterwards either
        with http.websocket_connect(f"/ws/games/{game_a}") as ws:
            ws.send_json({"type": "hello", "ticket": token})
            assert refusal(ws)[0]["code"] == "ticket"
        with open_table(http, game_a) as ws:  # a fresh one does
            assert first_state(ws)["game"]["you"] == 0


def test_a_ticket_expires_after_30_seconds(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        tickets: Tickets = http.app.state.tickets  # type: ignore[attr-defined]
        late = ticket(http, game_id)
        in_time = ticket(http, game_id)
        started = time.monotonic()
        tickets.clock = lambda: time.monotonic() + TICKET_LIFE - 1
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": in_time})
            assert first_state(ws)["type"] == "state"
        tickets.clock = lambda: started + TICKET_LIFE + 0.01
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": late})
            error, closing = refusal(ws)
        assert error["code"] == "ticket" and closing["code"] == sockets.TICKET_CLOSE
    assert TICKET_LIFE == 30


def test_another_persons_ticket_request_is_not_found(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)  # PLAYER's
        answer = http.post(f"/api/games/{game_id}/ticket", headers={"X-Spades-Player": OTHER})
        assert answer.status_code == 404 and answer.json() == {"error": NOT_FOUND}
        # the same as for a game that does not exist: nothing says the game is there
        missing = http.post("/api/games/no-such-game/ticket",
                            headers={"X-Spades-Player": OTHER})
        assert (missing.status_code, missing.json()) == (answer.status_code, answer.json())
        nobody = http.post(f"/api/games/{game_id}/ticket")
        assert nobody.status_code == 400 and "X-Spades-Player" in nobody.json()["error"]
        got = http.get(f"/api/games/{game_id}/ticket", headers={"X-Spades-Player": PLAYER})
        assert got.status_code >= 400  # a ticket is given only by a POST


def test_each_seated_person_gets_their_own_seat(tmp_path: Path) -> None:
    with client(tmp_path) as http:  # the other person comes in by invitation
        game_id = seat_by_invitation(http, {0: PLAYER, 2: OTHER})
        with open_table(http, game_id, OTHER) as ws:
            assert first_state(ws)["game"]["you"] == 2
        with open_table(http, game_id, PLAYER) as ws:
            assert first_state(ws)["game"]["you"] == 0


@pytest.mark.parametrize("first", [
    {"type": "sync"},
    {"type": "hello"},
    {"type": "hello", "ticket": 12},
    {"type": "hello", "ticket": "made-up-ticket-000000000000000"},
    {"type": "act", "version": 0, "action": {"bid": 3}},
    "not json",
])
def test_without_a_good_hello_the_socket_is_refused(tmp_path: Path, first: Any) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_text(first if isinstance(first, str) else json.dumps(first))
            error, closing = refusal(ws)
        assert error["code"] == "ticket" and closing["code"] == sockets.TICKET_CLOSE
        assert closing["reason"]


def test_a_socket_that_says_nothing_is_closed(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sockets, "HELLO_WAIT", 0.2)
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            error, closing = refusal(ws)
    assert error["code"] == "ticket" and "hello" in closing["reason"]


def test_tickets_cost_bounded_memory() -> None:
    asyncio.run(tickets_cost_bounded_memory())


async def tickets_cost_bounded_memory() -> None:
    now = [0.0]
    tickets = Tickets(life=30, most=100, clock=lambda: now[0])
    first = [await tickets.issue("game", "player-0000-aaaa") for _ in range(100)]
    later = await tickets.issue("game", "player-0000-aaaa")
    assert len(tickets) == 100
    assert await tickets.redeem(first[0], "game") is None  # the oldest was let go
    kept = await tickets.redeem(first[1], "game")
    assert kept is not None and kept.player == "player-0000-aaaa"
    now[0] = 31
    fresh = await tickets.issue("game", "player-1111-bbbb")
    assert len(tickets) == 1  # the expired were forgotten
    assert await tickets.redeem(later, "game") is None
    kept = await tickets.redeem(fresh, "game")
    assert kept is not None and kept.player == "player-1111-bbbb"
    assert len({await tickets.issue("g", "player-0000-aaaa") for _ in range(50)}) == 50


# ------------------------------------------------------------------ an old page

def test_an_old_page_sending_its_player_id_is_told_to_reload(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with http.websocket_connect(f"/ws/games/{game_id}?player={PLAYER}") as ws:
            error, closing = refusal(ws)
        assert error["type"] == "error" and error["code"] == "reload"
        assert "reload" in error["message"] and "saved" in error["message"]
        assert closing["code"] == sockets.RELOAD_CLOSE
        assert "reload" in closing["reason"]
        # even with a good ticket: the id in the address is what an old page sends
        token = ticket(http, game_id)
        with http.websocket_connect(f"/ws/games/{game_id}?player={PLAYER}") as ws:
            ws.send_json({"type": "hello", "ticket": token})
            assert refusal(ws)[0]["code"] == "reload"


# ------------------------------------------------------------------ Origin

@pytest.mark.parametrize("origin", ["http://evil.example", "http://testserver.evil.example",
                                    "http://testserver:8080", "https://testserver:80",
                                    "null", "file://", "chrome-extension://abc"])
def test_a_page_of_a_foreign_origin_cannot_open_a_socket(tmp_path: Path, origin: str) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        token = ticket(http, game_id)
        with pytest.raises(WebSocketDisconnect) as refused:
            hello(http, game_id, token, headers={"origin": origin})
        assert refused.value.code == sockets.POLICY_CLOSE


def test_the_tables_own_page_and_a_script_open_a_socket(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        for headers in ({"origin": "http://testserver"}, {"origin": "http://TestServer:80"},
                        {}):
            ws = hello(http, game_id, ticket(http, game_id), headers=headers)
            try:
                assert first_state(ws)["game"]["you"] == 0, headers
            finally:
                ws.__exit__(None, None, None)


@pytest.mark.parametrize(("origin", "host", "allowed", "ok"), [
    (None, "127.0.0.1:8000", (), True),
    ("http://127.0.0.1:8000", "127.0.0.1:8000", (), True),
    ("http://localhost:8000", "localhost:8000", (), True),
    ("http://[::1]:8000", "[::1]:8000", (), True),
    ("https://cards.example", "cards.example", (), True),
    ("https://cards.example", "cards.example:443", (), True),
    ("http://127.0.0.1:8000", "localhost:8000", (), False),
    ("http://127.0.0.1:9000", "127.0.0.1:8000", (), False),
    ("https://cards.example:8443", "cards.example", (), False),
    ("http://cards.example", "cards.example.evil", (), False),
    ("http://evil.example", "127.0.0.1:8000", (), False),
    ("http://evil.example", None, (), False),
    ("http://[::1", "[::1]:8000", (), False),
    ("http://cards.lan:8000", "10.0.0.2:8000", ("cards.lan",), True),
    ("http://evil.lan:8000", "10.0.0.2:8000", ("cards.lan",), False),
    ("null", "127.0.0.1:8000", (), False),
    ("http://evil.example", "127.0.0.1:8000@evil.example", (), False),  # a userinfo part
    ("http://127.0.0.1:8000", "127.0.0.1:8000@evil.example", (), False),
    ("http://localhost.:8000", "LocalHost:8000", (), True),  # one final dot: the same name
])
def test_origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...],
                        ok: bool) -> None:
    assert origin_allowed(origin, host, allowed) is ok


# ------------------------------------------------------------------ a browser's session

def test_a_browser_session_gets_tickets_with_its_csrf_token(tmp_path: Path) -> None:
    """The page's way: the session cookie (from POST /api/session with the id it kept) and
    its CSRF token; without the token, no ticket (a page elsewhere cannot read it)."""
    with client(tmp_path) as http:
        game_id = new_game_id(http)  # PLAYER's, made by a script with the header
        started = http.post("/api/session", json={"player": PLAYER})
        assert started.status_code in (200, 201), started.text
        csrf = started.json()["csrf"]
        refused = http.post(f"/api/games/{game_id}/ticket")  # the cookie, no token
        assert refused.status_code == 403 and "ticket" not in refused.json()
        wrong = http.post(f"/api/games/{game_id}/ticket", headers={"X-CSRF-Token": "x" * 43})
        assert wrong.status_code == 403
        answer = http.post(f"/api/games/{game_id}/ticket", headers={"X-CSRF-Token": csrf})
        assert answer.status_code == 200, answer.text
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": answer.json()["ticket"]})
            assert first_state(ws)["game"]["you"] == 0


def test_an_account_opens_the_games_of_every_id_it_holds(tmp_path: Path) -> None:
    """Signed in with this device's games moved in: a ticket for a game of the device's
    old id opens it at that id's seat; after signing out, no ticket."""
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        csrf = http.post("/api/session", json={"player": PLAYER}).json()["csrf"]
        signed = http.post("/api/account/signup", headers={"X-CSRF-Token": csrf},
                           json={"email": "seat@example.org", "password": "felt-green-42x"})
        assert signed.status_code == 201, signed.text
        assert signed.json()["move_games"] == {"count": 1}
        csrf = signed.json()["csrf"]
        # not moved yet: the account does not reach the device's game
        assert http.post(f"/api/games/{game_id}/ticket",
                         headers={"X-CSRF-Token": csrf}).status_code == 404
        moved = http.post("/api/account/move", json={"move": True},
                          headers={"X-CSRF-Token": csrf})
        assert moved.status_code == 200, moved.text
        token = http.post(f"/api/games/{game_id}/ticket", headers={"X-CSRF-Token": csrf})
        assert token.status_code == 200, token.text
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": token.json()["ticket"]})
            assert first_state(ws)["game"]["you"] == 0
        out = http.post("/api/account/signout", headers={"X-CSRF-Token": csrf})
        assert out.status_code == 200, out.text
        again = http.post("/api/session", json={"player": PLAYER})
        assert again.json()["player"] != PLAYER  # the moved id is reached by signing in
        assert http.post(f"/api/games/{game_id}/ticket",
                         headers={"X-CSRF-Token": again.json()["csrf"]}).status_code == 404
