"""Variants of a player screened against a baseline on the arena's deals, paired per deal.

The baseline plays the arena's duplicate deals of one seed in full (``spades arena``'s
``deals`` mode, each deal once in each chair), and its runs can be kept on disk
(``--cache``, a pickle read back only for the same baseline, opponent, table, seed and
number of deals). Each variant then costs one replay at most, where ``bench/experiments/paired.py``
replays both versions. Each line gives the version's margin and its paired difference from
the baseline per deal, bags not charged and charged, with 95 % intervals; ``--where`` splits
a version's margin by who bid nil with a side's cards and whose contract was set.

A variant that changes only bids (``nil_saved``, ``cover_shade``, ``credit_spades``) is
cheaper still: a seat's random stream depends on the deal and the seat, and Hard takes one
draw from it per decision however it decides, so a run whose actions before the first card
are the baseline's is the baseline's run to the end. Such variants only bid again, and a run
is played in full only where its bids differ. A variant that plays differently too
(``edge``, ``trust``, ``iterations``) needs ``--plays``: every run is played again.

    PYTHONPATH=src python3 bench/experiments/screen.py hard hard:nil_saved=0.2 hard:cover_shade=0 \\
        --deals 300 --seed 2 --jobs 2 --cache /tmp/hard-seed2.pickle --where
    PYTHONPATH=src python3 bench/experiments/screen.py hard hard:nil_search=8 --plays \\
        --deals 300 --seed 2 --jobs 2 --cache /tmp/hard-seed2.pickle

Figures only; nothing here can fail on strength.
"""

from __future__ import annotations

import argparse
import pickle
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from spades.ai.arena import (
    ArenaConfig,
    Interval,
    Tally,
    mean_interval,
    parse_contender,
    play_run,
    run_start,
    seat_choice,
    seat_contenders,
)
from spades.engine import (
    PRESETS,
    Action,
    HandResult,
    Phase,
    Play,
    apply,
    player_view,
)


@dataclass(frozen=True)
class Run:
    """One run of one deal: the first contender's margins and the actions before the play."""

    margin: float
    charged: float
    bidding: tuple[Action, ...]
    tallies: tuple[Tally, Tally]
    #: the hand as played (for analysis of the cache)
    result: HandResult


def _full(config: ArenaConfig, index: int, run: int) -> Run:
    tallies = (Tally(), Tally())
    margin, charged, _, state = play_run(config, index, run, tallies)
    actions = state.results[0].actions
    bidding = tuple(action for _, action in actions[:_play_start(actions)])
    return Run(margin, charged, bidding, tallies, state.results[0])


def _play_start(actions: tuple[tuple[int, Action], ...]) -> int:
    return next((i for i, (_, a) in enumerate(actions) if isinstance(a, Play)), len(actions))


def _bidding(config: ArenaConfig, index: int, run: int) -> tuple[Action, ...]:
    """The actions before the first card, chosen as ``play_run`` chooses them."""
    _, players, rngs, state = run_start(config, index, run)
    chosen: list[Action] = []
    while state.hand.phase is not Phase.PLAY:
        seat = state.hand.turn
        action = seat_choice(players[seat], player_view(state, seat), rngs[seat])
        chosen.append(action)
        state = apply(state, action)
    return tuple(chosen)


def _job(job: tuple[ArenaConfig, int, int, tuple[Action, ...] | None]) -> Run | None:
    """The run played in full, or None where this version chooses ``known`` (the baseline's
    actions before the first card) too: then the run is the baseline's."""
    config, index, run, known = job
    if known is not None and _bidding(config, index, run) == known:
        return None
    return _full(config, index, run)


def _text(interval: Interval) -> str:
    half = (interval.high - interval.low) / 2
    return f"{interval.value:+7.2f} ± {half:5.2f}"


def _map(jobs: list[tuple[ArenaConfig, int, int, tuple[Action, ...] | None]],
         workers: int) -> list[Run | None]:
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(_job, jobs, chunksize=1))
    return [_job(job) for job in jobs]


def where(config: ArenaConfig, runs: list[Run], names: tuple[str, str]) -> list[str]:
    """Where the first contender's margin comes from: each side's cards score D more in the
    first's hands than in the second's (the deal's margin is the mean D of its sides), split
    by who bid nil with them and, where neither did, whose contract was set. (With an odd
    number of sides, as at three seats, the contenders hold unequal shares of a run and the
    parts only approximate the margin.)"""
    first, second = names
    rules = config.rules
    parts: dict[str, list[float]] = {}
    deals = len(runs) // 2
    for index in range(deals):
        for number, side in enumerate(rules.sides):
            held = [runs[2 * index + run].result for run in (0, 1)]
            mine = next(run for run in (0, 1)
                        if seat_contenders(config, index, run)[side[0]] == 0)
            kinds = [_outcome(held[mine], side, number), _outcome(held[1 - mine], side, number)]
            gain = kinds[0].points - kinds[1].points
            if kinds[0].nil or kinds[1].nil:
                who = [name for name, kind in zip(names, kinds, strict=True) if kind.nil]
                label = f"nil bid by {' and '.join(who)}"
            else:
                sets = [name for name, kind in zip(names, kinds, strict=True) if kind.set]
                label = ("contracts, " + (f"set with {' and '.join(sets)}" if sets
                                          else "made by both"))
            parts.setdefault(label, []).append(gain)
    share = deals * len(rules.sides)
    lines = [f"where {first}'s margin over {second} comes from (a side's cards, D: their "
             f"points with {first} less with {second})"]
    for label, gains in sorted(parts.items()):
        lines.append(f"  {label:44s} {len(gains):4d} sides, D {sum(gains) / len(gains):+7.1f},"
                     f" {sum(gains) / share:+6.2f} a deal")
    return lines


