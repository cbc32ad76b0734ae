"""Fair thinking: a decision over its budget is cut off and replaced by a legal move; a lane
serves the tables in turn; Hard and the cheap levels think in separate lanes."""

from __future__ import annotations

import asyncio
import logging
import operator
import os
import time

import pytest
from sessionkit import run_async

from spades.engine import find_preset, new_game, player_view
from spades.session import OverrunError, Thinker
from spades.session import thinking as thinking_module
from spades.session.lanes import Lane

pytestmark = pytest.mark.timeout(120)


def test_a_job_over_its_budget_is_cut_off_and_the_lane_goes_on() -> None:
    async def go() -> tuple[float, int]:
        lane = Lane("test", 1)
        try:
            start = time.perf_counter()
            with pytest.raises(OverrunError):
                await lane.run("a", 0.5, time.sleep, 30)
            cut = time.perf_counter() - start
            return cut, await lane.run("a", 5.0, operator.add, 1, 2)
        finally:
            lane.close()

    cut, after = run_async(go())
    assert cut < 10  # not the 30 s the job asked for
    assert after == 3


def test_a_lane_serves_the_tables_in_turn() -> None:
    """Table a queues four jobs, then table b one: b's runs second, not fifth."""
    async def go() -> list[str]:
        lane = Lane("test", 1)
        done: list[str] = []

        async def job(table: str, n: int) -> None:
            await lane.run(table, 10.0, time.sleep, 0.05)
            done.append(f"{table}{n}")

        try:
            await lane.run("warm", 30.0, operator.add, 0, 0)
            tasks = [asyncio.create_task(job("a", n)) for n in range(4)]
            await asyncio.sleep(0)
            tasks.append(asyncio.create_task(job("b", 0)))
            await asyncio.gather(*tasks)
        finally:
            lane.close()
        return done

    done = run_async(go())
    assert done.index("b0") <= 2, done


def test_an_overrun_decision_is_replaced_by_a_legal_move(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(thinking_module, "GRACE", 0.0)
    monkeypatch.setitem(thinking_module.BUDGETS, "hard", 0.001)
    view = player_view(new_game(find_preset("partnership"), 4), 0)

    async def go() -> object:
        thinker = Thinker(workers=2, seed=1)
        try:
            await thinker.start()
            return await thinker.decide("hard", view, "t")
        finally:
            thinker.close()

    with caplog.at_level(logging.WARNING, logger="spades.session"):
        action = run_async(go())
    assert action in view.legal
    assert any("overran" in r.getMessage() for r in caplog.records)


def test_hard_and_the_cheap_levels_think_in_separate_lanes() -> None:
    thinker = Thinker(workers=2)
    assert thinker.lane("hard") is thinker.deep
    assert {thinker.lane(level) for level in ("random", "easy", "normal")} == {thinker.quick}
    assert thinker.deep is not thinker.quick


def test_hard_keeps_to_its_time_limit() -> None:
    player = thinking_module.player_for("hard")
    assert getattr(player, "time_limit", None) == thinking_module.HARD_TIME_LIMIT


def test_the_lanes_think_at_a_lower_priority_than_the_server() -> None:
    """Thinking never slows the server's own loop: both lanes' processes are niced."""
    async def go() -> tuple[int, int]:
        thinker = Thinker(workers=2)
        try:
            await thinker.start()
            quick = await thinker.quick.run("t", 30.0, os.nice, 0)
            deep = await thinker.deep.run("t", 30.0, os.nice, 0)
            return quick, deep
        finally:
            thinker.close()

    here = os.nice(0)
    assert run_async(go()) == (min(19, here + thinking_module.QUICK_NICE),
                               min(19, here + thinking_module.DEEP_NICE))
    assert thinking_module.QUICK_NICE > 0 and thinking_module.DEEP_NICE > 0
