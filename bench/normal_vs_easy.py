"""Normal against Easy: games won over duplicate games, and decision times.

Each game's seed is played twice, Normal on side 0 and then on side 1 (the same decks in the
same order: luck cancels). Prints the win rate with a 95 % interval, duplicate points per
game, some per-hand statistics, and decision times p50/p95 per level. It never fails on
speed; it stops at --games game pairs or after --seconds of CPU time, whichever comes first.

    python bench/normal_vs_easy.py --seconds 600
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import machine  # bench/engine.py
from spades.ai.base import Player
from spades.ai.easy import EasyPlayer
from spades.ai.normal import NormalPlayer
from spades.engine import apply, find_preset, new_game, player_view


@dataclass
class Tally:
    games: int = 0
    normal_wins: int = 0
    point_diffs: list[int] = field(default_factory=list)
    hands: int = 0
    made: dict[str, int] = field(default_factory=lambda: {"normal": 0, "easy": 0})
    contracts: dict[str, int] = field(default_factory=lambda: {"normal": 0, "easy": 0})
    nil_made: dict[str, int] = field(default_factory=lambda: {"normal": 0, "easy": 0})
    nil_bid: dict[str, int] = field(default_factory=lambda: {"normal": 0, "easy": 0})
    bags: dict[str, int] = field(default_factory=lambda: {"normal": 0, "easy": 0})
    times: dict[str, list[float]] = field(default_factory=lambda: {"normal": [], "easy": []})


def play_game(preset: str, seed: int, flip: int, tally: Tally) -> None:
    """One game: Normal in the even seats (odd when ``flip``), Easy in the others. In a
    partnership that puts Normal on side 0 (side 1 when flipped)."""
    rules = find_preset(preset)
    levels = ["normal" if s % 2 == flip else "easy" for s in range(rules.players)]
    players: list[Player] = [NormalPlayer() if lv == "normal" else EasyPlayer() for lv in levels]
    rngs = [random.Random(f"{seed}/{s}/{lv}") for s, lv in enumerate(levels)]
    state = new_game(rules, seed=seed)
    guard = 0
    while not state.over and guard < 50_000:
        seat = state.hand.turn
        view = player_view(state, seat)
        start = time.perf_counter()
        action = players[seat].choose(view, rngs[seat])
        tally.times[levels[seat]].append(time.perf_counter() - start)
        state = apply(state, action)
        guard += 1
    side_level = [levels[side[0]] for side in rules.sides]
    for result in state.results:
        tally.hands += 1
        for index, side in enumerate(rules.sides):
            level = side_level[index]
            contract = sum(result.bids[s].tricks for s in side if not result.bids[s].nil)
            taken = sum(result.tricks[s] for s in side if not result.bids[s].nil)
            if contract:
                tally.contracts[level] += 1
                tally.made[level] += taken >= contract
                tally.bags[level] += max(0, taken - contract)
            for s in side:
                if result.bids[s].nil:
                    tally.nil_bid[level] += 1
                    tally.nil_made[level] += result.tricks[s] == 0
    tally.games += 1
    if state.winner is not None and side_level[state.winner] == "normal":
        tally.normal_wins += 1
    normal = [sc for sc, lv in zip(state.scores, side_level, strict=True) if lv == "normal"]
    easy = [sc for sc, lv in zip(state.scores, side_level, strict=True) if lv == "easy"]
    tally.point_diffs.append(round(sum(normal) / len(normal) - sum(easy) / len(easy)))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(tally: Tally, seconds: float, cpu: float, preset: str) -> None:
    n = tally.games
    rate = tally.normal_wins / n if n else float("nan")
    # Wilson interval for the win rate
    z = 1.96
    if n:
        centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    else:
        centre = half = float("nan")
    diffs = tally.point_diffs
    mean = sum(diffs) / len(diffs) if diffs else float("nan")
    sd = (math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
          if len(diffs) > 1 else float("nan"))
    print(f"machine: {machine()}")
    print(f"preset {preset}, games to its target, duplicate (each seed played twice, the "
          "levels swapped)")
    print(f"games: {n} ({n // 2} duplicate pairs) in {seconds:.0f} s ({cpu:.0f} s of CPU)")
    print(f"Normal won {tally.normal_wins} of {n} games: {rate:.1%} "
          f"(95% CI {centre - half:.1%} .. {centre + half:.1%})")
    print(f"final score, Normal - Easy (mean per side) per game: {mean:+.1f} "
          f"(95% CI +/- {1.96 * sd / math.sqrt(len(diffs)) if len(diffs) > 1 else 0:.1f})")
    for level in ("normal", "easy"):
        c = tally.contracts[level]
        nb = tally.nil_bid[level]
        made = tally.made[level]
        print(f"{level:>6}: contracts made {made}/{c} ({made / c if c else 0:.0%}), "
              f"nil made {tally.nil_made[level]}/{nb}, "
              f"bags per contract {tally.bags[level] / max(1, c):.2f}")
    for level in ("normal", "easy"):
        ts = tally.times[level]
        print(f"{level:>6} decision time: p50 {percentile(ts, 0.5) * 1e3:.3f} ms, "
              f"p95 {percentile(ts, 0.95) * 1e3:.3f} ms, max {max(ts) * 1e3:.1f} ms "
              f"over {len(ts)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="partnership")
    parser.add_argument("--games", type=int, default=100_000, help="duplicate pairs at most")
    parser.add_argument("--seconds", type=float, default=600.0,
                        help="CPU time budget (this process)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tally = Tally()
    start = time.perf_counter()
    cpu = time.process_time()
    for pair in range(args.games):
        if time.process_time() - cpu > args.seconds:
            break
        seed = args.seed * 1_000_003 + pair
        play_game(args.preset, seed, 0, tally)
        play_game(args.preset, seed, 1, tally)
    report(tally, time.perf_counter() - start, time.process_time() - cpu, args.preset)


if __name__ == "__main__":
    main()
