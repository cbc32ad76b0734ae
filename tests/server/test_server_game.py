"""Whole games through the websocket, seat 0 driven by the test as a browser would; every
frame is checked against the true state so that no other seat's card ever shows."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from server_testkit import (
    HEADERS,
    Driver,
    assert_hides,
    check_frames,
    client,
    hidden_cards,
    new_game_id,
    open_table,
    shown,
    stored,
    true_states,
)

from spades.engine import GameState, load_record
from spades.store import StoredGame

pytestmark = pytest.mark.timeout(120)

COMPUTER_KINDS = ("bid", "play", "draw", "pass", "exchange")


def play_whole_game(tmp_path: Path, preset: str, seed: int, hands: int = 1000,
                    **settings: Any) -> dict[str, Any]:
    """Play seat 0 at random until the game is over (or ``hands`` hands are done)."""
    with client(tmp_path, **settings) as http:
        game_id = new_game_id(http, preset, target_score=250, mercy=True)
        with open_table(http, game_id) as ws:
            driver = Driver(ws, random.Random(seed))
            state = driver.until_decision()
            decisions = 0
            bodies: list[tuple[int, str, Any]] = []
            while not state["view"]["over"] and state["view"]["hand_number"] <= hands:
                if decisions % 7 == 0:  # what the page could fetch meanwhile
                    for path in (f"/api/games/{game_id}/record", f"/api/games/{game_id}",
                                 "/api/games"):
                        bodies.append((state["step"], path,
                                       http.get(path, headers=HEADERS).json()))
                action = driver.choose(state)
                driver.act(action)
                decisions += 1
                state = driver.until_decision()
                assert decisions < 3000
        downloaded = http.get(f"/api/games/{game_id}/record", headers=HEADERS)
        listed = http.get("/api/games", headers=HEADERS).json()["games"]
    return {"id": game_id, "frames": driver.frames, "final": state, "decisions": decisions,
            "record": downloaded, "listed": listed, "bodies": bodies}


def check_bodies(run: dict[str, Any], game: StoredGame) -> None:
    """HTTP bodies fetched during the game hold nothing hidden; the seed never leaves."""
    states = true_states(game)
    assert run["bodies"]
    for step, path, body in run["bodies"]:
        state = states[step]
        if path.endswith("/record"):
            assert_download_hides(body, state, (state.hand.number, 0) in game.looks)
        else:
            codes, _ = shown(body)
            assert not codes, (path, body)
    everything = json.dumps([run["frames"], [b for _, _, b in run["bodies"]],
                             run["record"].json(), run["listed"]])
    assert game.game.seed not in everything


def test_a_whole_game_through_the_process_pool(tmp_path: Path) -> None:
    run = play_whole_game(tmp_path, "house", seed=1, workers=1)
    game = stored(tmp_path, run["id"])
    truth = true_states(game)[-1]
    final = run["final"]
    assert truth.over and final["view"]["over"]
    assert final["view"]["scores"] == list(truth.scores)
    assert final["view"]["winner"] == truth.winner
    assert final["step"] == len(game.actions) and final["version"] == game.game.version
    assert [e["kind"] for e in final["events"]][-2:] == ["hand", "game"]
    assert check_frames(run["frames"], game) > run["decisions"]
    check_bodies(run, game)

    # a computer player's every decision is announced before its state arrives
    frames = run["frames"]
    computer_moves = 0
    for before, frame in itertools.pairwise(frames):
        if frame["type"] != "state" or not frame["events"]:
            continue
        first = frame["events"][0]
        if first["kind"] in COMPUTER_KINDS and first.get("seat", first.get("from")) != 0:
            computer_moves += 1
            assert before["type"] == "thinking" and before["seat"] == first.get(
                "seat", first.get("from")), (before, first)
    assert computer_moves > 3 * run["decisions"] // 2

    # every card played is told, with its winner, to a screen reader
    plays = [e for f in frames if f["type"] == "state" for e in f["events"]
             if e["kind"] == "play"]
    tricks = [e for f in frames if f["type"] == "state" for e in f["events"]
              if e["kind"] == "trick"]
    played = sum(len(r.history) for r in true_states(game)[-1].results) * 4
    assert len(plays) == played and len(tricks) == played // 4
    assert all(e["text"] for e in plays + tricks)

    # the finished game downloads whole and replays to the same result
    assert run["record"].status_code == 200
    record = run["record"].json()
    assert record["result"] == {"scores": list(truth.scores), "winner": truth.winner}
    assert "seed" not in record
    assert load_record(record).scores == truth.scores
    (summary,) = run["listed"]
    assert summary["status"] == "over" and summary["scores"] == list(truth.scores)
    assert summary["hands"] == len(truth.results)


@pytest.mark.parametrize("preset", ["two-player", "three-player-kitty", "five-player",
                                    "suicide", "cutthroat"])
def test_other_variants_show_no_hidden_card(tmp_path: Path, preset: str) -> None:
    run = play_whole_game(tmp_path, preset, seed=3, hands=3)
    game = stored(tmp_path, run["id"])
    truth = true_states(game)[-1]
    assert len(truth.results) >= 3 or truth.over
    assert run["final"]["view"]["scores"] == list(truth.scores)
    assert run["final"]["step"] == len(game.actions)
    assert check_frames(run["frames"], game) > run["decisions"]
    check_bodies(run, game)
    # the download of a game in play holds only what seat 0 has seen
    record = run["record"].json()
    if truth.over:
        assert load_record(record).scores == truth.scores
    else:
        assert "deck" not in record["hands"][-1]
        assert_download_hides(record, truth, (truth.hand.number, 0) in game.looks)


def assert_download_hides(record: dict[str, Any], truth: GameState, looked: bool) -> None:
    finished = record["hands"][:-1]
    assert len(finished) == len(truth.results)
    for hand, result in zip(finished, truth.results, strict=True):
        assert hand["deck"] == [str(c) for c in result.deck]
    assert_hides(record["hands"][-1], hidden_cards(truth, 0, looked), "the download")
