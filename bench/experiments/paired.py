"""Two versions of a player against the same opponent on the same deals, paired per deal.

Both meet the opponent (the frozen Normal by default) on the arena's duplicate deals of one
seed (``spades arena``'s ``deals`` mode: each deal once in each chair), and each deal's
margin of the second is taken from the first's: the cards are the same, so most of the
luck cancels and a small change shows where two separate ``spades arena`` runs would drown
it. Prints each version's margin, the paired difference with its 95 % interval (bags not
charged and charged), and the nils each side of the table bid and made. Figures only;
nothing here can fail on strength.

    PYTHONPATH=src python3 bench/experiments/paired.py hard:iterations=300 \\
        hard:iterations=300,nil_solve_tricks=6 --deals 600 --seed 23 --jobs 2
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

from spades.ai.arena import (
    ArenaConfig,
    DealOutcome,
    Interval,
    mean_interval,
    parse_contender,
    play_deal,
)
from spades.engine import PRESETS


def _play(job: tuple[ArenaConfig, int]) -> DealOutcome:
    config, index = job
    return play_deal(config, index)


def _text(interval: Interval) -> str:
    half = (interval.high - interval.low) / 2
    return f"{interval.value:+7.2f} ± {half:5.2f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="the version to compare against, e.g. hard:iterations=300")
    parser.add_argument("second", help="the version measured against it")
    parser.add_argument("--against", default="frozen", help="the opponent (default frozen)")
    parser.add_argument("--preset", default="partnership", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    rules = PRESETS[args.preset]
    opponent = parse_contender(args.against)
    configs = [ArenaConfig((parse_contender(spec), opponent), rules, deals=args.deals,
                           seed=seed) for spec in (args.first, args.second)]
    jobs = [(config, index) for config in configs for index in range(args.deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = list(pool.map(_play, jobs))
    else:
        outcomes = [_play(job) for job in jobs]
    first, second = outcomes[:args.deals], outcomes[args.deals:]
    print(f"{args.deals} deals, seed {args.seed}, {args.preset}, against {args.against}")
    print(f"chairs: {configs[0].plan.describe(range(args.deals))}")
    for label, field in (("bags not charged", "margin"), ("bags charged", "margin_bags_charged")):
        a = [getattr(o, field) for o in first]
        b = [getattr(o, field) for o in second]
        paired = [y - x for x, y in zip(a, b, strict=True)]
        print(f"{label}: {args.first} {_text(mean_interval(a))}; "
              f"{args.second} {_text(mean_interval(b))}; "
              f"paired difference {_text(mean_interval(paired))}")
    for spec, runs in ((args.first, first), (args.second, second)):
        nils = []
        for seat, name in ((0, spec), (1, args.against)):
            tried = sum(o.tallies[seat].nil_attempts for o in runs)
            made = sum(o.tallies[seat].nil_made for o in runs)
            nils.append(f"{name} made {made} of {tried} nils")
        print(f"with {spec}: " + ", ".join(nils))


if __name__ == "__main__":
    main()
