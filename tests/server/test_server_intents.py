"""One writer per table: stale, duplicate, early and illegal intents, and garbage on the
socket, are refused with a clear message and change nothing stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_testkit import (
    HEADERS,
    Driver,
    client,
    db_url,
    new_game_id,
    open_table,
    stored,
    true_states,
)

from spades.engine import IllegalActionError, Play, apply, parse_card
from spades.server.common import NOT_FOUND
from spades.session import state_from_store
from spades.store import ActionRow, Store

pytestmark = pytest.mark.timeout(60)



def snapshot(tmp_path: Path, game_id: str) -> tuple[int, int, frozenset[tuple[int, int]]]:
    game = stored(tmp_path, game_id)
    return game.game.version, len(game.actions), game.looks


def refused(driver: Driver) -> tuple[dict[str, Any], dict[str, Any]]:
    """The error and the state that follows it."""
    error = driver.recv()
    while error["type"] != "error":
        error = driver.recv()
    state = driver.recv()
    assert state["type"] == "state" and state["events"] == []
    return error, state


def test_a_double_click_is_taken_once(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            assert state["legal"]["kind"] == "bid"
            before = stored(tmp_path, game_id)
            driver.act({"bid": 3})
            driver.act({"bid": 3})  # the same click again, from the same version
            error, _ = refused(driver)
            assert error["code"] == "stale" and "moved on" in error["message"]
            assert "version" not in error["message"]  # a player's words, no internals
            state = driver.until_decision()
    after = stored(tmp_path, game_id)
    mine = [a for a in after.actions if a.seat == 0]
    assert [a.action for a in mine] == [{"seat": 0, "bid": 3}]
    assert len(after.actions) == len(before.actions) + 4  # my bid and three others'
    assert state["view"]["bids"][0] == 3


def test_two_tabs_the_second_intent_is_stale(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as one, \
                open_table(http, game_id) as two:
            first, second = Driver(one), Driver(two)
            state_one = first.until_decision()
            state_two = second.until_decision()
            assert state_one["version"] == state_two["version"]
            assert state_one["view"] == state_two["view"]
            first.act({"bid": 2})
            # the second tab saw the same version and bids otherwise
            second.act({"bid": 5}, version=state_two["version"])
            seen = first.until_decision()
            error = second.recv()
            while error["type"] != "error":
                error = second.recv()
            assert error["code"] == "stale"
            # both tabs end on the same table
            latest = second.until_decision()
            assert latest["version"] == seen["version"]
    game = stored(tmp_path, game_id)
    assert [a.action for a in game.actions if a.seat == 0] == [{"seat": 0, "bid": 2}]


def test_acting_while_a_computer_thinks_is_refused(tmp_path: Path) -> None:
    with client(tmp_path, pace=0.4) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            driver.until_decision()
            driver.act({"bid": 4})
            message = driver.recv()
            assert message["type"] == "state" and message["legal"] is None
            assert message["events"][0]["text"] == "You bid 4."
            thinking = driver.recv()
            assert thinking == {"type": "thinking", "version": message["version"], "seat": 1,
                                "name": "Bramble"}
            before = snapshot(tmp_path, game_id)
            driver.act({"bid": 5}, version=message["version"])
            error, now = refused(driver)
            assert error["code"] == "not-your-turn"
            assert error["message"] == "it is Bramble's turn (thinking), not yours"
            assert now["thinking"] == {"seat": 1, "name": "Bramble"}
            assert snapshot(tmp_path, game_id) == before
            driver.until_decision()


def test_an_illegal_card_gets_the_engine_reason_verbatim(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            while state["legal"]["kind"] != "play" or set(state["legal"]["cards"]) == set(
                    state["view"]["hand"]):
                driver.act(driver.choose(state))
                state = driver.until_decision()
            truth = state_from_store(stored(tmp_path, game_id))
            wrong = next(c for c in state["view"]["hand"] if c not in state["legal"]["cards"])
            not_mine = next(str(c) for c in truth.rules.deck
                            if str(c) not in state["view"]["hand"])
            before = snapshot(tmp_path, game_id)
            for card in (wrong, not_mine):
                with pytest.raises(IllegalActionError) as expected:
                    apply(truth, Play(parse_card(card)))
                driver.act({"play": card})
                error, now = refused(driver)
                assert error == {"type": "error", "code": "illegal",
                                 "message": str(expected.value), "version": state["version"]}
                assert now["view"] == state["view"] and now["legal"] == state["legal"]
            assert snapshot(tmp_path, game_id) == before
            # and the table goes on
            driver.act({"play": state["legal"]["cards"][0]})
            assert driver.until_decision()["version"] > state["version"]


GARBAGE: list[tuple[Any, str]] = [
    ("not json at all", "not JSON"),
    ("[1, 2, 3]", "an object"),
    ('"act"', "an object"),
    ("{}", "unknown message type None"),
    ('{"type": "cheat"}', "unknown message type 'cheat'"),
    ('{"type": "act", "action": {"bid": 3}}', '"version"'),
    ('{"type": "act", "version": true, "action": {"bid": 3}}', '"version"'),
    ('{"type": "act", "version": 0}', '"action"'),
    ('{"type": "act", "version": 0, "action": "bid 3"}', '"action"'),
    ('{"type": "act", "version": 0, "action": {"bid": "lots"}}', "a bid is"),
    ('{"type": "act", "version": 0, "action": {"play": "ZZ"}}', "not a card"),
    ('{"type": "act", "version": 0, "action": {"bid": 3, "play": "AS"}}', "exactly one"),
    ('{"type": "act", "version": 0, "action": {"seat": 1, "bid": 3}}', 'no "seat"'),
    ('{"type": "act", "version": 0, "action": {"look": "yes"}}', '{"look": true}'),
    ("x" * 20000, "over 16384"),
    (b"\x00\xffbinary", "not binary"),
]


def test_garbage_on_the_socket_is_refused_without_harm(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            assert state["version"] == 0
            before = snapshot(tmp_path, game_id)
            for garbage, words in GARBAGE:
                if isinstance(garbage, bytes):
                    ws.send_bytes(garbage)
                else:
                    ws.send_text(garbage)
                error, now = refused(driver)
                assert error["code"] == "bad-message", (garbage, error)
                assert words in error["message"], (garbage, error)
                assert now["version"] == state["version"] and now["view"] == state["view"]
            assert snapshot(tmp_path, game_id) == before
            ws.send_text(json.dumps({"type": "ping"}))
            assert driver.recv() == {"type": "pong"}
            ws.send_text(json.dumps({"type": "sync"}))
            assert driver.recv()["view"] == state["view"]
            driver.act({"bid": 1})
            assert driver.until_decision()["view"]["bids"][0] == 1


def test_a_wrong_game_or_player_is_not_found(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        for path, player in (("/api/games/nosuchgame/ticket", "player-0000-aaaa"),
                             (f"/api/games/{game_id}/ticket", "player-1111-bbbb"),
                             ("/api/games/bad%24id/ticket", "player-0000-aaaa")):
            answer = http.post(path, headers={"X-Spades-Player": player})
            assert answer.status_code == 404, path
            assert answer.json() == {"error": NOT_FOUND}
            assert "ticket" not in answer.text
    game = stored(tmp_path, game_id)
    assert game.game.version == 0 and true_states(game)[-1].hand.actions == ()


def test_a_stored_game_that_no_longer_replays_is_reported_not_served(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
    store = Store(db_url(tmp_path))
    try:  # a row the rules refuse (not seat 3's turn), as a broken save would hold
        store.append_action(game_id, 0, ActionRow(seq=1, hand=0, seat=3,
                                                  action={"seat": 3, "bid": 4}))
    finally:
        store.close()
    with client(tmp_path) as http:
        with open_table(http, game_id) as ws:
            message = ws.receive_json()
            assert message["type"] == "error" and message["code"] == "server"
            assert ws.receive()["code"] == 1011
        response = http.get(f"/api/games/{game_id}/record", headers=HEADERS)
        assert response.status_code == 503
        assert http.get(f"/api/games/{game_id}", headers=HEADERS).status_code == 200
