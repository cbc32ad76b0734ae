"""Where Normal's points go against another player: duplicate deals, each margin split by cause.

Every deal is one hand from 0-0, played twice with the sides swapped (as ``spades arena
--deals``: the same seeds, so the two runs differ only by who sits where). Each run's score is
split per side into: contracts made (10 a trick bid), contracts set (minus 10 a trick bid),
bags (each new bag charged its share of the bag penalty, less the point it scores), and nils
(made, failed). The deal's margin for each part is player A's side minus player B's, averaged
over the two runs; a deal in which both players bid the same in both runs differs by card play
alone, so the report also splits the margin into "same bids" (play) and "bids differ".

    PYTHONPATH=src python3 bench/experiments/normal_leaks.py --deals 400 --seed 7  # from the root

prints each part's mean per deal with a 95 % interval, and the worst deals for A (seed/index,
bids and tricks of both runs) to replay by hand. It never fails on a figure.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from spades.ai.arena import make_contender
from spades.ai.chairs import ChairPlan
from spades.engine import Bid, Look, apply, find_preset, new_game, player_view

PARTS = ("made", "set", "bags", "nil")
Z95 = 1.96


@dataclass
class Run:
    """One run of a deal: who sat where, bids, tricks, and each side's parts."""

    who: list[int]
    bids: list[str]
    tricks: list[int]
    parts: list[dict[str, float]]  # per side


@dataclass
class Deal:
    index: int
    runs: list[Run] = field(default_factory=list)

    def margin(self, part: str | None = None) -> float:
        """A's side minus B's side, averaged over the two runs (one part, or all)."""
        total = 0.0
        for run in self.runs:
            for side, parts in enumerate(run.parts):
                sign = 1.0 if run.who[side] == 0 else -1.0
                total += sign * (parts[part] if part else sum(parts.values()))
        return total / len(self.runs)

    @property
    def same_bids(self) -> bool:
        return self.runs[0].bids == self.runs[1].bids


def side_parts(rules_bag_share: float, bids: list[Bid], tricks: list[int],
               side: tuple[int, ...]) -> dict[str, float]:
    parts = dict.fromkeys(PARTS, 0.0)
    contract = taken = 0
    bidders = 0
    for seat in side:
        bid = bids[seat]
        if bid.nil:
            value = 200 if bid.blind else 100
            if tricks[seat] == 0:
                parts["nil"] += value
            else:
                parts["nil"] -= value
                parts["bags"] += tricks[seat] * (1.0 - rules_bag_share)
        else:
            bidders += 1
            contract += bid.tricks
            taken += tricks[seat]
    if bidders:
        if taken >= contract:
            parts["made"] += 10 * contract
            parts["bags"] += (taken - contract) * (1.0 - rules_bag_share)
        else:
            parts["set"] -= 10 * contract
    return parts


def play(args: tuple[str, str, str, int]) -> Deal:
    level_a, level_b, seed, index = args
    rules = find_preset("partnership")
    share = rules.bag_penalty / rules.bag_limit if rules.bag_limit else 0.0
    deal = Deal(index)
    for run in (0, 1):
        who = ChairPlan(rules).runs(index)[run]
        players = [make_contender(level_a if who[s] == 0 else level_b)
                   for s in range(rules.players)]
        rngs = [random.Random(f"{seed}/{index}/{s}") for s in range(rules.players)]
        state = new_game(rules, seed=f"{seed}/{index}", first_dealer=index % rules.players)
        while not state.results:
            seat = state.hand.turn
            view = player_view(state, seat)
            action = Look(seat) if view.face_down else players[seat].choose(view, rngs[seat])
            state = apply(state, action)
        result = state.results[0]
        bids = list(result.bids)
        tricks = list(result.tricks)
        parts = [side_parts(share, bids, tricks, side) for side in rules.sides]
        deal.runs.append(Run(
            who=[who[side[0]] for side in rules.sides],
            bids=[("nil" if b.nil else str(b.tricks)) for b in bids],
            tricks=tricks, parts=parts))
    return deal


def interval(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+7.2f} [{mean - half:+7.2f}, {mean + half:+7.2f}]"


def rates(deals: list[Deal], player: int) -> str:
    """A player's set rate (sets per contract) and bags per side-hand, over every run."""
    contracts = sets = hands = 0
    bags = 0.0
    for deal in deals:
        for run in deal.runs:
            for side, parts in enumerate(run.parts):
                if run.who[side] != player:
                    continue
                hands += 1
                contracts += parts["made"] != 0 or parts["set"] != 0
                sets += parts["set"] < 0
                bags += parts["bags"]
    share = 10.0 - 1.0  # bags are charged 10 and score 1 (partnership rules)
    return (f"sets {100 * sets / max(1, contracts):.1f} % of contracts, "
            f"bags {-bags / share / max(1, hands):.2f} a side-hand")


def report(deals: list[Deal], worst: int) -> None:
    print(f"{len(deals)} deals; A minus B, points per deal (bags charged their share)")
    print(f"  A: {rates(deals, 0)}\n  B: {rates(deals, 1)}")
    groups = {"all": deals, "same bids (play only)": [d for d in deals if d.same_bids],
              "bids differ": [d for d in deals if not d.same_bids]}
    for name, group in groups.items():
        print(f"\n{name}: {len(group)} deals")
        print(f"  total  {interval([d.margin() for d in group])}")
        for part in PARTS:
            print(f"  {part:5}  {interval([d.margin(part) for d in group])}")
    print(f"\nworst {worst} deals for A:")
    for deal in sorted(deals, key=lambda d: d.margin())[:worst]:
        print(f"  deal {deal.index:4}  {deal.margin():+7.1f}  "
              + "  ".join(f"{p}={deal.margin(p):+.0f}" for p in PARTS))
        for number, run in enumerate(deal.runs):
            side_a = run.who.index(0)
            print(f"     run {number}: A on side {side_a}  bids {' '.join(run.bids)}  "
                  f"tricks {' '.join(map(str, run.tricks))}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", nargs="?", default="normal")
    parser.add_argument("b", nargs="?", default="frozen")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", default="0")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--worst", type=int, default=10)
    args = parser.parse_args(argv)
    if args.b == "frozen" and not Path("bench/yardstick").is_dir():
        sys.exit("run from the project's root (bench/yardstick holds the frozen Normal)")
    work = [(args.a, args.b, args.seed, i) for i in range(args.deals)]
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=min(args.jobs, 2)) as pool:
            deals = list(pool.map(play, work, chunksize=16))
    else:
        deals = [play(w) for w in work]
    report(deals, args.worst)


if __name__ == "__main__":
    main()
