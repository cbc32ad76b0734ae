"""The `spades` command itself: every sub-command is there, or the command fails loudly."""

from __future__ import annotations

import sys

import pytest

from spades.cli.main import COMMANDS, build_parser


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_that_fails_to_import_is_an_error_not_left_out(
        command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, f"spades.cli.{command}", None)  # its import fails
    with pytest.raises(ImportError, match=rf"spades\.cli\.{command}"):
        build_parser()
