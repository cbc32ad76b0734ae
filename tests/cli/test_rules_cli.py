"""`spades rules` lists every preset and option with what it does."""

from __future__ import annotations

import json
import subprocess
import sys

from spades.engine import OPTION_HELP, PRESETS, REGISTRY


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


def test_rules_read_the_registry() -> None:
    data = json.loads(spades("rules", "--json").stdout)
    for name, preset in REGISTRY.items():
        shown = data["presets"][name]
        assert shown["about"] == preset.about and shown["label"] == preset.label
        assert shown["hand_size"] == preset.rules.hand_size
        assert [h["name"] for h in shown["house_rules"]] == [h.name for h in preset.house_rules]
    assert "jokers" not in [h["name"] for h in data["presets"]["three-player-kitty"]["house_rules"]]
    forgiving = spades("rules", "Three Player_Kitty")
    assert forgiving.returncode == 0
    assert forgiving.stdout.startswith("three-player-kitty: ")
