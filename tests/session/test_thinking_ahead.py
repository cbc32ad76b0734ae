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


@pytest.mark.parametrize(("level", "workers", "spare", "ahead"), [
    ("normal", 1, True, True),     # an idle lane: Normal looks ahead
    ("normal", 1, False, False),   # a busy one: the heuristics alone
    ("normal", 0, True, False),    # decisions inline (tests): never
    ("easy", 1, True, False),      # only Normal looks ahead
])
def test_the_thinker_asks_for_the_look_ahead_when_the_lane_is_spare(
        level: str, workers: int, spare: bool, ahead: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    brain = Thinker(workers=workers, seed=5)
    recorder = _Recorder()
    monkeypatch.setattr(brain, "_run", recorder)
    monkeypatch.setattr(brain.quick, "spare", lambda: spare)
    view = player_view(new_game(find_preset("partnership"), 4), 0)
    action, _ = run_async(brain.choose(level, view, "t"))
    assert action in view.legal
    assert recorder.calls[0][3] is ahead
