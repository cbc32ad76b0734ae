"""An ImportError in a computer level or in the bid suggestion is a failure that shows, never
quiet random play or a quietly missing suggestion."""

from __future__ import annotations

import subprocess
import sys

import pytest

from spades.session import thinking


def test_a_level_that_fails_to_import_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(thinking._PLAYERS, "normal", raising=False)
    monkeypatch.setitem(sys.modules, "spades.ai.normal", None)  # its import fails
    with pytest.raises(ImportError):
        thinking.player_for("normal")
    assert "normal" not in thinking._PLAYERS


def test_a_broken_suggestion_module_stops_the_server_loading() -> None:
    probe = ("import sys; sys.modules['spades.ai.suggest'] = None; "
             "import spades.server")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode != 0, "loaded without its suggestion module"
    assert "Error: import of spades.ai.suggest halted" in result.stderr, result.stderr
