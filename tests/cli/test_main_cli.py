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


def test_version_names_the_search_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    """``spades --version`` says which search (compiled or pure) the computer players and
    hand reviews use, and why the pure one when it is."""
    from spades import __version__
    from spades.ai import native
    from spades.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"spades {__version__}, search: ")
    want = "compiled (mypyc)" if native.COMPILED else "pure Python ("
    assert want in out
