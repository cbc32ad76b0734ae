"""Computer players' speed: decision latency per level, and the playout kernel's random
complete hands per second next to OpenSpiel's ``spades`` in the same run.

    python bench/ai.py [--levels random,easy,normal,hard] [--deals 4] [--seconds 2]
                       [--rounds 5] [--preset partnership | --preset all | --preset a,b]

Latency: each level plays every seat of ``--deals`` whole hands (its own decisions timed,
every decision counted, forced ones included), p50 and p95 per level and preset. A level
may carry the arena's options (``normal:search=160``); ``--preset all`` times every preset
(the kernel's speed is then left out).

Kernel speed: a random complete hand is a deal, random legal bids, random legal play of
every card, and the score; OpenSpiel's hand is its 52 chance outcomes (the deal), four
random bids and 52 random legal plays until ``is_terminal()``, driven from Python, as
anyone using it from Python would. Rounds alternate between the two so that machine noise
hits both alike; the figures are the median rounds, and the ratio. It prints its figures
and the machine; it never fails on speed.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine import machine, openspiel_hands  # bench/engine.py: the same OpenSpiel loop
from spades.ai import kernel, native
from spades.ai.arena import make_contender, parse_contender
from spades.engine import PRESETS, apply, find_preset, new_game, player_view


def kernel_hands(seconds: float, preset: str, seed: int) -> float:
    book = kernel.rulebook_of(find_preset(preset))
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        for _ in range(50):
            kernel.random_hand(book, rng)
        done += 50
    return done / (time.perf_counter() - start)


def latencies(level: str, preset: str, deals: int) -> list[float]:
    rules = find_preset(preset)
    contender = parse_contender(level)
    times: list[float] = []
    for deal in range(deals):
        players = [make_contender(contender.level, **dict(contender.options))
                   for _ in range(rules.players)]
        rngs = [random.Random(f"bench/{deal}/{s}") for s in range(rules.players)]
        state = new_game(rules, seed=f"bench-ai/{deal}", first_dealer=deal % rules.players)
        while not state.over and not state.results:
            seat = state.hand.turn
            view = player_view(state, seat)
            start = time.perf_counter()
            action = players[seat].choose(view, rngs[seat])
            times.append(time.perf_counter() - start)
            state = apply(state, action)
    return times


def quantile(values: list[float], q: float) -> float:
    xs = sorted(values)
    return xs[min(len(xs) - 1, max(0, int(q * len(xs) + 0.999999) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="random,easy,normal,hard")
    parser.add_argument("--deals", type=int, default=4, help="hands per level for latency")
    parser.add_argument("--seconds", type=float, default=2.0, help="per kernel round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    print(f"machine: {machine()}, "
          f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"search: {native.SEARCH}")

    presets = sorted(PRESETS) if args.preset == "all" else args.preset.split(",")
    for preset in presets:
        print(f"\ndecision latency, preset {preset}, {args.deals} hands per level "
              "(every seat at that level):")
        for level in filter(None, (x.strip() for x in args.levels.split(","))):
            try:
                times = latencies(level, preset, args.deals)
            except ImportError as error:
                print(f"  {level:18s} not available ({error})")
                continue
            print(f"  {level:18s} {len(times):5d} decisions  p50 "
                  f"{quantile(times, 0.5) * 1e3:8.2f} ms  p95 {quantile(times, 0.95) * 1e3:8.2f}"
                  f" ms  max {max(times) * 1e3:8.2f} ms")

    if args.rounds <= 0 or len(presets) > 1:  # the decision times alone
        return
    print(f"\nrandom complete hands per second, {args.rounds} alternating rounds of "
          f"{args.seconds:g} s:")
    ours: list[float] = []
    theirs: list[float] = []
    for round_ in range(args.rounds):
        ours.append(kernel_hands(args.seconds, presets[0], args.seed + round_))
        other = openspiel_hands(args.seconds, args.seed + round_)
        if other is not None:
            theirs.append(other)
        print(f"  round {round_ + 1}: kernel {ours[-1]:9.0f}"
              + (f"   OpenSpiel {other:9.0f}" if other is not None else ""))
    mine = statistics.median(ours)
    print(f"  kernel ({presets[0]}):   {mine:9.0f} hands/s (median)")
    if theirs:
        spiel = statistics.median(theirs)
        print(f"  OpenSpiel spades: {spiel:9.0f} hands/s (median)")
        print(f"  ratio kernel / OpenSpiel: {mine / spiel:.2f}x (goal: at least 2x)")
    else:
        print("  OpenSpiel (pyspiel) is not installed: no comparison")


if __name__ == "__main__":
    main()
