"""The game's standing where each plays for themselves: who threatens to win, and so what
another side's points are worth to one side (issue 40 item 3).

With two sides (partnership, two-player) the game is zero-sum: a hand's worth to a side is
its points minus the other side's, and nothing here changes that. With three or more, a
point to the leader and a point to the last are not the same loss: only the side that
ends first at the top wins. Each side's chance of winning is read from the scores and the
target as a race: every side scores about ``pace`` points a hand, give or take ``SPREAD``
times that, until the leader reaches the target, and the side with the most then wins.
Final scores spread that way (Gumbel noise, the logit model) give each side a chance
``exp(score / scale)`` up to a common factor, with ``scale`` the spread of the hands left.
A side's points lower our chance of winning in proportion to that side's chance, so the
margin to each opponent is weighed by its chance among the opponents (``threat_weights``):
the weights sum to one, and with level scores each is an equal share, which is the search's
old valuation (our points minus the opponents' average). The more hands are left, the
flatter the weights; near the target the leader's weight takes over.

Pure arithmetic on the rules and scores; ``hard`` hands the weights to ``kernel.Evaluator``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from spades.engine import Rules

#: The share of the points its tricks would be worth that a side scores in an average
#: hand (contracts set, overtricks and bags in between): a hand's ``hand_size / sides``
#: tricks at 10 points, times this. Cutthroat's arena gives 24 to 27 points a hand
#: (``bench/RESULTS.md``, issue 40), 0.75 times its 32.5.
PACE_SHARE = 0.75
#: How much one side's points in a hand vary, as a share of the pace (a made contract is
#: worth 10 a trick bid; a set, nothing or minus as much).
SPREAD = 0.8
#: Gumbel's scale per standard deviation (sqrt(6) / pi): the logit of final scores that
#: spread by one standard deviation.
_GUMBEL = math.sqrt(6.0) / math.pi


def pace(rules: Rules) -> float:
    """The points a side scores in an average hand at this table."""
    return max(1.0, PACE_SHARE * 10.0 * rules.hand_size / len(rules.sides))


def scale(rules: Rules, scores: Sequence[int]) -> float:
    """The spread (a logit scale, in points) of the final scores from these: wider with
    more hands to play before the leader reaches the target (at least one)."""
    step = pace(rules)
    hands_left = max(1.0, (rules.target_score - max(scores)) / step)
    return SPREAD * step * math.sqrt(hands_left) * _GUMBEL


def win_chances(rules: Rules, scores: Sequence[int]) -> tuple[float, ...]:
    """Each side's chance of winning the game from these scores (they sum to one)."""
    spread = scale(rules, scores)
    top = max(scores)
    odds = [math.exp((score - top) / spread) for score in scores]
    total = sum(odds)
    return tuple(o / total for o in odds)


def threat_weights(rules: Rules, side: int, scores: Sequence[int]) -> tuple[float, ...] | None:
    """How much each other side's points count against ``side`` (its own weight 0, the
    others' summing to one): each opponent's chance of winning among the opponents. None
    where every opponent weighs the same (two sides, level scores): the opponents' average,
    the valuation of a zero-sum game."""
    if len(scores) <= 2:
        return None
    spread = scale(rules, scores)
    best = max(score for other, score in enumerate(scores) if other != side)
    odds = [0.0 if other == side else math.exp((score - best) / spread)
            for other, score in enumerate(scores)]
    if all(o == 1.0 for other, o in enumerate(odds) if other != side):
        return None
    total = sum(odds)  # the best opponent's odds are 1: never zero
    return tuple(o / total for o in odds)
