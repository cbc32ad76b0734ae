"""The Normal computer player: solid heuristic Spades.

Every card is weighed the same way: for each legal card, the chance that each seat ends up
winning the trick (read from the cards out, the voids shown and who still plays), times what
that seat winning is worth to our side (a needed trick, a bag, a broken nil, a set), minus
what the card would have been worth kept for later. That one rule gives the habits players
expect: second hand low, third hand high, win cheaply in fourth seat, don't overtake a
partner's sure winner, cover a partner's nil and play high over it, keep the opponents' nil
in danger, duck once the bid is made when bags cost, and go for the set when it pays.

A card's later worth counts both sides: what its trick would be worth to us (a bag once our
contract is safe) and what it takes from the opponents (a set while they still need tricks,
nothing once their tricks are bags). So a side that has made its bid keeps the winner that
can still set the opponents, and sheds its winners once they cannot be set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from spades.engine import (
    BLIND_NIL,
    DISCARD,
    KEEP,
    SUIT_MASKS,
    SUIT_OF,
    Action,
    Bid,
    Card,
    Exchange,
    Phase,
    Play,
    PlayerView,
)

from .base import forced, legal_or_first, play_of
from .bidding import evaluate, normal_bid, wants_blind_nil
from .heuristics_deal import find_pass, keep_drawn, pass_choice, rank_of
from .heuristics_trick import future_danger, future_wins, outcome, trick_now
from .heuristics_value import MAX_SIDES_FOR_ODDS, seat_values
from .knowledge import SPADES, Knowledge
from .lookahead import Lookahead

#: How much of a card's later worth counts against spending it now (the frozen Normal: 0.7).
#: Evidence: docs/ai-tuning.md#normal-future-weight
FUTURE_WEIGHT = 0.9
#: How much a later trick's worth to the opponents counts in a card's later worth: a high
#: card kept sets them when they need the trick, and is shed once they have made their bid.
#: Evidence: docs/ai-tuning.md#normal-denial-weight
DENIAL_WEIGHT = 0.5
#: At tables of three to five players each for themselves (more sides than
#: ``MAX_SIDES_FOR_ODDS``) the frozen Normal's play: this weight, no denial (the weights above
#: lost points there: docs/ai-tuning.md#normal-many-sides).
MANY_SIDES_FUTURE_WEIGHT = 0.7
DANGER = True
#: Playouts of the look ahead (``lookahead``) a decision at tables with partners, by default:
#: none. With ``search=160`` (``lookahead.SEARCH``) Normal gains 11-13 points a deal on the
#: frozen Normal, but needs some 14 ms of CPU a decision instead of 0.1: a server's Normal
#: looks ahead only while a thinking process is free (``session.thinking.LOOKS_AHEAD``).
#: Evidence: docs/ai-tuning.md#normal-search
LOOKAHEAD = 0


def choose_card(view: PlayerView) -> Card:
    """Normal's card: the legal card with the best expected worth for our side."""
    cards = [a.card for a in view.legal if isinstance(a, Play)]
    if len(cards) == 1:
        return cards[0]
    knowledge = Knowledge(view)
    now = trick_now(knowledge)
    values = seat_values(knowledge)
    mine = values[knowledge.seat]
    future_weight, denial = FUTURE_WEIGHT, DENIAL_WEIGHT
    if len(knowledge.sides) > MAX_SIDES_FOR_ODDS:
        future_weight, denial = MANY_SIDES_FUTURE_WEIGHT, 0.0
    worth = (mine - denial * _opponents_value(knowledge, values)) if denial else mine
    spades_held = knowledge.hand & SUIT_MASKS[SPADES]
    best = cards[0]
    best_score = float("-inf")
    for card in cards:
        dist = outcome(knowledge, now, card)
        score = 0.0
        for seat, p in dist.items():
            score += p * values[seat]
        if worth >= 0 or not DANGER:
            later = future_wins(knowledge, card)
        else:
            later = future_danger(knowledge, card)
        score -= future_weight * later * worth
        suit = SUIT_OF[card]
        if suit != SPADES and spades_held and knowledge.hand & SUIT_MASKS[suit] == 1 << card:
            score += 0.03 * abs(mine) + 0.05  # a void to trump in (or to shed on)
        score -= 0.001 * rank_of(card)
        if score > best_score:
            best, best_score = card, score
    return best


def _opponents_value(knowledge: Knowledge, values: list[float]) -> float:
    """What an opponent's (plain bidder's) trick is worth to my side, on average over them:
    negative while they need tricks, positive once their tricks are bags."""
    sides, side_of = knowledge.sides, knowledge.rules.side_of
    seats = [s for s in knowledge.opponents() if s not in sides[side_of[s]].nils]
    if not seats:
        return 0.0
    return sum(values[s] for s in seats) / len(seats)


def choose_bid(view: PlayerView, blind_nil: bool) -> Bid:
    bid = normal_bid(view, blind_nil=blind_nil).bid
    if bid in view.legal:
        return bid
    bids = [a for a in view.legal if isinstance(a, Bid) and not a.blind]
    return bids[0]


def choose_exchange(view: PlayerView) -> Action:
    """Swap the two of clubs for the kitty unless the hand is a good nil."""
    keep_two = view.rules.nil and evaluate(view.hand_mask, view.rules).nil_chance >= 0.55
    return legal_or_first(view, Exchange(not keep_two))


@dataclass
class NormalPlayer:
    """Solid heuristics: counts cards and voids, covers nils, avoids bags, reads the score;
    with ``search``, at tables with partners, it looks ahead (``lookahead``): a short search
    bids and may overrule its card."""

    name: str = "normal"
    blind_nil: bool = False
    #: playouts of the look ahead a decision at tables with partners (0: heuristics alone)
    search: int = LOOKAHEAD
    _lookahead: Lookahead | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.search < 0:
            raise ValueError(f"search must not be negative, not {self.search}")
        if self.search:
            self._lookahead = Lookahead(self.search)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        action = forced(view)
        if action is not None:
            return action
        legal = view.legal
        phase = view.phase
        ahead = self._lookahead if view.rules.partnership else None
        if ahead is not None and phase is Phase.PLAY:
            return ahead.card(view, rng, choose_card(view))
        if ahead is not None and phase is Phase.BID and not self._blind(view):
            return ahead.bid(view, rng)
        if phase is Phase.PLAY:
            return play_of(view, choose_card(view))
        if phase is Phase.BID:
            return choose_bid(view, self.blind_nil)
        if phase is Phase.DRAW:
            if self._blind(view):
                return BLIND_NIL
            return legal_or_first(view, KEEP if keep_drawn(view) else DISCARD)
        if phase is Phase.KITTY:
            return choose_exchange(view)
        if phase is Phase.PASS:
            return find_pass(view, pass_choice(view))
        return legal[0]

    def _blind(self, view: PlayerView) -> bool:
        """Does this seat bid blind nil now (the option on, and the hand's count says so)?"""
        return self.blind_nil and BLIND_NIL in view.legal and wants_blind_nil(view)
