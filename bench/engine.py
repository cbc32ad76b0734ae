"""Engine speed: random complete hands per second through the public API, deal included,
next to OpenSpiel's ``spades`` driven from Python in the same run.

    python bench/engine.py [--seconds 2] [--rounds 5] [--preset partnership]

Both loops do the same work for each hand: deal, four random bids, 52 random legal plays,
score. Our engine deals the next hand itself when a hand ends, so it plays hands back to back
(a new game every 100 hands); OpenSpiel's game is one hand, so it starts a new state each
time. Rounds alternate between the two so that machine noise hits both alike; the figure is
the median round. It prints its figures and the machine; it never fails on speed.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from collections.abc import Callable

from spades.engine import apply, find_preset, legal_actions, new_game


def spades_hands(seconds: float, preset: str, seed: int) -> float:
    rules = find_preset(preset)
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    end = start + seconds
    state = new_game(rules, seed=f"{seed}-0")
    while time.perf_counter() < end:
        hands = len(state.results)
        while len(state.results) == hands and not state.over:
            state = apply(state, rng.choice(legal_actions(state)))
        done += 1
        if state.over or len(state.results) >= 100:
            state = new_game(rules, seed=f"{seed}-{done}")
    return done / (time.perf_counter() - start)


def openspiel_hands(seconds: float, seed: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-untyped]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return done / (time.perf_counter() - start)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--preset", default="partnership")
    args = parser.parse_args()
    ours: list[float] = []
    theirs: list[float] = []
    runs: list[tuple[list[float], Callable[[int], float | None]]] = [
        (ours, lambda r: spades_hands(args.seconds, args.preset, r)),
        (theirs, lambda r: openspiel_hands(args.seconds, r)),
    ]
    for round_ in range(args.rounds):
        for figures, run in runs:
            figure = run(round_)
            if figure is not None:
                figures.append(figure)
    print(f"machine: {machine()}")
    print(f"spades engine ({args.preset}): {statistics.median(ours):,.0f} random hands/s "
          f"(median of {len(ours)} rounds of {args.seconds:g} s; "
          f"min {min(ours):,.0f}, max {max(ours):,.0f})")
    if theirs:
        print(f"OpenSpiel spades:            {statistics.median(theirs):,.0f} random hands/s "
              f"(min {min(theirs):,.0f}, max {max(theirs):,.0f})")
        ratio = statistics.median(ours) / statistics.median(theirs)
        print(f"ratio: {ratio:.2f}x OpenSpiel (goal: at least 0.5x)")
    else:
        print("OpenSpiel not installed (pip install open-spiel): no comparison")


if __name__ == "__main__":
    main()
