"""``spades arena`` on the command line: the report, JSON, the plot, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spades.cli.main import main


def test_arena_prints_a_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "easy", "random", "--deals", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "points per deal" in out and "easy" in out and "random" in out
    assert "bids made" in out and "decision p95" in out


def test_arena_json_and_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "random", "easy", "--preset", "jokers", "--set", "target_score=300",
                 "--deals", "2", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["preset"] == "jokers"
    assert report["rules"] == {"target_score": 300}
    assert report["deals"] == 2 and report["hands"] == 4 and report["mode"] == "deals"
    first, second = report["levels"]
    assert (first["label"], second["label"]) == ("random", "easy")
    assert first["duplicate_points"]["value"] == pytest.approx(
        -second["duplicate_points"]["value"])
    assert report["margin"]["value"] == pytest.approx(first["duplicate_points"]["value"])


def test_arena_games_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "hard:iterations=8", "random", "--set", "target_score=100",
                 "--set", "losing_score=-100", "--games", "1", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "games"
    assert report["levels"][0]["games"] == 2
    assert report["levels"][0]["label"] == "hard:iterations=8"


def test_arena_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "arena.png"
    assert main(["arena", "easy", "random", "--deals", "2", "--plot", str(target)]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "plot written" in capsys.readouterr().out


@pytest.mark.parametrize("argv, words", [
    (["arena", "grandmaster", "easy"], "unknown level"),
    (["arena", "hard:depth=3", "easy", "--deals", "1"], "depth"),
    (["arena", "easy", "random", "--set", "players=9"], "players"),
    (["arena", "easy", "random", "--deals", "0"], "at least 1"),
])
def test_arena_errors_are_clear(argv: list[str], words: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_arena_against_a_field(capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parents[2])  # "frozen" is bench/yardstick
    code = main(["arena", "easy", "--field", "random,frozen", "--deals", "2", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["levels"][1]["label"] == "field[random,frozen]"
    assert [part["levels"][1]["label"] for part in report["field"]] == ["random", "frozen"]
    calibration = report["levels"][0]["calibration"]
    assert [row["position"] for row in calibration] == [1, 2, 3, 4]
    assert sum(row["bids"] for row in calibration) > 0
    assert main(["arena", "easy", "--field", "random,normal", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "against each opponent of the field" in out and "1st to bid" in out


@pytest.mark.parametrize("argv", [["arena", "easy"],
                                  ["arena", "easy", "random", "--field", "normal"],
                                  ["arena", "easy", "--field", "normal,nobody"],
                                  ["arena", "easy", "bench/no-such-player"]])
def test_arena_opponent_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "spades arena:" in capsys.readouterr().err


def test_arena_says_how_the_chairs_were_assigned(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 40: the report names the seating; ``--chairs every`` plays each three-player
    deal in all three splits of the chairs, twice each."""
    assert main(["arena", "random", "easy", "--preset", "three-player", "--deals", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as the terminal wraps it
    assert "chairs: each deal twice with the chairs swapped; the 3 ways" in out
    assert "seats' mean)" in out  # the row of each player's own points
    code = main(["arena", "random", "easy", "--preset", "three-player", "--deals", "1",
                 "--chairs", "every", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 6 and "6 runs a deal" in report["chairs"]
    first, second = report["levels"]
    assert report["margin"]["value"] == pytest.approx(
        first["points"]["value"] - second["points"]["value"])
