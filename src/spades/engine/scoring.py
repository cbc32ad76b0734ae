"""Scoring a hand and deciding the end of the game: the rules' arithmetic, nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Bid
from .rules import Rules
from .state import HandScore


def side_points(rules: Rules, side: Sequence[int], bids: Sequence[Bid],
                tricks: Sequence[int]) -> tuple[int, int]:
    """Points and new bags a side earns in one hand, before the bag penalty."""
    points = 0
    bags = 0
    contract = 0
    taken = 0
    bidders = 0
    for seat in side:
        bid = bids[seat]
        won = tricks[seat]
        if bid.nil:
            value = rules.blind_nil_value if bid.blind else rules.nil_value
            if won == 0:
                points += value
            elif rules.failed_nil == "penalty-bags":
                points += won - value
                bags += won
            elif rules.failed_nil == "bags":
                points += won
                bags += won
            else:  # penalty-void: the tricks count for nothing
                points -= value
        else:
            bidders += 1
            contract += bid.tricks
            taken += won
    if not bidders:
        return points, bags
    if (rules.moon_value is not None and bidders == 1 and len(side) == 1
            and contract == rules.hand_size):
        if taken == contract:
            return points + rules.moon_value, bags
        return points + taken, bags + taken
    if taken >= contract:
        points += 10 * contract + (taken - contract)
        bags += taken - contract
    elif rules.set_scoring == "minus":
        points -= 10 * contract
    return points, bags


def apply_bags(rules: Rules, bags: int, new_bags: int) -> tuple[int, int]:
    """(penalty points, bag count after penalties) when ``new_bags`` join ``bags``."""
    total = bags + new_bags
    if rules.bag_limit is None:
        return 0, total
    penalty = 0
    while total >= rules.bag_limit:
        total -= rules.bag_limit
        penalty -= rules.bag_penalty
        if rules.bag_takeback:
            penalty -= rules.bag_limit
    return penalty, total


def score_hand(rules: Rules, bids: Sequence[Bid], tricks: Sequence[int],
               scores: Sequence[int], bags: Sequence[int]) -> HandScore:
    """Score one finished hand: ``scores`` and ``bags`` are each side's before it."""
    points: list[int] = []
    new_bags: list[int] = []
    boston: int | None = None
    for index, side in enumerate(rules.sides):
        earned, fresh = side_points(rules, side, bids, tricks)
        penalty, count = apply_bags(rules, bags[index], fresh)
        points.append(earned + penalty)
        new_bags.append(count)
        if rules.boston and sum(tricks[s] for s in side) == rules.hand_size:
            boston = index
    return HandScore(
        points=tuple(points),
        bags=tuple(new_bags),
        scores=tuple(s + p for s, p in zip(scores, points, strict=True)),
        boston=boston,
    )


def game_end(rules: Rules, score: HandScore) -> tuple[bool, int | None]:
    """(over, winning side) after a hand.

    Boston wins at once. Otherwise the game is over when a side has reached the target or
    (mercy rule) fallen to the losing score, and one side has the highest score; a tie for
    the highest score plays another hand.
    """
    if score.boston is not None:
        return True, score.boston
    scores = score.scores
    reached = any(s >= rules.target_score for s in scores)
    fallen = rules.losing_score is not None and any(s <= rules.losing_score for s in scores)
    if not (reached or fallen):
        return False, None
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    if len(leaders) > 1:
        return False, None
    return True, leaders[0]
