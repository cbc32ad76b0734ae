"""Hand reviews in the thinking processes: progress reported from the worker process, one
computation per (game, hand) shared by all who ask meanwhile, and a review never holding up
another table's computer player (its own lane, at the lowest CPU priority)."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from sessionkit import run_async

from spades.engine import GameState, apply, find_preset, legal_actions, new_game, player_view
from spades.session import ReviewError, Reviews, Thinker
from spades.session import thinking as thinking_module
from spades.session.lanes import Lane
from spades.session.workers import report

pytestmark = pytest.mark.timeout(180)


def finished(preset: str, seed: int) -> GameState:
    """A game of ``preset`` with its first hand played at random, the second dealt."""
    rng = random.Random(seed)
    state = new_game(find_preset(preset), seed)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


def counting(n: int) -> int:
    """A job that reports 1..n as it goes (runs in a worker process)."""
    for i in range(1, n + 1):
        report(i)
    return n


def test_a_job_reports_its_progress_from_its_process_before_its_result() -> None:
    async def go() -> tuple[list[int], int]:
        lane = Lane("test", 1)
        heard: list[int] = []
        try:
            result = await lane.run("a", 30.0, counting, 5, progress=heard.append)
        finally:
            lane.close()
        return heard, result

    heard, result = run_async(go())
    assert heard == [1, 2, 3, 4, 5]
    assert result == 5


def test_a_review_is_worked_out_once_for_all_who_ask_meanwhile() -> None:
    state = finished("two-player", 3)

    async def go() -> tuple[list[dict[str, object]], int, list[tuple[int, int]]]:
        thinker = Thinker(workers=1)
        reviews = Reviews(thinker)
        heard: list[tuple[int, int]] = []
        try:
            answers = await asyncio.gather(*(
                reviews.review("g", state, 1, lambda d, t: heard.append((d, t)))
                for _ in range(3)))
            answers.append(await reviews.review("g", state, 1))  # kept: no new work
        finally:
            thinker.close()
        return answers, reviews.computed, heard

    answers, computed, heard = run_async(go())
    assert computed == 1
    assert all(a == answers[0] for a in answers)
    assert answers[0]["hand"] == 1 and len(answers[0]["plays"]) == 26  # type: ignore[arg-type]
    assert heard and heard[-1][0] == heard[-1][1]


def test_the_hand_in_play_is_refused_before_any_work() -> None:
    state = finished("two-player", 3)

    async def go() -> int:
        reviews = Reviews(Thinker(workers=0))
        for hand in (0, 2, 3):
            with pytest.raises(ReviewError):
                await reviews.review("g", state, hand)
        return reviews.computed

    assert run_async(go()) == 0


def test_a_review_does_not_hold_up_another_tables_computer_player() -> None:
    """While a long review works (a partnership hand: many seconds of CPU), another table's
    Easy player decides well within its budget, every time."""
    state = finished("partnership", 0)  # some 20 s of CPU to review
    dealt = new_game(find_preset("partnership"), 9)
    view = player_view(dealt, dealt.turn or 0)

    async def go() -> tuple[list[float], bool]:
        thinker = Thinker(workers=2, seed=1)
        await thinker.start()
        try:
            await thinker.choose("easy", view, "other")  # the quick lane is warm
            review = asyncio.create_task(thinker.review(state, 1, "reviewed", lambda d, t: None))
            while not thinker.reviews.busy:
                await asyncio.sleep(0.05)
            await asyncio.sleep(1.0)  # the review's process is at work
            times = []
            for _ in range(8):
                start = time.perf_counter()
                await thinker.choose("easy", view, "other")
                times.append(time.perf_counter() - start)
            still_running = not review.done()
            review.cancel()
        finally:
            thinker.close()
        return times, still_running

    times, still_running = run_async(go())
    assert max(times) < thinking_module.budget_of("easy"), times
    assert still_running, "the review ended before the decisions: the test proves nothing"
