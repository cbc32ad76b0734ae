"""How players' bids follow their hands: the reading Hard gives a bid.

A plain bid is read as ``intercept + slope * count``, where the count is ``estimate_tricks``
of the bidder's hand as dealt, give or take ``spread``: the deal sampler weighs a deal by how
well each bidder's hand fits its bid (``sampler.DealSampler``), and Hard imagines the bids of
seats still to speak on a sampled deal the same way (``hard._fill_bids``). Whether such a
seat bids nil at all is a chance (``NilReading``), logistic in the hand's count and its nil
likelihood (``sampler.nil_likelihood``), fitted on the same mix.

The lines are not guessed: ``bench/bid_fit.py`` seats a random mix of players (Easy, Normal,
the frozen Normal of ``bench/yardstick`` and Hard) at each kind of table, lets them bid, and
fits the line by least squares over the mix, each style weighed alike. In partnership every
style bids under its count, by 0.3 to 0.7 of a trick from every seat, so a reading at face
value dealt bidders hands too weak. The reading is softer than the fit (``SOFTEN`` times the
mix's spread about its line): the styles it was fit on bid alike, and a player who does not
(a person, another program, one who sandbags) should move the deals, not decide them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from spades.engine import Rules

from .native import adopt


@dataclass(frozen=True)
class BidReading:
    """A plain bid as ``intercept + slope * count`` of the bidder's hand, give or take
    ``spread`` (a standard deviation, in tricks)."""

    intercept: float
    slope: float
    spread: float

    def expected(self, count: float) -> float:
        """The bid a hand of this count is read to make."""
        return self.intercept + self.slope * count

    def gap(self, bid: float, count: float) -> float:
        """How far a bid is from the reading of a hand, in spreads."""
        return (bid - self.expected(count)) / self.spread


@dataclass(frozen=True)
class NilReading:
    """The chance that a hand is bid nil: logistic in the hand's count (``estimate_tricks``)
    and the log of its nil likelihood (``sampler.nil_likelihood``)."""

    intercept: float
    count: float
    likelihood: float

    def chance(self, count: float, likelihood: float) -> float:
        """How likely a hand of this count and nil likelihood is to be bid nil."""
        z = self.intercept + self.count * count + self.likelihood * math.log(
            max(likelihood, 1e-12))
        return 1.0 / (1.0 + math.exp(-min(max(z, -35.0), 35.0)))


#: How much softer the reading is than the fit (the spread read is this many times the
#: mix's): the reading is for players it was not fitted on.
#: Evidence: docs/ai-tuning.md#reading-soften
SOFTEN = 2.0

#: The fitted lines (intercept, slope, the mix's spread about its line) by kind of table:
#: (players, sides, jokers, kitty, draw); ``bench/bid_fit.py`` fits them (command and
#: figures: docs/ai-tuning.md#reading-fits).
FITS: dict[tuple[int, int, bool, bool, bool], tuple[float, float, float]] = {
    (4, 2, False, False, False): (-0.18, 0.90, 0.59),  # partnership, 2224 bids
    (4, 2, True, False, False): (-0.13, 0.94, 0.75),  # jokers, 2255 bids
    (4, 4, False, False, False): (0.49, 0.81, 0.55),  # cutthroat, 2400 bids
    (3, 3, True, False, False): (0.54, 0.83, 0.88),  # three-player, 1800 bids
    (3, 3, False, True, False): (-0.38, 0.94, 0.88),  # three-player-kitty, 1800 bids
    (5, 5, True, False, False): (0.54, 0.87, 0.52),  # five-player, 3000 bids
    (2, 2, False, False, True): (-3.42, 1.04, 0.88),  # two-player, 1189 bids
}

#: The chance of nil by kind of table (intercept, per trick of count, per unit of the log
#: nil likelihood), fitted by ``bench/bid_fit.py``; tables where nil is off by default have
#: none (partnership's is read). Command and figures: docs/ai-tuning.md#reading-nil-fits
NIL_FITS: dict[tuple[int, int, bool, bool, bool], tuple[float, float, float]] = {
    (4, 2, False, False, False): (2.748, -2.115, 1.011),  # partnership, 942 nils of 11510 bids
    (4, 2, True, False, False): (1.695, -1.605, 0.872),  # jokers, 819 nils of 11604 bids
    (2, 2, False, False, True): (1.977, -0.666, 1.032),  # two-player, 41 nils of 6000 bids
}

#: The line of a kind of table that was not fitted (a custom mix of options): partnership's.
_DEFAULT = (4, 2, False, False, False)


def kind_of(rules: Rules) -> tuple[int, int, bool, bool, bool]:
    """What sets a table's bids apart: seats, sides, jokers, a kitty, a draw."""
    return (rules.players, len(rules.sides), rules.jokers, rules.kitty, rules.draw)


def reading_of(rules: Rules) -> BidReading:
    """The reading of plain bids at this kind of table (``FITS``, ``SOFTEN`` times softer)."""
    intercept, slope, spread = FITS.get(kind_of(rules), FITS[_DEFAULT])
    return BidReading(intercept, slope, SOFTEN * spread)


def nil_reading_of(rules: Rules) -> NilReading:
    """The chance of nil at this kind of table (``NIL_FITS``; an unfitted kind:
    partnership's)."""
    return NilReading(*NIL_FITS.get(kind_of(rules), NIL_FITS[_DEFAULT]))


# the compiled twin's names, where it is built from this source (native.py)
adopt(globals())
