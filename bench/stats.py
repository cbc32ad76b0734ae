"""Statistics speed: a player's figures from the store, cold (every game replayed) and warm
(every game's figures cached by its version, as the server keeps them).

    python bench/stats.py [--games 100] [--rounds 5] [--preset house]

The games are whole games to the preset's target (every seat bids 3, then plays random
legal cards) stored in an in-memory SQLite store, the player at seat 0. It prints the
median round of each, per game, the machine and its load; it never fails on speed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from engine import machine  # bench/engine.py
from spades.stats import FigureCache, store_figures
from spades.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "stats"))
from stats_testkit import PLAYER, store_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--preset", default="house")
    args = parser.parse_args()
    store = Store("sqlite://")
    rng = random.Random(1)
    for number in range(args.games):
        store_game(store, f"g{number}", rng.randrange(2**32), preset=args.preset, bid=3,
                   quick=False)
    cold, warm = [], []
    figures = []
    for _ in range(args.rounds):
        cache = FigureCache()
        start = time.perf_counter()
        figures = store_figures(store, PLAYER, cache)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        store_figures(store, PLAYER, cache)
        warm.append(time.perf_counter() - start)
    store.close()
    hands = sum(len(f.hands) for f in figures)
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"{len(figures)} {args.preset} games, {hands} hands of the player")
    print(f"cold (every game replayed): {c * 1000:.0f} ms, {c / len(figures) * 1000:.1f} ms a game")
    print(f"warm (nothing changed, all cached): {w * 1000:.1f} ms")
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
