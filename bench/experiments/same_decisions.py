"""Are Hard's decisions the same in two trees? Plays hands with Hard at every seat from fixed
seeds and uneven running scores, and prints one line per hand (its decisions) and a digest
of them all. Run it with each tree on PYTHONPATH and compare the digests: a change meant to
leave a preset alone (issue 40 item 3: partnership's valuation) must give the same digest.
Figures only; nothing here can fail.

    PYTHONPATH=src python3 bench/experiments/same_decisions.py --preset partnership
    PYTHONPATH=/other/tree/src python3 bench/experiments/same_decisions.py --preset partnership
"""

from __future__ import annotations

import argparse
import hashlib
import random

from spades.ai import native
from spades.ai.hard import HardPlayer
from spades.engine import apply, find_preset, new_game, player_view

#: running scores the hands are played at, one set per hand in turn (two sides; more sides
#: take the first numbers)
SCORES = ((0, 0, 0, 0, 0), (380, 120, 200, 60, 250), (-120, 410, 90, 300, 0),
          (460, 470, 100, 20, 300))


def hand_decisions(preset: str, seed: int, iterations: int) -> list[str]:
    """Every decision of one hand (its first hand from ``seed``), Hard at each seat."""
    rules = find_preset(preset)
    sides = len(rules.sides)
    scores = SCORES[seed % len(SCORES)][:sides]
    state = new_game(rules, seed=seed)._replace(scores=scores)
    rng = random.Random(seed)
    player = HardPlayer(iterations=iterations)
    out: list[str] = []
    while not state.results and not state.over:  # until the hand is scored
        seat = state.hand.turn
        action = player.choose(player_view(state, seat), random.Random(rng.getrandbits(32)))
        out.append(repr(action))
        state = apply(state, action)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=300)
    args = parser.parse_args()
    print(f"search: {native.SEARCH}")
    digest = hashlib.sha256()
    for seed in range(args.seed, args.seed + args.hands):
        decisions = hand_decisions(args.preset, seed, args.iterations)
        line = hashlib.sha256(" ".join(decisions).encode()).hexdigest()[:16]
        print(f"hand {seed}: {len(decisions)} decisions, {line}")
        digest.update(line.encode())
    print(f"{args.preset}: {args.hands} hands from seed {args.seed}, "
          f"digest {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
