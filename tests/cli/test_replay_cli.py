"""`spades replay` on the shared example records: the exact --json output, and exit code 2
with the hand and action numbers for a bad record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECORDS = Path(__file__).resolve().parents[3] / "shared" / "records"
EXPECTED = json.loads((RECORDS / "expected.json").read_text()) if RECORDS.exists() else {}

pytestmark = pytest.mark.skipif(not RECORDS.exists(),
                                reason="shared/records is not beside the project")


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
