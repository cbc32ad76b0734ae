"""`spades verify`: exit 0 when every revealed hand checks, 1 on any mismatch (a tampered deck,
seed, salt, commitment or entropy string each fails), 2 when the record cannot be read; hands
not revealed are shown, not failed."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades.engine import PRESETS, add_entropy, apply, legal_actions, new_game, record_of


def spades(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def _record() -> dict[str, Any]:
    """Two finished hands revealed (the second with players' entropy) and one in play."""
    state = new_game(PRESETS["partnership"], seed="verify-cli")
    state = add_entropy(state, 1, ["alice", "bob"])
    rng = random.Random(5)
    while len(state.results) < 2:
        state = apply(state, rng.choice(legal_actions(state)))
    data = record_of(state, reveal=True)
    assert data["hands"][1]["entropy"] == ["alice", "bob"]
    return data


RECORD = _record()


def run(data: Any, tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return spades("verify", str(path), *extra)


def test_an_honest_record_is_verified_and_the_hand_in_play_not_revealed(tmp_path: Path) -> None:
    result = run(RECORD, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "hand 1: shuffle verified" in result.stdout
    assert "hand 2: shuffle verified" in result.stdout
    assert "hand 3: not revealed" in result.stdout
    assert "Every revealed shuffle verified (2 verified, 1 not revealed)." in result.stdout
    out = run(RECORD, tmp_path, "--json")
    assert out.returncode == 0
    report = json.loads(out.stdout)
    assert report["verified"] is True
    assert [h["status"] for h in report["hands"]] == ["verified", "verified", "not revealed"]


def _swap_within_a_seat(hand: dict[str, Any]) -> None:
    # positions 0 and 4 are dealt to the same seat: the plays still fit, the seed does not
    hand["deck"][0], hand["deck"][4] = hand["deck"][4], hand["deck"][0]


def _other_seed(hand: dict[str, Any]) -> None:
    hand["seed"] = ("0" if hand["seed"][0] != "0" else "1") + hand["seed"][1:]


def _other_commitment(hand: dict[str, Any]) -> None:
    hand["commitment"] = hand["commitment"][::-1]


def _other_salt(hand: dict[str, Any]) -> None:
    hand["salt"] = "f" * 32


def _other_entropy(hand: dict[str, Any]) -> None:
    hand["entropy"] = ["alice", "bob!"]


@pytest.mark.parametrize(("tamper", "checks"), [
    (_swap_within_a_seat, {"deck"}),
    (_other_seed, {"commitment", "deck"}),
    (_other_commitment, {"commitment"}),
    (_other_salt, {"commitment"}),
    (_other_entropy, {"deck"}),
])
def test_each_tampering_fails(tamper: Any, checks: set[str], tmp_path: Path) -> None:
    data = copy.deepcopy(RECORD)
    tamper(data["hands"][1])
    result = run(data, tmp_path, "--json")
    assert result.returncode == 1, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["verified"] is False
    first, second = report["hands"][:2]
    assert first["status"] == "verified"
    assert second["status"] == "mismatch"
    assert {p["check"] for p in second["problems"]} == checks
    text = run(data, tmp_path)
    assert text.returncode == 1
    assert "hand 2: " in text.stdout and "MISMATCH" in text.stdout


def test_a_deck_that_does_not_fit_the_plays_fails_with_the_card(tmp_path: Path) -> None:
    data = copy.deepcopy(RECORD)
    deck = data["hands"][0]["deck"]
    deck[0], deck[1] = deck[1], deck[0]  # dealt to two different seats
    result = run(data, tmp_path)
    assert result.returncode == 1
    assert "hand 1: the deck does not match the revealed seed: card 1 should be the" \
        in result.stdout
    assert "the cards dealt and played do not fit the deck" in result.stdout


def test_a_record_without_seeds_is_not_a_failure(tmp_path: Path) -> None:
    data = copy.deepcopy(RECORD)
    for hand in data["hands"]:
        for key in ("seed", "salt", "commitment", "commitment_scheme", "entropy"):
            hand.pop(key, None)
    result = run(data, tmp_path)
    assert result.returncode == 0, result.stdout
    assert result.stdout.count("not revealed, nothing to check") == 3
    assert "No shuffle is revealed" in result.stdout


def test_a_seed_without_its_commitment_is_shown(tmp_path: Path) -> None:
    data = copy.deepcopy(RECORD)
    del data["hands"][0]["commitment"]
    result = run(data, tmp_path)
    assert result.returncode == 0
    assert "hand 1: the deck is the one its seed gives, but no commitment" in result.stdout


def test_an_unknown_commitment_scheme_is_a_mismatch(tmp_path: Path) -> None:
    data = copy.deepcopy(RECORD)
    data["hands"][0]["commitment_scheme"] = "md5"
    result = run(data, tmp_path)
    assert result.returncode == 1
    assert "commitment scheme 'md5' is unknown" in result.stdout


@pytest.mark.parametrize(("content", "reason"), [
    ("{not json", "is not JSON"),
    (json.dumps({"format": "spades-record/9", "hands": []}), '"format" must be'),
    (json.dumps({**RECORD, "hands": [{"deck": 5, "actions": []}]}), '"deck" must be'),
])
def test_unreadable_records_exit_2(content: str, reason: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = spades("verify", str(path))
    assert result.returncode == 2
    assert reason in result.stderr
    assert spades("verify", str(tmp_path / "missing.json")).returncode == 2


def test_standard_input() -> None:
    result = spades("verify", "-", stdin=json.dumps(RECORD))
    assert result.returncode == 0, result.stderr
    assert "shuffle verified" in result.stdout
