"""Fair thinking: do Easy tables keep their pace beside Hard tables?

20 tables at Easy (a person at seat 0 who answers at once, three Easy computer players)
play beside 0, 1, 2 and 4 tables at Hard (the same, three Hard computer players), all
through the session layer (``spades.session``: the turn loop, the thinking lanes, pace 0,
nothing saved) in one event loop, as a server runs them. For each Easy table the time from
each of the person's actions to the person's next turn is measured; the figures are the
median and p95 of all of them, per number of Hard tables.

    python bench/fairness.py [--easy 20] [--hard 0,1,2,4] [--seconds 20] [--workers N]
                             [--scheduler lanes|pool]

``--scheduler pool`` runs the same tables over one shared process pool (the server's
thinking before issue 9) for comparison. Goal (issue 9): the Easy tables' p95 with four
Hard tables at most 1.25x their p95 with none. It prints its figures, the machine and the
load; it never fails on speed.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import os
import random
import statistics
import time
from typing import Any

from engine import machine  # bench/engine.py
from spades.engine import Action, PlayerView, find_preset, new_game
from spades.session import Session, Unsaved, one_person, seat_rows
from spades.session import thinking as lanes_thinking

PERSON = "bench-person"


class Stop(Exception):
    """The run's time is up."""


class PoolThinker:
    """One process pool shared by every table, first come first served (no lanes, no
    budget cut-off): how the server thought before issue 9."""

    def __init__(self, workers: int):
        self.pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        self.seeds = random.Random(1)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.pool, lanes_thinking.warm)
                               for _ in range(self.pool._max_workers)))

    async def decide(self, level: str, view: PlayerView, table: str = "") -> Action:
        loop = asyncio.get_running_loop()
        action, _ = await loop.run_in_executor(self.pool, lanes_thinking.choose, level, view,
                                               self.seeds.getrandbits(64))
        result: Action = action
        return result

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


async def table(name: str, level: str, thinker: Any, seed: int, stop: float,
                gaps: list[float] | None) -> None:
    """One table played until ``stop`` (new games as they end); ``gaps`` gets the time
    from each of the person's actions to their next turn."""
    rng = random.Random(seed)
    rules = find_preset("partnership")
    last: list[float] = []

    async def person(view: PlayerView) -> Action:
        now = time.perf_counter()
        if last and gaps is not None:
            gaps.append(now - last[0])
        if now > stop:
            raise Stop
        last[:] = [time.perf_counter()]
        return rng.choice(view.legal)

    while time.perf_counter() < stop:
        seats = seat_rows(one_person(PERSON, rules.players, level))
        session = Session(name, seats, new_game(rules, rng.getrandbits(32)),
                          saver=Unsaved(), thinker=thinker)
        try:
            await session.run({0: person})
        except Stop:
            return
        last.clear()


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(easy: int, hard: int, seconds: float, workers: int | None,
              scheduler: str) -> list[float]:
    thinker: Any
    if scheduler == "pool":
        thinker = PoolThinker(workers or os.cpu_count() or 1)
    else:
        thinker = lanes_thinking.Thinker(workers)
    await thinker.start()
    # every worker has its players loaded before the clock starts
    await asyncio.gather(*(table(f"warm{i}", level, thinker, i, time.perf_counter() + 1.0,
                                 None) for i, level in enumerate(("easy", "hard"))))
    stop = time.perf_counter() + seconds
    gaps: list[float] = []
    try:
        await asyncio.gather(
            *(table(f"easy{i}", "easy", thinker, i, stop, gaps) for i in range(easy)),
            *(table(f"hard{i}", "hard", thinker, 100 + i, stop, None) for i in range(hard)))
    finally:
        thinker.close()
    return gaps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--easy", type=int, default=20)
    parser.add_argument("--hard", default="0,1,2,4")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=None,
                        help="thinking processes in all (default one per core)")
    parser.add_argument("--scheduler", choices=("lanes", "pool"), default="lanes")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"load before: {os.getloadavg()}")
    print(f"scheduler: {args.scheduler}; workers: {args.workers or os.cpu_count()}; "
          f"Hard time limit {lanes_thinking.HARD_TIME_LIMIT} s; {args.seconds:.0f} s a run")
    base = None
    for hard in (int(h) for h in args.hard.split(",")):
        gaps = asyncio.run(run(args.easy, hard, args.seconds, args.workers, args.scheduler))
        if not gaps:
            print(f"{hard} Hard: no turns measured")
            continue
        median, p95 = statistics.median(gaps) * 1000, quantile(gaps, 0.95) * 1000
        base = p95 if base is None else base
        print(f"{args.easy} Easy beside {hard} Hard: {len(gaps)} turns, median "
              f"{median:.1f} ms, p95 {p95:.1f} ms ({p95 / base:.2f}x the first p95); "
              f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