class Outcome(NamedTuple):
    """One side's cards in one run: a nil bid among them, their contract set, their points."""

    nil: bool
    set: bool
    points: int


def _outcome(result: HandResult, side: tuple[int, ...], number: int) -> Outcome:
    """What one side's cards came to in one run."""
    bids = [result.bids[s] for s in side]
    contract = sum(b.tricks for b in bids if not b.nil)
    taken = sum(result.tricks[s] for s, b in zip(side, bids, strict=True) if not b.nil)
    return Outcome(any(b.nil for b in bids), bool(contract) and taken < contract,
                   result.score.points[number])


def _baseline(args: argparse.Namespace, key: tuple[object, ...], config: ArenaConfig,
              cells: list[tuple[int, int]]) -> list[Run]:
    """The baseline's runs: from the cache when it holds this screen's, else played (and
    kept in the cache when one is given)."""
    if args.cache is not None and args.cache.exists():
        stored_key, stored = pickle.loads(args.cache.read_bytes())
        if stored_key == key:
            return list(stored)
    runs = _map([(config, i, r, None) for i, r in cells], args.jobs)
    base = [run for run in runs if run is not None]
    if args.cache is not None:
        args.cache.write_bytes(pickle.dumps((key, base)))
    return base


def _line(spec: str, runs: list[Run], base: list[Run], args: argparse.Namespace) -> str:
    """One version's figures: how many runs changed, its margins (and against the
    baseline's, deal by deal), its nils and sets."""
    changed = sum(a.bidding != b.bidding for a, b in zip(runs, base, strict=True))
    line = [f"{spec}: {changed} of {len(runs)} runs bid differently"]
    if args.plays:
        moved = sum(a.result != b.result for a, b in zip(runs, base, strict=True))
        line[0] += f", {moved} played differently"
    for label, name in (("not charged", "margin"), ("charged", "charged")):
        deal = [(getattr(runs[2 * i], name) + getattr(runs[2 * i + 1], name)) / 2
                for i in range(args.deals)]
        diff = [(getattr(runs[2 * i], name) + getattr(runs[2 * i + 1], name)
                 - getattr(base[2 * i], name) - getattr(base[2 * i + 1], name)) / 2
                for i in range(args.deals)]
        line.append(f"{label} {_text(mean_interval(deal))}, "
                    f"against the baseline {_text(mean_interval(diff))}")
    tried = sum(r.tallies[0].nil_attempts for r in runs)
    made = sum(r.tallies[0].nil_made for r in runs)
    sets = sum(r.tallies[0].sets for r in runs)
    contracts = sum(r.tallies[0].contracts for r in runs)
    line.append(f"nils made {made} of {tried}, set {sets} of {contracts} contracts")
    return "; ".join(line)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", help="the version every variant is compared with")
    parser.add_argument("variants", nargs="*", help="the versions measured against it")
    parser.add_argument("--against", default="frozen", help="the opponent (default frozen)")
    parser.add_argument("--preset", default="partnership", choices=sorted(PRESETS))
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", type=Path, help="where the baseline's runs are kept")
    parser.add_argument("--where", action="store_true",
                        help="split each version's margin by nils and sets (``where``)")
    parser.add_argument("--plays", action="store_true",
                        help="the variants play differently too: play every run again")
    args = parser.parse_args(argv)
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    rules = PRESETS[args.preset]
    opponent = parse_contender(args.against)
    # the arena's chairs (issue 40): a cache of runs seated otherwise is played again
    key = (args.baseline, args.against, args.preset, str(seed), args.deals, "rotate")

    def config_of(spec: str) -> ArenaConfig:
        return ArenaConfig((parse_contender(spec), opponent), rules, deals=args.deals,
                           seed=seed)

    cells = [(index, run) for index in range(args.deals) for run in (0, 1)]
    base = _baseline(args, key, config_of(args.baseline), cells)
    print(f"{args.deals} deals, seed {args.seed}, {args.preset}, against {args.against}")
    print(f"chairs: {config_of(args.baseline).plan.describe(range(args.deals))}")
    for spec in [args.baseline, *args.variants]:
        if spec == args.baseline:
            runs = list(base)
        else:
            config = config_of(spec)
            again = _map([(config, i, r, None if args.plays else base[n].bidding)
                          for n, (i, r) in enumerate(cells)], args.jobs)
            runs = [b if a is None else a for a, b in zip(again, base, strict=True)]
        print(_line(spec, runs, base, args))
        if args.where:
            print("\n".join(where(config_of(spec), runs, (spec, args.against))))


if __name__ == "__main__":
    main()
