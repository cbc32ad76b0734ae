"""``bench/experiments/nil_playouts.py``: every nil bid at the table is played out from its
deal, and the playouts' chance is scored against what happened."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from types import ModuleType

import pytest

from spades.ai.arena import ArenaConfig, parse_contender
from spades.engine import PRESETS


@pytest.fixture(scope="module")
def tool(bench_tool: Callable[[str], ModuleType]) -> ModuleType:
    return bench_tool("nil_playouts")


def test_log_loss_scores_the_chance_given_to_what_happened(tool: ModuleType) -> None:
    found = [tool.Foresight(0, 0.8, True), tool.Foresight(0, 0.8, False),
             tool.Foresight(1, 0.0, True)]
    expected = (-math.log(0.8) - math.log(0.2) - math.log(1e-3)) / 3
    assert tool.log_loss(found) == pytest.approx(expected)
    lines = tool.report(found, ("hard", "frozen"), 0.5)
    assert "hard's nils: 2, playouts made 0.800, the table 0.500" in "\n".join(lines)


def test_every_nil_at_the_table_is_foreseen(tool: ModuleType) -> None:
    """Runs as ``bench/experiments/screen.py`` keeps them: each nil bid gets one chance, its
    bidder is the contender in that seat, and a defence that never leads low at a nil lets more
    nils through than one that always does."""
    screen = sys.modules["screen"]
    config = ArenaConfig((parse_contender("easy"), parse_contender("frozen")),
                         PRESETS["partnership"], deals=12, seed=5)
    runs = [screen._full(config, index, run) for index in range(12) for run in (0, 1)]
    bids = [(number, seat) for number, run in enumerate(runs)
            for seat, bid in enumerate(run.result.bids) if bid.nil]
    assert len(bids) >= 3  # the check below needs nils to look at
    always = tool.foresee(config, runs, 1.0, 60)
    never = tool.foresee(config, runs, 0.0, 60)
    assert len(always) == len(never) == len(bids)
    for found, (number, seat) in zip(always, bids, strict=True):
        assert 0.0 <= found.chance <= 1.0
        assert found.made == (runs[number].result.tricks[seat] == 0)
        assert found.bidder == screen.seat_contenders(config, number // 2, number % 2)[seat]
    assert sum(f.chance for f in never) > sum(f.chance for f in always)
