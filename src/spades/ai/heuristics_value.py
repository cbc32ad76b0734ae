"""What one trick is worth, in points, to each side: the arithmetic behind "make your bid",
"avoid bags once it is made", "cover the nil", "set them when it pays".

A trick won by a side that still needs tricks is worth its share of the contract: the
contract's swing (made vs set, plus the game when making it reaches the target) times the
chance that this very trick decides it, less a bag times the chance that the side makes its
contract without it. That chance is read from what the side can still expect to take: for
my side, my cards' chances of winning plus what my partner still needs of its bid; for the
other side, what it still needs plus the bit more players usually take than they bid. So a
side that will make its bid anyway stops collecting bags before it has made it, and a trick
given to opponents who will make theirs anyway is a bag for them. Once the contract is made
a trick is a bag. A trick won by a live nil bidder breaks the nil.
"""

from __future__ import annotations

from math import comb

from spades.engine import contract_points

from .heuristics_trick import future_wins
from .knowledge import Knowledge, SideInfo

#: Extra weight of a contract whose result decides the game.
GAME_SWING = 200.0
#: Tricks another side takes beyond what it still needs, on average (players underbid): a
#: trick they win is then partly a bag for them.
#: Evidence: docs/ai-tuning.md#normal-opponents-surplus
OPPONENTS_SURPLUS = 0.5
#: The contract's odds (``expected_tricks``, a bag when the side makes it anyway) are used at
#: tables of at most this many sides; the others keep the frozen Normal's count of what the
#: side still needs. Evidence: docs/ai-tuning.md#normal-many-sides
MAX_SIDES_FOR_ODDS = 2


def binomial_pmf(trials: int, p: float, hits: int) -> float:
    if hits < 0 or hits > trials:
        return 0.0
    return comb(trials, hits) * p**hits * (1.0 - p) ** (trials - hits)


def contract_swing(knowledge: Knowledge, side: SideInfo) -> float:
    """Points between making ``side``'s contract and being set on it."""
    rules = knowledge.rules
    made = contract_points(rules, side.contract, side.contract)
    missed = contract_points(rules, side.contract, 0)
    swing = float(made - missed)
    if knowledge.reaches_target(side, made):
        swing += GAME_SWING
    if rules.losing_score is not None and rules.set_scoring == "minus" and (
            side.score + missed <= rules.losing_score):
        swing += GAME_SWING
    return swing


def expected_tricks(knowledge: Knowledge, side: SideInfo) -> float:
    """The tricks ``side``'s plain bidders can expect to take from here, this trick included.

    My side: my cards' chances of winning a trick (``future_wins``) when I am one of its
    bidders, plus what my partners still need of their bids. Another side: what it still
    needs, plus ``OPPONENTS_SURPLUS``."""
    if knowledge.seat not in side.seats:
        return side.need + OPPONENTS_SURPLUS
    view = knowledge.view
    total = 0.0
    for seat in side.bidders:
        if seat == knowledge.seat:
            total += sum(future_wins(knowledge, card) for card in view.hand)
        else:
            bid = view.bids[seat]
            if bid is not None:
                total += max(0, bid.tricks - view.tricks[seat])
    return total


def trick_value(knowledge: Knowledge, side: SideInfo) -> float:
    """What a trick won by one of ``side``'s plain bidders is worth to that side: the
    contract's swing when this trick decides it, a bag when the side would make its
    contract without it, and a point otherwise."""
    left = knowledge.tricks_left
    need = side.need
    if side.contract == 0 or not side.bidders:
        return 0.0
    if need == 0:
        return knowledge.bag_value(side)
    if need > left:
        return 0.0  # set whatever happens: tricks neither score nor bag
    if len(knowledge.sides) > MAX_SIDES_FOR_ODDS:
        # the frozen Normal's count: the share of the tricks left that the side still needs
        share = min(0.9, max(0.15, need / left))
        return contract_swing(knowledge, side) * binomial_pmf(left - 1, share, need - 1) + 1.0
    # the other tricks left, each won by the side with the same chance
    share = min(0.9, max(0.15, expected_tricks(knowledge, side) / left))
    pivot = binomial_pmf(left - 1, share, need - 1)
    anyway = sum(binomial_pmf(left - 1, share, won) for won in range(need, left))
    return (contract_swing(knowledge, side) * pivot + anyway * knowledge.bag_value(side)
            + (1.0 - anyway))


def nil_swing(knowledge: Knowledge, seat: int) -> float:
    """Points a live nil bidder's side loses if it takes a trick."""
    rules = knowledge.rules
    bid = knowledge.view.bids[seat]
    value = float(rules.blind_nil_value if bid is not None and bid.blind else rules.nil_value)
    swing = value if rules.failed_nil == "bags" else 2.0 * value
    side = knowledge.sides[rules.side_of[seat]]
    if knowledge.reaches_target(side, int(value) + contract_points(rules, side.contract,
                                                             side.contract)):
        swing += GAME_SWING / 2
    return swing


def broken_nil_value(knowledge: Knowledge, side: SideInfo) -> float:
    """A trick won by a nil bidder who has already taken one: a bag, or nothing."""
    if knowledge.rules.failed_nil == "penalty-void":
        return 0.0
    return knowledge.bag_value(side)


def seat_values(knowledge: Knowledge) -> list[float]:
    """For each seat, what it winning this trick is worth to my side (negative = bad)."""
    rules = knowledge.rules
    mine = rules.side_of[knowledge.seat]
    others = max(1, len(knowledge.sides) - 1)
    per_side: dict[int, float] = {}
    values: list[float] = []
    for seat in range(knowledge.n):
        index = rules.side_of[seat]
        side = knowledge.sides[index]
        sign = 1.0 if index == mine else -1.0 / others
        if seat in side.nils:
            value = -nil_swing(knowledge, seat)
        elif seat in side.broken_nils:
            value = broken_nil_value(knowledge, side)
        else:
            if index not in per_side:
                per_side[index] = trick_value(knowledge, side)
            value = per_side[index]
        values.append(sign * value)
    return values
