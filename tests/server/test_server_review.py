"""The hand review at the table (docs/protocol.md): only for a finished hand (for the hand in
play an error and nothing else), its progress then the review over the websocket, computed
once per (game, hand), and the same over HTTP."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from server_testkit import (
    HEADERS,
    Driver,
    client,
    new_game_id,
    open_table,
    stored,
    true_states,
)

from spades.engine import CODE_OF

pytestmark = pytest.mark.timeout(120)


def finish_first_hand(driver: Driver) -> dict[str, Any]:
    """Seat 0 plays at random until hand 2 is dealt; the state then."""
    state = driver.until_decision()
    while state["view"]["hand_number"] == 1:
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def until(driver: Driver, kind: str) -> list[dict[str, Any]]:
    """The frames up to the first of ``kind`` (included)."""
    frames = []
    for _ in range(500):
        frames.append(driver.recv())
        if frames[-1]["type"] == kind:
            return frames
    raise AssertionError(f"no {kind} came")


def test_the_hand_in_play_gets_an_error_and_nothing_else(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "two-player")
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            driver.until_decision()
            driver.send({"type": "review", "hand": 1})
            error = driver.recv()
            driver.send({"type": "ping"})
            after = driver.recv()
        refused = http.get(f"/api/games/{game_id}/hands/1/review", headers=HEADERS)
        missing = http.get(f"/api/games/{game_id}/hands/2/review", headers=HEADERS)
        computed = http.app.state.lobby.reviews.computed  # type: ignore[attr-defined]
    assert error["type"] == "error" and error["code"] == "review" and error["hand"] == 1
    assert "still in play" in error["message"]
    assert set(error) == {"type", "code", "hand", "message"}  # no card, no state
    assert after == {"type": "pong"}  # nothing else came between
    assert refused.status_code == 409 and "still in play" in refused.json()["error"]
    assert missing.status_code == 404
    assert computed == 0


@pytest.mark.parametrize("message", [{"type": "review"}, {"type": "review", "hand": "1"},
                                     {"type": "review", "hand": 0},
                                     {"type": "review", "hand": True}])
def test_a_review_needs_a_hand_number(tmp_path: Path, message: dict[str, Any]) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "two-player")
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            driver.until_decision()
            driver.send(message)
            error = driver.recv()
    assert error["code"] == "bad-message" and '"hand"' in error["message"]


def test_a_finished_hand_is_reviewed_with_its_progress_and_then_kept(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http, "two-player")
        with open_table(http, game_id) as ws:
            driver = Driver(ws, random.Random(3))
            finish_first_hand(driver)
            driver.send({"type": "review", "hand": 1})
            first = until(driver, "review")
            driver.send({"type": "review", "hand": 1})
            again = until(driver, "review")
        reviews = http.app.state.lobby.reviews  # type: ignore[attr-defined]
        computed = reviews.computed
        over_http = http.get(f"/api/games/{game_id}/hands/1/review", headers=HEADERS)
        other = http.get(f"/api/games/{game_id}/hands/1/review",
                         headers={"X-Spades-Player": "somebody-else-0000"})
        computed_after = reviews.computed
    progress = [f for f in first if f["type"] == "review-progress"]
    assert progress, "no progress was told"
    assert all(p["hand"] == 1 and 0 < p["done"] <= p["total"] for p in progress)
    assert progress[-1]["done"] == progress[-1]["total"]
    review = first[-1]
    assert review["hand"] == 1 and review["review"]["format"] == "spades-review/1"
    # the review is of the hand as played: every card in the order played
    game = stored(tmp_path, game_id)
    hand_one = true_states(game)[-1].results[0]
    played = [CODE_OF[card] for trick in hand_one.history for card in trick.cards]
    assert [p["card"] for p in review["review"]["plays"]] == played
    assert sum(s["took"] for s in review["review"]["sides"]) == 13
    # asked again: the same review at once, no progress, not worked out again
    assert [f["type"] for f in again if f["type"].startswith("review")] == ["review"]
    assert again[-1] == review
    assert computed == 1 and computed_after == 1
    assert over_http.status_code == 200 and over_http.json()["review"] == review["review"]
    assert other.status_code == 404
