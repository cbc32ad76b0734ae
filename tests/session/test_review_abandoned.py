"""A review nobody waits for any more stops its work (issue 38 item 2): its lane's process is
ended within a second or two, while a review someone still waits for goes on; the first
plays of a review reach those who wait before the whole of it."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest
from sessionkit import run_async

from spades.engine import GameState, apply, find_preset, legal_actions, new_game
from spades.session import Reviews, Thinker
from spades.session.lanes import Lane

pytestmark = pytest.mark.timeout(120)


def finished(preset: str, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game(find_preset(preset), seed)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


def sleeping(seconds: float) -> float:
    """A long job (runs in a worker process)."""
    time.sleep(seconds)
    return seconds


async def _idle_within(lane: Lane, seconds: float) -> float:
    """How long the lane took to have no job running (``seconds`` at most)."""
    start = time.monotonic()
    while lane.busy and time.monotonic() - start < seconds:
        await asyncio.sleep(0.05)
    return time.monotonic() - start


def test_a_lane_ends_the_process_of_a_job_nobody_waits_for() -> None:
    async def go() -> tuple[float, bool]:
        lane = Lane("test", 1, end_abandoned=True)
        try:
            wait = asyncio.ensure_future(lane.run("a", 60.0, sleeping, 30.0))
            while not lane.busy:
                await asyncio.sleep(0.05)
            worker = next(iter(lane.workers))
            await asyncio.sleep(0.5)  # the job is running in its process
            wait.cancel()
            took = await _idle_within(lane, 5.0)
            return took, worker.alive
        finally:
            lane.close()

    took, alive = run_async(go())
    assert took < 2.0 and not alive


def test_an_abandoned_review_stops_and_one_still_awaited_goes_on() -> None:
    state = finished("three-player-kitty", 4)  # 17 tricks, three sides: seconds of work

    async def go() -> dict[str, Any]:
        thinker = Thinker(workers=1)
        reviews = Reviews(thinker)
        out: dict[str, Any] = {}
        try:
            heard: list[int] = []
            wait = asyncio.ensure_future(
                reviews.review("g", state, 1, lambda done, total: heard.append(done)))
            while not heard:  # its process is working
                await asyncio.sleep(0.05)
            wait.cancel()
            out["took"] = await _idle_within(thinker.reviews, 5.0)
            out["running"] = dict(reviews.running)
            # two wait, one leaves: the other still gets the review
            first = asyncio.ensure_future(reviews.review("g", state, 1))
            second = asyncio.ensure_future(reviews.review("g", state, 1))
            await asyncio.sleep(0.3)
            first.cancel()
            out["review"] = await second
        finally:
            thinker.close()
        return out

    out = run_async(go())
    assert out["took"] < 2.0, f"the review's process still worked {out['took']:.1f} s on"
    assert out["running"] == {}
    assert len(out["review"]["plays"]) == 51


def test_those_who_wait_hear_the_first_plays_before_the_whole_review() -> None:
    state = finished("partnership", 2)

    async def go() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        thinker = Thinker(workers=0)
        reviews = Reviews(thinker)
        told: list[dict[str, Any]] = []
        review = await reviews.review("g", state, 1, lambda done, total: None, told.append)
        return told, review

    told, review = run_async(go())
    assert told and all(t["partial"] for t in told) and not review["partial"]
    assert len(told[0]["plays"]) < len(review["plays"])
    assert told[-1]["plays"] == review["plays"][:len(told[-1]["plays"])]
