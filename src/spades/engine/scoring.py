"""Scoring a hand and deciding the end of the game: the rules' arithmetic, nothing else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .actions import Bid
from .laws import boston_side, game_over
from .rules import Rules
from .state import HandScore


class Contract(NamedTuple):
    """A side's contract in one hand: the tricks its seats that did not bid nil bid
    together (``bid``), the tricks those seats took (``taken``), and how many they are."""

    bid: int
    taken: int
    bidders: int

    @property
    def made(self) -> bool:
        """The bidders took at least what they bid (the tricks over it are bags)."""
        return self.taken >= self.bid


def contract_of(side: Sequence[int], bids: Sequence[Bid],
                tricks: Sequence[int]) -> Contract | None:
    """The side's contract in a hand; None when every seat of the side bid nil. A nil
    bidder's tricks never count towards it."""
    bid = taken = bidders = 0
    for seat in side:
        if not bids[seat].nil:
            bidders += 1
            bid += bids[seat].tricks
            taken += tricks[seat]
    return Contract(bid, taken, bidders) if bidders else None


def nil_made(taken: int) -> bool:
    """A nil or blind nil is made when its bidder takes no trick."""
    return taken == 0


def contract_points(rules: Rules, contract: int, taken: int) -> int:
    """What a contract of ``contract`` tricks (a side's plain bids added up) scores when its
    bidders take ``taken``: made, 10 a trick bid and 1 a trick over (the tricks over are
    also bags, counted apart); set, minus 10 a trick bid (``set_scoring`` minus) or nothing
    (zero). The one place the game's "10 a trick bid" is written."""
    if taken >= contract:
        return 10 * contract + (taken - contract)
    if rules.set_scoring == "minus":
        return -10 * contract
    return 0


def penalty_at_limit(rules: Rules) -> int:
    """The points a side loses each time its bags reach ``bag_limit``: ``bag_penalty``, and
    with ``bag_takeback`` the point each of those bags scored (0 with no bag limit)."""
    if rules.bag_limit is None:
        return 0
    return rules.bag_penalty + (rules.bag_limit if rules.bag_takeback else 0)


def side_points(rules: Rules, side: Sequence[int], bids: Sequence[Bid],
                tricks: Sequence[int]) -> tuple[int, int]:
    """Points and new bags a side earns in one hand, before the bag penalty.

    The playouts score every hand with this, so it reads the side once: each nil on its
    own, and the contract summed in the same pass, the sum ``contract_of`` makes (the
    tests hold the two together: tests/engine/test_contract.py)."""
    points = bags = 0
    wanted = taken = bidders = 0
    for seat in side:
        bid = bids[seat]
        won = tricks[seat]
        if not bid.nil:
            bidders += 1
            wanted += bid.tricks
            taken += won
            continue
        value = rules.blind_nil_value if bid.blind else rules.nil_value
        if nil_made(won):
            points += value
        elif rules.failed_nil == "penalty-bags":
            points += won - value
            bags += won
        elif rules.failed_nil == "bags":
            points += won
            bags += won
        else:  # penalty-void: the tricks count for nothing
            points -= value
    if not bidders:
        return points, bags
    made = taken >= wanted  # Contract.made
    if (rules.moon_value is not None and bidders == 1 and len(side) == 1
            and wanted == rules.hand_size):
        if made:  # all the tricks: nobody takes more than a hand
            return points + rules.moon_value, bags
        return points + taken, bags + taken
    points += contract_points(rules, wanted, taken)
    if made:
        bags += taken - wanted
    return points, bags


def apply_bags(rules: Rules, bags: int, new_bags: int) -> tuple[int, int]:
    """(penalty points, bag count after penalties) when ``new_bags`` join ``bags``."""
    total = bags + new_bags
    if rules.bag_limit is None:
        return 0, total
    penalty = 0
    while total >= rules.bag_limit:
        total -= rules.bag_limit
        penalty -= penalty_at_limit(rules)
    return penalty, total


def score_hand(rules: Rules, bids: Sequence[Bid], tricks: Sequence[int],
               scores: Sequence[int], bags: Sequence[int]) -> HandScore:
    """Score one finished hand: ``scores`` and ``bags`` are each side's before it."""
    points: list[int] = []
    new_bags: list[int] = []
    taken: list[int] = []
    for index, side in enumerate(rules.sides):
        earned, fresh = side_points(rules, side, bids, tricks)
        penalty, count = apply_bags(rules, bags[index], fresh)
        points.append(earned + penalty)
        new_bags.append(count)
        taken.append(fresh)
    return HandScore(
        points=tuple(points),
        bags=tuple(new_bags),
        scores=tuple(s + p for s, p in zip(scores, points, strict=True)),
        boston=boston_side(rules, tricks),
        bags_taken=tuple(taken),
    )


def game_end(rules: Rules, score: HandScore) -> tuple[bool, int | None]:
    """(over, winning side) after a hand: ``laws.game_over`` on the hand's score."""
    return game_over(rules, score.scores, score.boston)


#: Why a game ended: a side took every trick of a hand; a player shot the moon on the way to
#: the win; a side reached the target; a side fell to the losing score (mercy rule).
END_REASONS: tuple[str, ...] = ("boston", "moon", "target", "mercy")


def end_reason(rules: Rules, bids: Sequence[Bid], tricks: Sequence[int],
               score: HandScore) -> str | None:
    """Why the game ended after this hand (one of ``END_REASONS``), or None if it goes on.

    ``bids`` and ``tricks`` are the hand's, per seat; ``score`` is its ``HandScore``."""
    over, winner = game_end(rules, score)
    if not over or winner is None:
        return None
    if score.boston is not None:
        return "boston"
    if rules.moon_value is not None:
        for seat in rules.sides[winner]:
            bid = bids[seat]
            if not bid.nil and bid.tricks == rules.hand_size == tricks[seat]:
                return "moon"
    if any(s >= rules.target_score for s in score.scores):
        return "target"
    return "mercy"
