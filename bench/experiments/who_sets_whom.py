"""Where each plays for themselves, who sets whom? Plays the arena's runs (the same deals,
chairs and seeds as ``spades arena``, ``arena.play_run``) and counts, by level, the hands
bid, made and set, the bags, and for each set the levels of the seats that took more than
they bid in that hand (each such seat is charged the set in proportion to its overtricks):
the set's "setters". In games mode it also counts who wins from where. Figures only.

    PYTHONPATH=src python3 bench/experiments/who_sets_whom.py hard normal --preset cutthroat \
        --deals 20 --seed 5
    PYTHONPATH=src python3 bench/experiments/who_sets_whom.py hard normal --games 4
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

from spades.ai.arena import ArenaConfig, Mode, Tally, deal_runs, parse_contender, play_run
from spades.engine import find_preset


def tally(config: ArenaConfig,
          count: int) -> tuple[dict[str, Counter[str]], dict[str, float]]:
    """Per level: hands, bids, made, set, bags, points; and the sets by (setter, set)."""
    labels = [c.label for c in config.contenders]
    per: dict[str, Counter[str]] = defaultdict(Counter)
    sets: dict[str, float] = defaultdict(float)
    plan = config.plan
    for index in range(count):
        for run in range(deal_runs(config, index)):
            _, _, _, state = play_run(config, index, run, (Tally(), Tally()))
            who = [labels[c] for c in plan.runs(index)[run]]
            for result in state.results:
                bids = [b.tricks for b in result.bids]
                tricks = result.tricks
                for seat, level in enumerate(who):
                    row = per[level]
                    row["hands"] += 1
                    row["bid"] += bids[seat]
                    row["tricks"] += tricks[seat]
                    row["points"] += result.score.points[seat]
                    row["made" if tricks[seat] >= bids[seat] else "set"] += 1
                    row["bags"] += max(0, tricks[seat] - bids[seat])
                over = {s: tricks[s] - bids[s] for s in range(len(who)) if tricks[s] > bids[s]}
                extra = sum(over.values())
                for seat, level in enumerate(who):
                    if tricks[seat] < bids[seat] and extra:
                        for setter, count_over in over.items():
                            sets[f"{who[setter]} sets {level}"] += count_over / extra
            if config.mode == "games" and state.over and state.winner is not None:
                per[who[config.rules.sides[state.winner][0]]]["games won"] += 1
    return per, sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player")
    parser.add_argument("opponent")
    parser.add_argument("--preset", default="cutthroat")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    mode: Mode = "games" if args.games else "deals"
    config = ArenaConfig(contenders=(parse_contender(args.player),
                                     parse_contender(args.opponent)),
                         rules=find_preset(args.preset), deals=args.games or args.deals,
                         seed=args.seed, mode=mode)
    per, sets = tally(config, config.deals)
    for level, row in per.items():
        hands = row["hands"]
        print(f"{level}: {hands} seat-hands, bid {row['bid'] / hands:.2f}, took "
              f"{row['tricks'] / hands:.2f}, made {row['made'] / hands:.1%}, set "
              f"{row['set'] / hands:.1%}, bags {row['bags'] / hands:.2f}, points "
              f"{row['points'] / hands:.1f} a hand"
              + (f", games won {row['games won']}" if mode == "games" else ""))
    for key in sorted(sets):
        print(f"{key}: {sets[key]:.1f} sets")


if __name__ == "__main__":
    main()
