"""Undo over the websocket (issue 41 item 2, docs/protocol.md): ``{"undo": true}`` takes
back seat 0's last card and the computer players' answers when the house rule is on; the
``undo`` event names only cards already seen; the undo is a new stored row and the game
still replays; without the house rule it is refused and nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_testkit import Driver, check_frames, client, new_game_id, open_table, stored

from spades.session import state_from_store

pytestmark = pytest.mark.timeout(60)


def _to_my_first_card(driver: Driver) -> dict[str, Any]:
    """Bid, play seat 0's first card and read until seat 0 must act again."""
    state = driver.until_decision()
    while state["legal"]["kind"] != "play":
        driver.act(driver.choose(state))
        state = driver.until_decision()
    driver.act(driver.choose(state))
    return driver.until_decision()


def test_an_undo_takes_back_my_card_and_what_the_computer_players_played(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, undo=True)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = _to_my_first_card(driver)
            assert state["can_undo"] is True
            assert state["game"]["rules"]["undo"] is True
            before = stored(tmp_path, game_id)
            driver.act({"undo": True})
            message = driver.recv()
            while message["type"] != "state" or not message["events"]:
                message = driver.recv()
            undone = message["events"][0]
            assert undone["kind"] == "undo" and undone["seat"] == 0
            assert undone["text"].startswith("You take back your ")
            taken = [a["play"] for a in undone["taken"] if "play" in a]
            played = [e["card"] for f in driver.frames[:-1] if f["type"] == "state"
                      for e in f["events"] if e["kind"] == "play"]
            assert taken and set(taken) <= set(played)  # only cards already seen
            assert taken[0] in message["view"]["hand"]  # my card is back in my hand
            assert message["legal"]["kind"] == "play"
    after = stored(tmp_path, game_id)
    assert len(after.actions) == len(before.actions) + 1
    assert after.actions[-1].action == {"seat": 0, "undo": undone["count"]}
    assert state_from_store(after).undos
    assert check_frames(driver.frames, after) > 0


def test_undo_is_refused_without_the_house_rule(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = _to_my_first_card(driver)
            assert state["can_undo"] is False
            before = stored(tmp_path, game_id)
            driver.act({"undo": True})
            error = driver.recv()
            while error["type"] != "error":
                error = driver.recv()
            assert error["code"] == "illegal" and "Allow undo" in error["message"]
    assert len(stored(tmp_path, game_id).actions) == len(before.actions)
