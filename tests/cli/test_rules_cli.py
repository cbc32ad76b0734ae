"""`spades rules` lists every preset and option with what it does."""

from __future__ import annotations

import json
import subprocess
import sys

from spades.engine import OPTION_HELP, PRESETS


def spades(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args],
                          capture_output=True, text=True, timeout=60)


def test_lists_every_preset_and_option() -> None:
    result = spades("rules")
    assert result.returncode == 0, result.stderr
    for name in PRESETS:
        assert f"  {name} " in result.stdout
    for option, text in OPTION_HELP.items():
        assert option in result.stdout and text[:30] in result.stdout


def test_one_preset_shows_its_values() -> None:
    result = spades("rules", "three-player")
    assert result.returncode == 0
    assert "3 players, 54 cards, 18 each" in result.stdout
    assert "jokers" in result.stdout and "true" in result.stdout
    assert spades("rules", "no-such").returncode == 2


def test_json_gives_every_option_of_every_preset() -> None:
    data = json.loads(spades("rules", "--json").stdout)
    assert set(data["presets"]) == set(PRESETS)
    assert data["presets"]["short"]["options"]["losing_score"] == -200
    assert data["presets"]["online"]["options"]["boston"] is True
    assert set(data["options"]) == set(OPTION_HELP)
