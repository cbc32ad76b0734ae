"""The adviser's time (issue 41, docs/advice.md): the bid suggestion (Hard's bid), the card
hint (Hard's card), each against Hard's own one second at the table, and the review's Hard
column for one seat and for every seat.

    python bench/advice.py [--deals 12] [--preset partnership] [--seed 1]

The bids and cards are those of seeded games played by Easy players; the bids and hints are
worked out without a time limit (Hard's default playouts), so the figures are of the work
itself; the Hard column is worked out after a review of each deal's first hand. It prints
the median, p90 and max CPU seconds of each, the machine and its load; it never fails on
speed. Goal: a bid suggestion and a card hint within Hard's own time (``HARD_TIME_LIMIT``,
one second); the Hard column adds to a review's time after its first tricks are shown.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from engine import machine  # bench/engine.py
from spades.ai.advice import advise_bid, hint_card, view_seed
from spades.ai.easy import EasyPlayer
from spades.ai.hard import HardPlayer
from spades.ai.hindsight import hard_choices
from spades.ai.review import review_hand
from spades.engine import Phase, apply, find_preset, new_game, player_view


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, values: list[float]) -> str:
    return (f"{name:<26} n={len(values):<4} median {statistics.median(values):.2f} s  "
            f"p90 {quantile(values, 0.9):.2f} s  max {max(values):.2f} s")


def timed(work: Callable[..., object], *args: Any, **options: Any) -> float:
    """CPU seconds of ``work(*args, **options)``."""
    start = time.process_time()
    work(*args, **options)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bids: list[float] = []
    hints: list[float] = []
    one: list[float] = []
    every: list[float] = []
    for deal in range(args.deals):
        seed = args.seed * 1000 + deal
        state = new_game(find_preset(args.preset), seed=seed)
        rng = random.Random(seed)
        while not state.results:
            view = player_view(state, state.hand.turn)
            if view.phase is Phase.BID and not view.face_down:
                bids.append(timed(advise_bid, view, random.Random(view_seed(view))))
            elif view.phase is Phase.PLAY and len(view.legal) > 1:
                hints.append(timed(hint_card, view, random.Random(seed), HardPlayer()))
            state = apply(state, EasyPlayer().choose(view, rng))
        review = review_hand(state, 1)
        one.append(timed(hard_choices, state, 1, review, seats=(0,)))
        every.append(timed(hard_choices, state, 1, review))
    print(f"{args.preset}, {args.deals} deals, seed {args.seed}; {machine()}; "
          f"load average {os.getloadavg()[0]:.1f}")
    print(line("bid suggestion (Hard)", bids))
    print(line("card hint (Hard)", hints))
    print(line("review Hard column, seat 0", one))
    print(line("review Hard column, all", every))


if __name__ == "__main__":
    main()
