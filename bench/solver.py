"""Double-dummy trick solver speed: median, p95 and max time of one solve (how many tricks
the side to lead takes under best play) with 8 tricks left and from the opening lead with all
13, over seeded random deals.

    python bench/solver.py [--deals 30] [--full 5] [--preset partnership] [--seed 1] [--list]
    python bench/solver.py --slow

``--list`` prints every solve (its number, the count, CPU time and positions), to find slow
deals; ``--slow`` solves only the kept set of slow opening leads (``SLOW``: deals of the
partnership preset that took the longest, by seed and number), the figures of the tail.

Positions with 8 tricks left are reached by random legal play from a random deal (at a
trick boundary); full deals start at the opening lead. Each solve uses a fresh solver (an
empty transposition table). It prints wall-clock and CPU time, the positions searched, the
machine and its load; it never fails on speed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine import machine  # bench/engine.py
from spades.ai import kernel
from spades.ai.native import SEARCH
from spades.ai.tricks import TrickSolver
from spades.engine import find_preset


def position(book: kernel.Rulebook, rng: random.Random, left: int) -> kernel.Position:
    n = book.n
    pos = kernel.Position(hands=kernel.deal(book, rng), leader=rng.randrange(n), tricks=[0] * n,
                          bids=[1] * n, nils=[kernel.PLAIN] * n, players=n)
    for _ in range((book.hand_size - left) * n):
        kernel.play(book, pos, kernel.random_card(kernel.legal_mask(book, pos), rng.random))
    return pos


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


#: Slow opening leads of the partnership preset: (seed, deal number) as ``--list`` numbers
#: them with 13 tricks left (measured at commit e0d0016: 2.0 and 4.5 million positions,
#: 18 s and 62 s of CPU, against a median of 0.4 million)
SLOW: tuple[tuple[int, int], ...] = ((1, 3), (1, 7))


def positions(book: kernel.Rulebook, left: int, seed: int, deals: int) -> list[kernel.Position]:
    rng = random.Random(f"bench-solver/{seed}/{left}")
    return [position(book, rng, min(left, book.hand_size)) for _ in range(deals)]


def run(preset: str, left: int, deals: int, seed: int, *, each: bool = False,
        only: tuple[tuple[int, int], ...] = ()) -> None:
    book = kernel.rulebook_of(find_preset(preset))
    if only:
        named = [(f"{s}/{d}", positions(book, left, s, d + 1)[d]) for s, d in only]
    else:
        named = [(str(d), p) for d, p in enumerate(positions(book, left, seed, deals))]
    walls: list[float] = []
    cpus: list[float] = []
    nodes: list[int] = []
    for name, pos in named:
        solver = TrickSolver(book, book.side_of[pos.turn])
        wall, cpu = time.perf_counter(), time.process_time()
        count = solver.tricks(pos)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        nodes.append(solver.nodes)
        if each:
            print(f"    deal {name:>6s}: {count:2d} tricks  cpu {cpus[-1] * 1e3:9.1f} ms  "
                  f"positions {nodes[-1]}", flush=True)
    deals = len(named)
    print(f"  {left:2d} tricks left, {deals} deals: "
          f"wall median {statistics.median(walls) * 1e3:9.1f} ms  "
          f"p95 {quantile(walls, 0.95) * 1e3:9.1f} ms  max {max(walls) * 1e3:9.1f} ms")
    print(f"  {'':26s}cpu  median {statistics.median(cpus) * 1e3:9.1f} ms  "
          f"p95 {quantile(cpus, 0.95) * 1e3:9.1f} ms  max {max(cpus) * 1e3:9.1f} ms  "
          f"positions median {statistics.median(nodes):.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30, help="deals with 8 tricks left")
    parser.add_argument("--full", type=int, default=5, help="deals solved from the opening")
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="print every solve")
    parser.add_argument("--slow", action="store_true",
                        help="only the kept slow opening leads (partnership)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"search: {SEARCH}")
    if args.slow:
        print("double-dummy solver, the slow opening leads (partnership):")
        run("partnership", 13, 0, 0, each=True, only=SLOW)
    else:
        print(f"double-dummy solver, preset {args.preset}:")
        if args.deals:
            run(args.preset, 8, args.deals, args.seed, each=args.list)
        if args.full:
            run(args.preset, 13, args.full, args.seed, each=args.list)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
