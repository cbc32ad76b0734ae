"""Where Hard's bids go wrong: its bid-playout probe against the tricks it really takes.

Plays deals of Hard (one side) against an opponent (the frozen Normal by default) as the arena
does, one hand each, both chairs, and for each of Hard's plain bids records its bidding
position (1 = first to bid), the probe (the mean tricks the seat took in its bid playouts),
the bid and the tricks taken. Prints, by position: mean probe, bid, tricks, tricks minus
probe (how far the playouts undercount real play), tricks minus bid, the set rate of the
side's contract, and Hard's nil record. Figures only; nothing here can fail.

    PYTHONPATH=src nice -n 19 python3 bench/experiments/hard_bids.py --deals 40 \\
        --iterations 300 --seed 5                                # from the project root
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from spades.ai.arena import make_contender, parse_contender
from spades.ai.base import Player
from spades.ai.chairs import ChairPlan
from spades.ai.hard import HardPlayer
from spades.engine import PRESETS, Bid, HandResult, Rules, apply, new_game, player_view

_PARTS = ("contract", "set", "overtrick", "nil", "bags x10")


def _attribute(result: HandResult, side: tuple[int, ...]) -> dict[str, float]:
    """A side's points in a hand by source (partnership rules, standard scoring): its
    contract made or set, overtricks, nils won or lost, and its bags charged 10 each."""
    out = dict.fromkeys(_PARTS, 0.0)
    bidders = [s for s in side if not result.bids[s].nil]
    for s in side:
        if result.bids[s].nil:
            out["nil"] += 100.0 if result.tricks[s] == 0 else -100.0
    contract = sum(result.bids[s].tricks for s in bidders)
    taken = sum(result.tricks[s] for s in side)
    if bidders:
        mine = sum(result.tricks[s] for s in bidders)
        if mine >= contract:
            out["contract"] += 10.0 * contract
        else:
            out["set"] -= 10.0 * contract
    bags = max(0, taken - contract) if bidders else taken
    out["overtrick"] += bags
    out["bags x10"] -= 10.0 * bags
    return out


@dataclass
class Tally:
    """What the deals showed of Hard's bids."""

    #: position, probe, bid, tricks, set, partner's nil (0 none, 1 bid before, 2 after)
    rows: list[tuple[int, float, int, int, bool, int]] = field(default_factory=list)
    #: Hard's nils: position, made
    nils: list[tuple[int, bool]] = field(default_factory=list)
    #: nil considered: playout success rate, nil chosen, nil made
    considered: list[tuple[float, bool, bool]] = field(default_factory=list)
    #: points per side-hand by source, for Hard (0) and the opponent (1)
    parts: list[dict[str, float]] = field(
        default_factory=lambda: [dict.fromkeys(_PARTS, 0.0) for _ in range(2)])
    side_hands: list[int] = field(default_factory=lambda: [0, 0])


@dataclass
class Reads:
    """What Hard's bids read in one hand: the bidding order, each Hard seat's probe and
    nil playouts (made, tried)."""

    order: list[int] = field(default_factory=list)
    probes: dict[int, float] = field(default_factory=dict)
    nil_reads: dict[int, tuple[int, int]] = field(default_factory=dict)

    def note(self, seat: int, player: Player) -> None:
        self.order.append(seat)
        if isinstance(player, HardPlayer) and player.last_probe is not None:
            self.probes[seat] = player.last_probe
            player.last_probe = None
        if isinstance(player, HardPlayer) and player.last_nil is not None:
            self.nil_reads[seat] = player.last_nil
            player.last_nil = None


def play(rules: Rules, players: list[Player], seed: str, dealer: int) -> tuple[HandResult, Reads]:
    """One hand from 0-0, each seat choosing with its own seeded generator."""
    rngs = [random.Random(f"{seed}/{s}") for s in range(rules.players)]
    state = new_game(rules, seed=seed, first_dealer=dealer)
    reads = Reads()
    while not state.over and not state.results:
        seat = state.hand.turn
        action = players[seat].choose(player_view(state, seat), rngs[seat])
        if isinstance(action, Bid):
            reads.note(seat, players[seat])
        state = apply(state, action)
    return state.results[0], reads


