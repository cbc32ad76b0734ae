"""`spades replay` on the example records (tests/golden/records, the project's copies of the
shared examples): the exact --json output, and exit code 2
with the hand and action numbers for a bad record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spades.engine import GameState

RECORDS = Path(__file__).resolve().parents[1] / "golden" / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text())


def spades(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", [n for n, e in EXPECTED.items() if "replay_json" in e])
def test_replay_json_matches_expected(name: str) -> None:
    result = spades("replay", str(RECORDS / f"{name}.json"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == EXPECTED[name]["replay_json"]


@pytest.mark.parametrize("name", [n for n, e in EXPECTED.items() if "replay_json" in e])
def test_replay_text_shows_each_hand_and_the_result(name: str) -> None:
    result = spades("replay", str(RECORDS / f"{name}.json"))
    assert result.returncode == 0, result.stderr
    expected = EXPECTED[name]["replay_json"]
    assert f"Hand {len(expected['hands'])}" in result.stdout
    for score in expected["final"]["scores"]:
        assert str(score) in result.stdout
    assert "Game not finished" in result.stdout


def test_illegal_record_exits_2_naming_hand_and_action() -> None:
    result = spades("replay", str(RECORDS / "illegal_revoke.json"))
    assert result.returncode == EXPECTED["illegal_revoke"]["exit_code"] == 2
    assert "hand 1, action 6" in result.stderr
    assert "follow" in result.stderr
    assert result.stdout == ""


def test_malformed_input_exits_2_with_a_message(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = spades("replay", str(bad))
    assert result.returncode == 2
    assert "not JSON" in result.stderr
    missing = spades("replay", str(tmp_path / "missing.json"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    shape = spades("replay", "-", stdin=json.dumps({"format": "spades-record/1", "hands": [
        {"deck": ["AS"], "actions": []}]}))
    assert shape.returncode == 2 and "hand 1" in shape.stderr and "deck" in shape.stderr


def test_bad_card_in_an_action_names_its_place() -> None:
    data = json.loads((RECORDS / "seed000_bid6_take7.json").read_text())
    data["hands"][0]["actions"][30] = {"seat": data["hands"][0]["actions"][30]["seat"],
                                       "play": "XX"}
    result = spades("replay", "-", stdin=json.dumps(data))
    assert result.returncode == 2
    assert "hand 1, action 31" in result.stderr and "'XX' is not a card" in result.stderr


def _finished_record(tmp_path: Path, preset: str, players: list[str] | None,
                     **options: object) -> tuple[Path, GameState]:
    """A whole game of random play, written as a record."""
    import random

    from spades.ai.simple import RandomPlayer
    from spades.engine import apply, find_preset, new_game, player_view, record_of

    rules = find_preset(preset).with_options(**options)
    state = new_game(rules, seed=4)
    rng = random.Random(4)
    bot = RandomPlayer()
    while not state.over:
        state = apply(state, bot.choose(player_view(state, state.hand.turn), rng))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record_of(state, players)))
    return path, state


@pytest.mark.parametrize("preset,players,winners", [
    ("partnership", ["You", "Bramble", "Juniper", "Clover"], ("and", "win,")),
    ("two-player", ["Juniper", "Bramble"], ("wins,",)),
])
def test_replay_says_who_won_in_good_grammar_and_why(
        tmp_path: Path, preset: str, players: list[str], winners: tuple[str, ...]) -> None:
    from spades.engine import end_reason

    path, state = _finished_record(tmp_path, preset, players, target_score=200,
                                   losing_score=-200)
    last = state.results[-1]
    reason = end_reason(state.rules, last.bids, last.tricks, last.score)
    assert reason is not None
    text = spades("replay", str(path))
    assert text.returncode == 0, text.stderr
    (over,) = [line for line in text.stdout.splitlines() if line.startswith("Game over")]
    assert "win(s)" not in over
    assert state.winner is not None
    winner = [players[s] for s in state.rules.sides[state.winner]]
    assert over.startswith(f"Game over: {' and '.join(winner)} win"), over
    for word in winners:
        assert word in over, over
    words = {"target": "reached the target of 200", "mercy": "mercy rule",
             "boston": "Boston", "moon": "moon"}[reason]
    assert words in over, over
    data = json.loads(spades("replay", str(path), "--json").stdout)
    assert data["final"]["over"] is True
    assert data["final"]["reason"] == reason
