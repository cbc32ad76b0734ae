"""How the arena seats two contenders: which chairs each holds in each run of a deal.

A partnership table has one way to split it, the two sides: contender 0 holds side 0 and
then side 1, as the arena always did. At a table where each plays for themselves the two
contenders share the chairs (three players: two chairs against one; five: three against
two), and how they share them matters: who bids first, who plays after whom, who holds
the majority. The ways to split the chairs are the *arrangements*: the chairs contender 0
holds in a deal's first run, counted clockwise from the dealer (the dealer is chair 0);
every arrangement is played twice, the second time with the chairs swapped, so each
contender holds each chair once in the pair of runs. The arrangements are every balanced
split: at an odd table contender 0 takes the larger share first; at an even one the two
halves of a split are the same pair of runs, so only the half holding the dealer's chair
is listed.

* ``rotate`` (the default): deal ``i`` is played in arrangement ``i mod K`` (counted per
  round of a field's opponents), twice: a deal costs two runs as before, and ``K``
  consecutive deals cover every arrangement once.
* ``every``: each deal in every arrangement, ``2 K`` runs a deal.
* ``swap``: the arena before issue 40: contender 0 at the even chairs, then the odd ones.
  Kept so figures (and ``bench/decisions.py``'s digests) compare with earlier ones.

At a partnership table all three are the same seating.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from spades.engine import Rules

Chairs = Literal["rotate", "every", "swap"]
CHAIRS: tuple[Chairs, ...] = ("rotate", "every", "swap")


def arrangements(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The chairs (counted from the dealer) contender 0 holds in each arrangement's first
    run; a partnership table's one arrangement is side 0's seats."""
    if rules.partnership:
        return (rules.sides[0],)
    n = rules.players
    if n % 2:
        return tuple(combinations(range(n), (n + 1) // 2))
    return tuple(split for split in combinations(range(n), n // 2) if 0 in split)


def seating(rules: Rules, held: tuple[int, ...], dealer: int, swapped: bool) -> list[int]:
    """Which contender (0 or 1) sits in each seat when contender 0 holds the chairs
    ``held`` (counted from ``dealer``; a partnership's sides are seats), or the rest of
    them when ``swapped``."""
    n = rules.players
    start = 0 if rules.partnership else dealer
    first = [0 if (seat - start) % n in held else 1 for seat in range(n)]
    return [1 - c for c in first] if swapped else first


def swap_seating(rules: Rules, run: int) -> list[int]:
    """The seating before issue 40: a side (or the even seats) and then the other."""
    if rules.partnership:
        return [(rules.side_of[s] + run) % 2 for s in range(rules.players)]
    return [(s + run) % 2 for s in range(rules.players)]


@dataclass(frozen=True)
class ChairPlan:
    """How a match seats its contenders: the way (``chairs``) and the arrangements."""

    rules: Rules
    chairs: Chairs = "rotate"
    #: deals share their arrangement with this many opponents in turn (a field): the
    #: arrangement moves on once a round, so each opponent meets every arrangement
    turns: int = 1

    def __post_init__(self) -> None:
        if self.chairs not in CHAIRS:
            raise ValueError(f"chairs must be one of {', '.join(CHAIRS)}, not {self.chairs!r}")
        if self.turns < 1:
            raise ValueError(f"turns must be at least 1, not {self.turns}")

    @property
    def splits(self) -> tuple[tuple[int, ...], ...]:
        return arrangements(self.rules)

    def arrangement(self, index: int) -> int:
        """The arrangement deal ``index`` is played in (``rotate``)."""
        return (index // self.turns) % len(self.splits)

    def runs(self, index: int) -> list[list[int]]:
        """Each run of deal ``index``: the contender (0 or 1) in each seat."""
        rules = self.rules
        if self.chairs == "swap":
            return [swap_seating(rules, run) for run in (0, 1)]
        dealer = index % rules.players  # the arena's first dealer of deal ``index``
        numbers = (range(len(self.splits)) if self.chairs == "every"
                   else [self.arrangement(index)])
        return [seating(rules, self.splits[k], dealer, swapped)
                for k in numbers for swapped in (False, True)]

    def played(self, indices: Iterable[int]) -> list[int]:
        """How many of the deals ``indices`` each arrangement is played in (``swap``:
        none)."""
        counts = [0] * len(self.splits)
        if self.chairs == "swap":
            return counts
        for index in indices:
            if self.chairs == "every":
                counts = [c + 1 for c in counts]
            else:
                counts[self.arrangement(index)] += 1
        return counts

    def describe(self, indices: Iterable[int]) -> str:
        """How the chairs were assigned to the deals ``indices``, in a sentence for the
        report."""
        rules = self.rules
        if rules.partnership:
            return "each deal twice, the sides swapped (the same in every mode)"
        if self.chairs == "swap":
            return ("each deal twice: the first player at the even chairs, then the odd "
                    "ones (the arena before issue 40)")
        if len(self.splits) == 1:
            return "each deal twice, the chairs swapped (one way to split the chairs)"
        names = ", ".join("+".join(str(c) for c in split) for split in self.splits)
        ways = (f"the {len(self.splits)} ways to split the {rules.players} chairs (the "
                f"first player's chairs in the first run, counted clockwise from the "
                f"dealer's, 0: {names})")
        if self.chairs == "every":
            return (f"each deal in all {ways}, each twice with the chairs swapped "
                    f"({2 * len(self.splits)} runs a deal)")
        counts = self.played(indices)
        even = "" if len(set(counts)) == 1 else (
            f"; a multiple of {len(self.splits)} deals plays each equally often")
        return (f"each deal twice with the chairs swapped; {ways} take turns deal by deal, "
                f"played {'/'.join(str(c) for c in counts)} times{even}")
