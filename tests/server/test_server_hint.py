"""The card hint on the game's socket (issue 41 item 1): Hard's legal card and a reason on
the person's turn to play, refused with a clear message otherwise (not your turn, a version
the table moved on from, a friends' table whose host did not allow hints), nothing stored;
a game played with a hint is practice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from friends_kit import as_player, make_table
from server_testkit import Driver, client, new_game_id, open_table, stored

from spades.engine import practice_of
from spades.session import state_from_store
from spades.session.hinting import HINTS_OFF, MOVED_ON, NOT_NOW

pytestmark = pytest.mark.timeout(120)

ANN = "player-ann-00001"


def answer(driver: Driver) -> dict[str, Any]:
    """The next hint or hint error, past any other frame."""
    while True:
        message = driver.recv()
        if message["type"] == "hint" or message.get("intent") == "hint":
            return message


def until_play(driver: Driver, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state of seat 0's next turn to play with a choice of cards (from ``state``)."""
    state = state or driver.until_decision()
    while state["legal"]["kind"] != "play" or len(state["legal"]["cards"]) < 2:
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def test_a_hint_is_a_legal_card_with_its_reason_and_changes_nothing(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            assert state["legal"]["kind"] == "bid"
            driver.send({"type": "hint", "version": state["version"]})
            refused = answer(driver)
            assert refused["code"] == "hint" and refused["message"] == NOT_NOW
            state = until_play(driver, state)
            before = stored(tmp_path, game_id)
            assert practice_of(state_from_store(before)) == ()
            driver.send({"type": "hint", "version": state["version"]})
            hint = answer(driver)
            assert hint["version"] == state["version"] and hint["level"] == "hard"
            assert hint["card"] in state["legal"]["cards"]
            assert set(hint["equals"]) <= set(state["legal"]["cards"])
            assert hint["reason"].endswith(".") and len(hint["reason"]) > 10
            hinted = stored(tmp_path, game_id)
            assert hinted.actions == before.actions  # nothing was played
            # a game played with hints is practice: its statistics count apart
            assert practice_of(state_from_store(hinted)) == ("hint",)
            driver.send({"type": "hint", "version": state["version"] - 1})
            stale = answer(driver)
            assert stale["code"] == "hint" and stale["message"] == MOVED_ON
            driver.send({"type": "hint"})
            bad = driver.recv()
            assert bad["code"] == "bad-message" and '"hint" needs the "version"' in bad["message"]
            same = driver.recv()  # a malformed message gets the table as it is
            assert same["type"] == "state" and same["version"] == state["version"]
            driver.act({"play": hint["card"]})  # and the table goes on
            after = driver.recv()
            assert after["type"] == "state" and after["version"] > state["version"]


def test_no_hint_at_a_friends_table_without_hints(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="house", hints=False)
        started = http.post(f"/api/tables/{made['id']}/start", headers=as_player(ANN))
        assert started.status_code == 200
        with open_table(http, made["id"], ANN) as ws:
            driver = Driver(ws)
            state = until_play(driver)
            driver.send({"type": "hint", "version": state["version"]})
            refused = answer(driver)
            assert refused["code"] == "hint" and refused["message"] == HINTS_OFF
