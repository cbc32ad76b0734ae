"""``bench/experiments/guide_fit.py``: the table's habits on lead and in second seat are
counted, and every contract and nil at the table is played out from its deal and scored
against what happened."""

from __future__ import annotations

import math
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from spades.ai import kernel as k
from spades.ai.arena import ArenaConfig, parse_contender
from spades.engine import PRESETS
from spades.engine.cards import parse_card


@pytest.fixture(scope="module")
def tool(bench_tool: Callable[[str], ModuleType]) -> ModuleType:
    return bench_tool("guide_fit")


def _cards(text: str) -> int:
    mask = 0
    for word in text.split():
        mask |= 1 << parse_card(word)
    return mask


def _second(hand: str, *, bids: tuple[int, ...] = (4, 4, 4, 4),
            nils: tuple[int, ...] = (0, 0, 0, 0),
            tricks: tuple[int, ...] = (3, 3, 3, 2)) -> k.Position:
    hands = [_cards("3D"), _cards(hand), _cards("KC 4D"), _cards("QC 6D")]
    return k.Position(hands=hands, leader=0, trick=[parse_card("9C")], tricks=tricks,
                      bids=bids, nils=nils, players=4, first=False, broken=True)


def test_the_second_seat_situations(tool: ModuleType) -> None:
    book = k.rulebook_of(PRESETS["partnership"])
    assert tool.situation(book, _second("2S 5H")) == "void"
    assert tool.situation(book, _second("AC 2C")) == "sure"  # nothing live beats the ace
    assert tool.situation(book, _second("TC 2C")) == "unsure"  # KC and QC may beat the ten
    assert tool.situation(book, _second("8C 2C")) is None  # no card wins: no choice
    on_lead = k.Position(hands=[_cards("AH 3S"), _cards("KH 2D"), _cards("QH 3D"),
                                _cards("JH 4D")], leader=0, tricks=[3, 2, 3, 3],
                         bids=[4, 4, 4, 4], nils=[0, 0, 0, 0], players=4, first=False,
                         broken=True)
    assert tool.situation(book, on_lead) == "lead"
    third = _second("2S 5H")
    k.play(book, third, parse_card("5H"))
    assert tool.situation(book, third) is None  # third seat is not asked about
    assert tool.situation(book, _second("2S 3S")) is None  # every card wins: no choice
    assert tool.situation(book, _second("2S 5H", nils=(0, 0, k.NIL, 0),
                                   tricks=(5, 4, 0, 2))) is None  # a nil alive
    # its side's contract made, the opponents' too: a trick would only be a bag
    assert tool.situation(book, _second("2S 5H", bids=(4, 1, 4, 1),
                                     tricks=(5, 2, 4, 0))) is None


def test_log_loss_and_reports(tool: ModuleType) -> None:
    found = [tool.Outcome(0, False, 0.8, 7.5, True, 7),
             tool.Outcome(0, False, 0.8, 6.0, False, 5),
             tool.Outcome(1, True, 0.0, 1.0, True, 0)]
    expected = (-math.log(0.8) - math.log(0.2) - math.log(1e-3)) / 3
    assert tool.log_loss(found) == pytest.approx(expected)
    text = "\n".join(tool.report_foresight(found, ("hard", "frozen"), 0.5, -1.0, 0.3))
    assert text.startswith("ruff 0.5, second -1, trump 0.3")
    assert "hard's contracts: 2, tricks over the table's +0.750, made 0.800" in text
    assert "frozen's nils: 1" in text and "frozen's contracts: none" in text
    habits = [tool.Habit(0, "void", True), tool.Habit(0, "void", False),
              tool.Habit(1, "sure", True), tool.Habit(1, "lead", False)]
    lines = "\n".join(tool.report_habits(habits, ("hard", "frozen")))
    assert "hard: lead - of 0, void 0.50 of 2, sure - of 0" in lines
    assert "frozen: lead 0.00 of 1, void - of 0, sure 1.00 of 1" in lines


def test_real_runs_are_read_whole(tool: ModuleType) -> None:
    """Runs as ``bench/experiments/screen.py`` keeps them: every side's contract and every
    nil gets one outcome with the tricks really taken, and the habits are read from the
    table's cards."""
    screen = sys.modules["screen"]
    config = ArenaConfig((parse_contender("easy"), parse_contender("frozen")),
                         PRESETS["partnership"], deals=8, seed=5)
    runs = [screen._full(config, index, run) for index in range(8) for run in (0, 1)]
    found = tool.foresee(config, runs, 0.5, 0.5, 20, trump=0.3)
    nils = sum(bid.nil for run in runs for bid in run.result.bids)
    contracts = sum(any(not run.result.bids[s].nil for s in side)
                    for run in runs for side in ((0, 2), (1, 3)))
    assert sum(f.nil for f in found) == nils
    assert sum(not f.nil for f in found) == contracts
    for f in found:
        assert 0.0 <= f.chance <= 1.0 and 0 <= f.taken <= 13
    habits = tool.habits(config, runs)
    assert habits, "sixteen hands hold second-seat choices"
    assert {h.situation for h in habits} <= set(tool.SITUATIONS)
    assert {h.player for h in habits} <= {0, 1}


def test_the_tool_reads_a_kept_baseline(tool: ModuleType, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The command line: a cache as ``bench/experiments/screen.py`` writes it, and settings
    of two or three numbers (the spade lead 0 when left out)."""
    assert tool._setting("0.5,0.5") == (0.5, 0.5, 0.0)
    assert tool._setting("1,-1,0.3") == (1.0, -1.0, 0.3)
    screen = sys.modules["screen"]
    config = ArenaConfig((parse_contender("easy"), parse_contender("frozen")),
                         PRESETS["partnership"], deals=3, seed=7)
    runs = [screen._full(config, index, run) for index in range(3) for run in (0, 1)]
    cache = tmp_path / "easy.pickle"
    cache.write_bytes(pickle.dumps((("easy", "frozen", "partnership", "7", 3), runs)))
    tool.main([str(cache), "--playouts", "4"])
    tool.main([str(cache), "--playouts", "4", "--habits", "1,-1", "0.5,0.5,0.3"])
    out = capsys.readouterr().out
    assert out.startswith("3 deals, seed 7, partnership: easy against frozen")
    assert out.count("ruff 1, second -1, trump 0\n") == 2
    assert "ruff 0.5, second 0.5, trump 0.3\n  easy's contracts:" in out
