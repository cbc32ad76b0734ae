"""``POST /api/games/{id}/hands/{n}/again`` (issue 41 item 3, docs/protocol.md): a new game
dealt the very cards of a finished hand, the person in the same seat, from 0-0 or the scores
before it; its first commitment says the deal was chosen; refusals change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_testkit import HEADERS, Driver, client, new_game_id, open_table, stored

from spades.session import state_from_store

pytestmark = pytest.mark.timeout(90)


def _play_until_hand(driver: Driver, state: dict[str, Any], number: int) -> dict[str, Any]:
    """Play seat 0 from ``state`` until hand ``number`` (from 1) is dealt; its first
    state."""
    while state["view"]["hand_number"] < number:
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def test_a_deal_played_again_deals_me_the_same_13_cards(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            first = driver.until_decision()
            mine = sorted(first["view"]["hand"])
            _play_until_hand(driver, first, 2)
        response = http.post(f"/api/games/{game_id}/hands/1/again", json={}, headers=HEADERS)
        assert response.status_code == 201, response.text
        again = response.json()["id"]
        with open_table(http, again) as ws:
            state = Driver(ws).until_decision()
        assert sorted(state["view"]["hand"]) == mine
        assert state["view"]["dealer"] == first["view"]["dealer"]
        assert state["shuffle"]["committed"][0] == {"hand": 1, "commitment": None,
                                                    "commitment_scheme": "chosen",
                                                    "entropy": []}
        assert state["game"]["players"][0] == first["game"]["players"][0]
    game = stored(tmp_path, again)
    assert game.game.options["again"] == {"game": game_id, "hand": 1}
    assert game.game.options["start"] == {"scores": [0, 0], "bags": [0, 0]}
    assert state_from_store(game).start is not None


def test_from_the_scores_before_the_hand(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            _play_until_hand(driver, driver.until_decision(), 3)
        response = http.post(f"/api/games/{game_id}/hands/2/again",
                             json={"from_scores": True}, headers=HEADERS)
        assert response.status_code == 201, response.text
        again = response.json()["id"]
    old = state_from_store(stored(tmp_path, game_id))
    new = state_from_store(stored(tmp_path, again))
    assert new.scores == old.results[0].score.scores
    assert new.bags == old.results[0].score.bags
    assert new.hand.deck == old.results[1].deck


def test_refusals(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        url = f"/api/games/{game_id}/hands/1/again"
        in_play = http.post(url, json={}, headers=HEADERS)
        assert in_play.status_code == 409 and "not a finished hand" in in_play.json()["error"]
        other = http.post(url, json={}, headers={"X-Spades-Player": "someone-else-999"})
        assert other.status_code == 404
        bad = http.post(url, json={"from_scores": "yes"}, headers=HEADERS)
        assert bad.status_code == 400
        zero = http.post(f"/api/games/{game_id}/hands/0/again", json={}, headers=HEADERS)
        assert zero.status_code == 400
        games = http.get("/api/games", headers=HEADERS).json()["games"]
        assert [g["id"] for g in games] == [game_id]  # nothing was made
