"""`spades review`'s Hard column (issue 41 item 4): beside the people's bids and cards of a
record, what Hard would have done; chosen seats with --hard, none with --hard none, a bad
seat refused (exit code 2)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from spades.engine import apply, find_preset, legal_actions, new_game, record_of


def spades(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args],
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A two-player game, its first hand finished; seat 0 a person, seat 1 Hard."""
    rng = random.Random("test-review-hard")
    state = new_game(find_preset("two-player"), 7)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    path = tmp_path_factory.mktemp("review") / "game.json"
    path.write_text(json.dumps(record_of(state, ["Ann", "Hard"], levels=[None, "hard"])))
    return path


def test_the_people_get_a_hard_column(record: Path) -> None:
    result = spades("review", str(record), "--json")
    assert result.returncode == 0, result.stderr
    hand = json.loads(result.stdout)["hands"][0]
    choices = hand["hard"]["choices"]
    assert {c["seat"] for c in choices} == {0}  # the record's person only
    cards = [c for c in choices if c["kind"] == "play"]
    assert len(cards) == 13
    mine = [p for p in hand["plays"] if p["seat"] == 0]
    assert [c["played"] for c in cards] == [p["card"] for p in mine]
    again = json.loads(spades("review", str(record), "--json").stdout)["hands"][0]["hard"]
    assert again == hand["hard"]  # the same review says the same thing


def test_the_table_shows_it_and_seats_may_be_chosen(record: Path) -> None:
    table = spades("review", str(record), "--hand", "1", "--hard", "1")
    assert table.returncode == 0, table.stderr
    assert "Seat 1 bid" in table.stdout and "Hard would have bid" in table.stdout
    assert "hard: the card Hard would have played" in table.stdout
    none = json.loads(spades("review", str(record), "--json", "--hard", "none").stdout)
    assert "hard" not in none["hands"][0]
    bad = spades("review", str(record), "--hard", "5")
    assert bad.returncode == 2 and "the seats are 0 to 1" in bad.stderr
