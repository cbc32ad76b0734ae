"""Every decision of every level, as one digest per preset: run before and after a change
that must not change behaviour (a refactor), and compare the lines.

    python bench/decisions.py [--presets all] [--deals 3] [--seed 36] [--reviews 2]
                              [--pairs hard-normal,normal-easy]

For each preset and each pair of levels it plays ``--deals`` arena deals (each twice, the
chairs swapped, with the arena's random streams, seated as ``spades arena --chairs swap``
does: the even chairs then the odd, the arena's seating before issue 40, so that digests
compare with those of earlier versions) and
hashes every action of every run in order; ``--reviews`` first hands of random games are
reviewed double dummy (with no wall-clock limit) and their reviews hashed too. It prints
one SHA-256 per line and one over all of them. Two runs of the same code print the same
lines, whatever the machine's load and whatever presets ran before (Hard's decisions
depend only on what it sees and its seed: no time limit); a line that differs names the
preset and the pair whose play changed. It prints the machine; it times nothing and never fails.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import time

from engine import machine  # bench/engine.py
from spades.ai.arena import ArenaConfig, parse_contender, run_start, seat_choice
from spades.ai.review import review_hand
from spades.engine import PRESETS, apply, find_preset, legal_actions, new_game, player_view


def run_digest(config: ArenaConfig, index: int, run: int) -> bytes:
    """Every action of run ``run`` of deal ``index``, in order, as bytes."""
    _, players, rngs, state = run_start(config, index, run)
    actions: list[str] = []
    while not state.over and not state.results:
        seat = state.hand.turn
        action = seat_choice(players[seat], player_view(state, seat), rngs[seat])
        actions.append(f"{seat}:{action!r}")
        state = apply(state, action)
    return "\n".join(actions).encode()


def arena_digest(preset: str, pair: str, deals: int, seed: str) -> str:
    first, second = pair.split("-")
    config = ArenaConfig((parse_contender(first), parse_contender(second)),
                         find_preset(preset), deals=deals, seed=seed, chairs="swap")
    digest = hashlib.sha256()
    for index in range(deals):
        for run in (0, 1):
            digest.update(run_digest(config, index, run))
    return digest.hexdigest()


def review_digest(preset: str, hands: int, seed: str) -> str:
    """The double-dummy reviews of the first hand of ``hands`` random games."""
    digest = hashlib.sha256()
    for h in range(hands):
        rng = random.Random(f"decisions/{seed}/{h}")
        state = new_game(find_preset(preset), f"{seed}/{h}")
        while not state.over and not state.results:
            state = apply(state, rng.choice(list(legal_actions(state))))
        # no wall-clock limit: on a busy machine a review cut off at REVIEW_SECONDS
        # estimates what it would have solved, and its digest would change with the load
        digest.update(repr(review_hand(state, 1, seconds=math.inf)).encode())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", default="all", help="comma-separated, or all")
    parser.add_argument("--pairs", default="hard-normal,normal-easy")
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--reviews", type=int, default=2)
    parser.add_argument("--seed", default="36")
    args = parser.parse_args()
    presets = sorted(PRESETS) if args.presets == "all" else args.presets.split(",")
    print(f"machine: {machine()}")
    overall = hashlib.sha256()
    start = time.perf_counter()
    for preset in presets:
        lines = [f"{pair} {arena_digest(preset, pair, args.deals, args.seed)[:16]}"
                 for pair in args.pairs.split(",")]
        if args.reviews:
            lines.append(f"review {review_digest(preset, args.reviews, args.seed)[:16]}")
        line = f"{preset:20s} " + "  ".join(lines)
        overall.update(line.encode())
        print(line, flush=True)
    print(f"all: {overall.hexdigest()[:16]}  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
