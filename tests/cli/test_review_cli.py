"""`spades review`: the table, --json, --hand, and exit code 2 for a bad record or a hand
that is not finished."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from spades.engine import apply, find_preset, legal_actions, new_game, record_of


def spades(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-player game with its first hand finished (random legal play) and the second
    dealt, not yet played."""
    rng = random.Random("test-review-cli")
    state = new_game(find_preset("two-player"), 7)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(json.dumps(record_of(state, ["Ann", "Bob"])))
    return path


def test_json_reviews_every_finished_hand(record: Path) -> None:
    result = spades("review", str(record), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["format"] == "spades-review/1"
    assert [h["hand"] for h in data["hands"]] == [1]
    hand = data["hands"][0]
    assert len(hand["plays"]) == 26
    assert sum(s["took"] for s in hand["sides"]) == 13
    assert sum(s["par"] for s in hand["sides"]) == 13  # two sides: zero-sum
    for play in hand["plays"]:
        assert 0 <= play["after"] <= 13 and play["cost"] == play["before"] - play["after"]


def test_the_table_shows_bids_par_and_each_play(record: Path) -> None:
    data = json.loads(spades("review", str(record), "--json", "--hand", "1").stdout)
    result = spades("review", str(record), "--hand", "1")
    assert result.returncode == 0, result.stderr
    assert "double-dummy par" in result.stdout
    for play in data["hands"][0]["plays"]:
        assert play["card"] in result.stdout
    marked = sum(1 for p in data["hands"][0]["plays"] if p["marks"])
    assert f"{marked} play(s) marked" in result.stdout


def test_a_hand_in_play_is_refused(record: Path) -> None:
    result = spades("review", str(record), "--hand", "2")
    assert result.returncode == 2
    assert "hand 2 is still in play" in result.stderr
    assert result.stdout == ""
    result = spades("review", str(record), "--hand", "9")
    assert result.returncode == 2 and "no hand 9" in result.stderr


@pytest.mark.parametrize(("text", "message"), [
    ("{", "is not JSON"),
    ('{"format": "spades-record/9"}', '"format" must be'),
    ("NaN", "not a JSON number"),
])
def test_an_unreadable_record_exits_2(text: str, message: str) -> None:
    result = spades("review", "-", stdin=text)
    assert result.returncode == 2
    assert message in result.stderr


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    result = spades("review", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "cannot read it" in result.stderr
