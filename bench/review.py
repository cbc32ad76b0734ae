"""Hand review speed: median, p95 and max time to review a whole hand (a double-dummy count
before and after each of its plays), over seeded random games.

    python bench/review.py [--hands 20] [--preset partnership] [--seed 1] [--deadline]
                           [--three-sides FRACTION]

Each hand is the first hand of a game played with random legal bids and cards from a seeded
generator, reviewed from scratch (fresh solvers). It prints wall-clock and CPU time per
hand, the positions solved and search nodes, how many of its plays are estimates (a search
out of its budget, docs/review.md), the machine and its load; it never fails on speed. The
goal (issue 38) is, for every preset, at most 5 s for the slowest of 50 hands (p100) and 2 s
at the median, on an idle 2-core machine. The review's wall-clock limit
(``REVIEW_SECONDS``, for a machine far too busy) is off unless ``--deadline``: on a loaded
machine it would cut the work short, and the figures are of the work itself.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine import machine  # bench/engine.py
from spades.ai import review as review_module
from spades.ai.native import SEARCH
from spades.ai.review import review_hand
from spades.engine import GameState, apply, find_preset, legal_actions, new_game


def random_game(preset: str, seed: int) -> GameState:
    """A game whose first hand is finished, every action chosen at random."""
    rng = random.Random(f"bench-review/{seed}")
    state = new_game(find_preset(preset), seed)
    while not state.over and not state.results:
        state = apply(state, rng.choice(list(legal_actions(state))))
    return state


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deadline", action="store_true",
                        help="keep the review's wall-clock limit (off: the work itself)")
    parser.add_argument("--three-sides", type=float, default=None, metavar="FRACTION",
                        help="the share of REVIEW_NODES a review of three sides gets "
                             f"(default {review_module.THREE_SIDES})")
    args = parser.parse_args()
    if args.three_sides is not None:
        review_module.THREE_SIDES = args.three_sides
    if not args.deadline:
        review_module.REVIEW_SECONDS = float("inf")
    print(f"machine: {machine()}")
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"search: {SEARCH}")
    print(f"hand review, preset {args.preset}, {args.hands} hands:")
    walls: list[float] = []
    cpus: list[float] = []
    estimated = 0
    nodes: list[int] = []
    plays: list[int] = []
    for h in range(args.hands):
        state = random_game(args.preset, args.seed * 1000 + h)
        wall, cpu = time.perf_counter(), time.process_time()
        review = review_hand(state, 1)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        guesses = sum(not p.exact for p in review.plays)
        estimated += guesses > 0
        nodes.append(review.nodes)
        plays.append(guesses)
        print(f"  hand {h + 1:3d}: wall {walls[-1]:7.2f} s  cpu {cpus[-1]:7.2f} s  "
              f"positions {review.positions:3d}  nodes {review.nodes}  "
              f"estimated plays {guesses}/{len(review.plays)}", flush=True)
    for name, values in (("wall", walls), ("cpu", cpus)):
        print(f"  {name:4s} median {statistics.median(values):7.2f} s  "
              f"p95 {quantile(values, 0.95):7.2f} s  max (p100) {max(values):7.2f} s")
    print(f"  hands with estimated plays: {estimated} of {args.hands}; estimated plays "
          f"median {statistics.median(plays):g}, max {max(plays)}, in all {sum(plays)}")
    print(f"  nodes median {statistics.median(nodes):,.0f}, max {max(nodes):,}")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
