"""Normal's look ahead at tables with partners: Hard's search on a small budget.

Normal's bid is the bid this short search values best, with Normal's own nil veto on top (a
guarded king and no partner to cover it: the search's playouts do not see how often that
king is caught). Normal's card is the card its heuristics choose unless the search finds
another clearly better: better on the same sampled deals by more than ``OVERRULE`` standard
errors of the difference and by more than ``OVERRULE_POINTS``. On a budget of a hundred or
so deals, whose values are noisy, Normal so keeps the habits players expect (lead low into
an opponent's nil, lead the suit a nil partner is void in, cash the winners that set the
opponents) while the search mends what the heuristics misjudge by a lot.
Evidence: docs/ai-tuning.md#normal-search
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from spades.engine import SUIT_OF, Action, Bid, Card, Play, PlayerView

from .bidding import normal_bid, unguarded_nil
from .hard import HardPlayer, distinct_cards

#: Playouts a decision of the measured look ahead, ``normal:search=160`` (Hard's default:
#: 1,200; Normal's default is none: ``normal.LOOKAHEAD``).
SEARCH = 160
#: The exact endgame of the short search: with this many tricks left (Hard: 4).
SOLVE_TRICKS = 3
#: How many standard errors of the paired difference the search's card must be better by
#: to overrule the heuristics' card.
OVERRULE = 2.0
#: ... and by more than this many points of the hand's expected score, two tricks' worth: so a
#: search that finds every line alike (a set it cannot see how to make) leaves the card be.
OVERRULE_POINTS = 20.0


@dataclass
class Lookahead:
    """Hard's search with ``iterations`` playouts a decision, no extra budget while a nil is
    alive, and an exact endgame from ``SOLVE_TRICKS`` tricks."""

    iterations: int = SEARCH
    overrule: float = OVERRULE
    _hard: HardPlayer = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._hard = HardPlayer(iterations=self.iterations, nil_search=1.0,
                                solve_tricks=SOLVE_TRICKS, nil_solve_tricks=SOLVE_TRICKS)

    def bid(self, view: PlayerView, rng: random.Random) -> Action:
        """The search's bid; the count's where the search bids a nil Normal vetoes."""
        action = self._hard.choose(view, rng)
        if isinstance(action, Bid) and action.nil and not action.blind and unguarded_nil(view):
            counted = normal_bid(view).bid
            if counted in view.legal:
                return counted
        return action

    def card(self, view: PlayerView, rng: random.Random, own: Card) -> Action:
        """``own`` (the heuristics' card) unless the search's card is clearly better."""
        weights = self._hard.weigh_play(view, rng)
        if not weights.values:  # nothing was weighed: one card in effect, or no deal fits
            return Play(own)
        gap, error = weights.margins[_move_of(view, int(own))]
        if gap > OVERRULE_POINTS and gap > self.overrule * error:
            return weights.action
        return Play(own)


def _move_of(view: PlayerView, card: int) -> int:
    """The card the search weighs for ``card``: the lowest of the cards of its suit that
    play alike with it (``distinct_cards``)."""
    suit = SUIT_OF[card]
    return max(m for m in distinct_cards(view) if SUIT_OF[m] == suit and m <= card)
