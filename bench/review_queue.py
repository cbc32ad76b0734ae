"""A hand review beside the tables: does another table's computer player keep its pace while
a review works?

One table asks for Easy decisions one after another (a partnership deal, the seat to bid),
first alone, then while a long hand review (a partnership hand, many seconds of CPU) works
in the thinking processes' review lane (one process at nice 19), as a server runs them. It
prints the median, p95 and max time of a decision in each case, and how long the review
took (or that it was still running), the machine and the load; it never fails on speed.

    python bench/review_queue.py [--decisions 40] [--workers 2] [--seed 0] [--preset partnership]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time

from engine import machine  # bench/engine.py
from spades.engine import GameState, apply, find_preset, legal_actions, new_game, player_view
from spades.session import Thinker


def finished(seed: int, preset: str = "partnership") -> GameState:
    """A game of ``preset`` whose first hand was played at random."""
    rng = random.Random(seed)
    state = new_game(find_preset(preset), seed)
    while not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


async def decisions(thinker: Thinker, count: int) -> list[float]:
    dealt = new_game(find_preset("partnership"), 9)
    view = player_view(dealt, dealt.turn or 0)
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await thinker.choose("easy", view, "other")
        times.append(time.perf_counter() - start)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"median {1000 * statistics.median(ordered):.0f} ms, p95 {1000 * p95:.0f} ms, "
            f"max {1000 * ordered[-1]:.0f} ms over {len(ordered)} decisions")


async def run(count: int, workers: int, seed: int, preset: str) -> None:
    state = finished(seed, preset)
    thinker = Thinker(workers=workers, seed=1)
    await thinker.start()
    try:
        await decisions(thinker, 3)  # warm
        alone = await decisions(thinker, count)
        print(f"Easy decisions alone:            {summary(alone)}")
        start = time.perf_counter()
        review = asyncio.create_task(thinker.review(state, 1, "reviewed", lambda d, t: None))
        while not thinker.reviews.busy and not review.done():
            await asyncio.sleep(0.05)
        beside = await decisions(thinker, count)
        running = not review.done()
        print(f"Easy decisions beside a review: {summary(beside)}"
              f"{' (the review still running after them)' if running else ''}")
        await review
        print(f"The review of the hand: {time.perf_counter() - start:.1f} s wall "
              f"({preset}, seed {seed})")
    finally:
        thinker.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--preset", default="partnership",
                        help="the reviewed hand's preset (default partnership: a long review)")
    args = parser.parse_args()
    print(machine())
    print(f"load average before: {os.getloadavg()}")
    asyncio.run(run(args.decisions, args.workers, args.seed, args.preset))
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
