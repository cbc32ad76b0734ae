"""Double-dummy trick solver speed: median, p95 and max time of one solve (how many tricks
the side to lead takes under best play) with 8 tricks left and from the opening lead with all
13, over seeded random deals.

    python bench/solver.py [--deals 30] [--full 5] [--preset partnership] [--seed 1]

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
from spades.ai.tricks import TrickSolver
from spades.engine import find_preset


def position(t: kernel.Table, rng: random.Random, left: int) -> kernel.Position:
    n = t.n
    pos = kernel.Position(hands=kernel.deal(t, rng), leader=rng.randrange(n), tricks=[0] * n,
                          bids=[1] * n, nils=[kernel.PLAIN] * n, players=n)
    for _ in range((t.hand_size - left) * n):
        kernel.play(t, pos, kernel.random_card(kernel.legal_mask(t, pos), rng.random))
    return pos


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(preset: str, left: int, deals: int, seed: int) -> None:
    t = kernel.table_of(find_preset(preset))
    rng = random.Random(f"bench-solver/{seed}/{left}")
    walls: list[float] = []
    cpus: list[float] = []
    nodes: list[int] = []
    for _ in range(deals):
        pos = position(t, rng, min(left, t.hand_size))
        solver = TrickSolver(t, t.side_of[pos.turn])
        wall, cpu = time.perf_counter(), time.process_time()
        solver.tricks(pos)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        nodes.append(solver.nodes)
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
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"double-dummy solver, preset {args.preset}:")
    if args.deals:
        run(args.preset, 8, args.deals, args.seed)
    if args.full:
        run(args.preset, 13, args.full, args.seed)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
