"""``--set OPTION=VALUE`` on the command line: a value built to hurt gets a message and exit 2."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("value,words", [
    ("9" * 5000, "longer than 4300 digits"),
    ("[" * 50_000, "nested that deeply"),
    ("\x1b[2J", "whole number"),
], ids=["long-integer", "deep-nesting", "escape-code"])
def test_a_hostile_option_value_is_refused_with_a_message(value: str, words: str) -> None:
    result = subprocess.run([sys.executable, "-m", "spades.cli.main", "play",
                             "--set", f"target_score={value}"], input="q\n",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("spades play: ") and words in result.stderr
    assert "\x1b" not in result.stderr