def record(tally: Tally, rules: Rules, who: Sequence[int], result: HandResult,
           reads: Reads) -> None:
    """Add one hand to the tally: both sides' points by source, and Hard's bids."""
    for side in rules.sides:
        c = who[side[0]]
        tally.side_hands[c] += 1
        for name, value in _attribute(result, side).items():
            tally.parts[c][name] += value
    for position, seat in enumerate(reads.order):
        if who[seat] != 0:
            continue
        bid = result.bids[seat]
        if seat in reads.nil_reads:
            made, tried = reads.nil_reads[seat]
            tally.considered.append((made / max(1, tried), bid.nil,
                                     bid.nil and result.tricks[seat] == 0))
        if bid.nil:
            tally.nils.append((position + 1, result.tricks[seat] == 0))
            continue
        side = rules.sides[rules.side_of[seat]]
        bidders = [s for s in side if not result.bids[s].nil]
        contract = sum(result.bids[s].tricks for s in bidders)
        taken = sum(result.tricks[s] for s in bidders)
        partner = rules.partner_of[seat]
        covering = 0
        if partner is not None and result.bids[partner].nil:
            covering = 1 if reads.order.index(partner) < position else 2
        if seat in reads.probes:
            tally.rows.append((position + 1, reads.probes[seat], bid.tricks,
                               result.tricks[seat], taken < contract, covering))


def report(tally: Tally, players: int) -> None:
    """Print the tally: bids by position, points by source, nils."""
    rows = tally.rows
    print("pos  bids  probe   bid  tricks  tricks-probe  tricks-bid  set%")
    groups = [(f"{p:3d}", [r for r in rows if r[0] == p]) for p in range(1, players + 1)]
    groups += [("partner nil before", [r for r in rows if r[5] == 1]),
               ("partner nil after", [r for r in rows if r[5] == 2])]
    for label, mine in groups:
        if not mine:
            continue
        probe = statistics.fmean(r[1] for r in mine)
        bids = statistics.fmean(r[2] for r in mine)
        tricks = statistics.fmean(r[3] for r in mine)
        sets = 100 * sum(r[4] for r in mine) / len(mine)
        print(f"{label} {len(mine):5d} {probe:6.2f} {bids:5.2f} {tricks:7.2f} "
              f"{tricks - probe:13.2f} {tricks - bids:11.2f} {sets:5.1f}")
    print("points per side-hand by source (hard / opponent / difference):")
    for name in _PARTS:
        a = tally.parts[0][name] / max(1, tally.side_hands[0])
        b = tally.parts[1][name] / max(1, tally.side_hands[1])
        print(f"  {name:10s} {a:7.2f} {b:7.2f} {a - b:7.2f}")
    print("nil considered, by playout success rate: considered / chosen / made")
    for low, high in ((0.0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.01)):
        band = [c for c in tally.considered if low <= c[0] < high]
        print(f"  {low:.1f}-{min(high, 1.0):.1f}: {len(band):4d} {sum(c[1] for c in band):4d} "
              f"{sum(c[2] for c in band):4d}")
    made = sum(ok for _, ok in tally.nils)
    print(f"nil: {made} made of {len(tally.nils)} "
          f"(by position: {sorted(p for p, _ in tally.nils)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--opponent", default="frozen")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--options", default="",
                        help="Hard's options as in the arena, e.g. nil_saved=0.3,solve_tricks=5")
    args = parser.parse_args()
    options = dict(parse_contender("hard:" + args.options).options)
    rules = PRESETS["partnership"]
    opponent = args.opponent
    if opponent == "frozen":  # the frozen Normal, bench/yardstick
        opponent = str(Path(__file__).resolve().parent.parent / "yardstick")
    tally = Tally()
    for index in range(args.deals):
        for run in (0, 1):
            who = ChairPlan(rules).runs(index)[run]
            hard = HardPlayer(**{"iterations": args.iterations, **options})
            players = [hard if who[s] == 0 else make_contender(opponent)
                       for s in range(rules.players)]
            result, reads = play(rules, players, f"{args.seed}/{index}", index % rules.players)
            record(tally, rules, who, result, reads)
        print(f"deal {index + 1}/{args.deals}", file=sys.stderr)
    print(f"{len(tally.rows)} plain bids of Hard (iterations={args.iterations}) against "
          f"{args.opponent}, {args.deals} deals, seed {args.seed}")
    report(tally, rules.players)


if __name__ == "__main__":
    main()
