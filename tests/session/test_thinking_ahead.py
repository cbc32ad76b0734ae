"""Normal looks ahead only where the server has a process to spare: an idle quick lane gets
the look ahead (``spades.ai.lookahead``), a busy one the heuristics alone."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from sessionkit import run_async

from spades.ai.lookahead import SEARCH
from spades.ai.normal import NormalPlayer
from spades.engine import find_preset, new_game, player_view
from spades.session import Thinker
from spades.session import thinking as thinking_module
from spades.session.lanes import Lane

pytestmark = pytest.mark.timeout(120)


def test_a_lane_is_spare_only_with_a_free_process_and_nothing_waiting() -> None:
    async def go() -> list[bool]:
        lane = Lane("test", 1)
        seen = [lane.spare()]
        try:
            first = asyncio.ensure_future(lane.run("a", 5.0, time.sleep, 0.5))
            await asyncio.sleep(0)
            seen.append(lane.spare())  # its one process is busy
            second = asyncio.ensure_future(lane.run("b", 5.0, time.sleep, 0.1))
            await asyncio.sleep(0)
            seen.append(lane.spare())
            await asyncio.gather(first, second)
            seen.append(lane.spare())  # both done
        finally:
            lane.close()
        return seen

    assert run_async(go()) == [True, False, False, True]


def test_a_decision_looking_ahead_is_the_look_ahead_normal_s() -> None:
    view = player_view(new_game(find_preset("partnership"), 4), 0)
    ahead, _ = thinking_module.choose("normal", view, 17, ahead=True)
    plain, _ = thinking_module.choose("normal", view, 17)
    assert ahead == NormalPlayer(search=SEARCH).choose(view, random.Random(17))
    assert plain == NormalPlayer().choose(view, random.Random(17))


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def __call__(self, lane: Lane, table: str, budget: float | None, func: Any,
                       *args: Any) -> Any:
        self.calls.append(args)
        return func(*args[:3])  # the decision itself, inline and plain


@pytest.mark.parametrize(("level", "workers", "spare", "lane"), [
    ("normal", 1, True, "ahead"),  # an idle lane: Normal looks ahead in a worker
    ("normal", 1, False, None),    # a busy one: the heuristics alone, on the event loop
    ("normal", 0, True, None),     # no workers (tests): never
    ("easy", 1, True, None),       # only Normal looks ahead; Easy decides on the loop
    ("random", 1, True, None),
    ("hard", 1, True, "plain"),    # Hard always thinks in a worker
])
def test_the_thinker_asks_for_the_look_ahead_when_the_lane_is_spare(
        level: str, workers: int, spare: bool, lane: str | None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    brain = Thinker(workers=workers, seed=5)
    recorder = _Recorder()
    monkeypatch.setattr(brain, "_run", recorder)
    monkeypatch.setattr(brain.quick, "spare", lambda: spare)
    monkeypatch.setattr(thinking_module, "player_for", _quick_hard(thinking_module.player_for))
    view = player_view(new_game(find_preset("partnership"), 4), 0)
    action, _ = run_async(brain.choose(level, view, "t"))
    assert action in view.legal
    if lane is None:
        assert recorder.calls == []  # decided here, not handed to a worker
    else:
        assert len(recorder.calls) == 1
        assert recorder.calls[0][0] == level and recorder.calls[0][3] is (lane == "ahead")


def _quick_hard(player_for: Any) -> Any:
    """``player_for`` with Hard on a short search (the test is of where it thinks)."""
    from spades.ai.hard import HardPlayer

    def patched(level: str, ahead: bool = False) -> Any:
        if level == "hard":
            return HardPlayer(iterations=8)
        return player_for(level, ahead)
    return patched
