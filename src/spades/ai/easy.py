"""The Easy computer player: plausible but beatable.

It plays like a beginner: bids by a rough count of aces, kings and long spades; leads its
aces and then the top of its longest suit; wins a trick with its highest card whenever it
can, even when it has no need of the trick (bags); covers its partner's nil only some of
the time; as a nil bidder it plays its lowest cards early. It never does anything absurd: it
follows suit (the engine sees to that), never plays over its partner's winning card, and
never discards a high card under it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from spades.engine import (
    BLIND_NIL,
    DISCARD,
    FIRST_SPADE,
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
    beats,
)

from .base import forced, legal_or_first, play_of
from .bidding import easy_bid, wants_blind_nil
from .heuristics_deal import find_pass, pass_choice, rank_of
from .knowledge import live_nil

#: How often Easy remembers to cover its partner's nil.
COVER_CHANCE = 0.6


def _low(cards: list[Card]) -> Card:
    """The lowest card, side suits before spades."""
    return min(cards, key=lambda c: (c >= FIRST_SPADE, rank_of(c), c))


def _lead(view: PlayerView, cards: list[Card], nil: bool, cover: bool) -> Card:
    if nil:
        return _low(cards)
    side = [c for c in cards if c < FIRST_SPADE]
    if cover and side:
        return max(side, key=rank_of)
    aces = [c for c in side if rank_of(c) == 12]
    if aces:
        return aces[0]
    pool = side or cards
    hand = view.hand_mask
    longest = max(pool, key=lambda c: ((hand & SUIT_MASKS[SUIT_OF[c]]).bit_count(), rank_of(c)))
    suit_cards = [c for c in pool if SUIT_OF[c] == SUIT_OF[longest]]
    return max(suit_cards, key=rank_of)


def easy_card(view: PlayerView, rng: random.Random) -> Card:
    cards = [a.card for a in view.legal if isinstance(a, Play)]
    if len(cards) == 1:
        return cards[0]
    nil = live_nil(view, view.seat)
    partner = view.partner
    partner_nil = partner is not None and live_nil(view, partner)
    cover = partner_nil and rng.random() < COVER_CHANCE
    if not view.trick:
        return _lead(view, cards, nil, cover)
    led = SUIT_OF[view.trick[0][1]]
    top_seat, top = view.trick[0]
    for s, c in view.trick[1:]:
        if beats(c, top, led):
            top_seat, top = s, c
    winners = [c for c in cards if beats(c, top, led)]
    losers = [c for c in cards if c not in winners]
    following = SUIT_OF[cards[0]] == led
    if nil:
        if losers:
            return max(losers, key=rank_of) if not following else _low(losers)
        return _low(winners)
    if partner is not None and top_seat == partner:
        if cover and winners:
            return min(winners)
        return _low(losers or cards)  # never over (or a high card under) the partner
    if winners:
        if following:
            return max(winners)  # the highest card that wins: a beginner's overkill
        return min(winners)  # trump with the lowest spade that wins
    return _low(cards)


@dataclass
class EasyPlayer:
    """A beginner: rough bids, greedy play, forgets to cover a nil now and then."""

    name: str = "easy"
    blind_nil: bool = False

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        action = forced(view)
        if action is not None:
            return action
        legal = view.legal
        phase = view.phase
        if phase is Phase.PLAY:
            return play_of(view, easy_card(view, rng))
        if phase is Phase.BID:
            bid = easy_bid(view, rng, blind_nil=self.blind_nil)
            if bid in legal:
                return bid
            return next(a for a in legal if isinstance(a, Bid) and not a.blind)
        if phase is Phase.DRAW:
            if self.blind_nil and BLIND_NIL in legal and wants_blind_nil(view):
                return BLIND_NIL
            drawn = view.drawn
            keep = drawn is not None and (drawn >= FIRST_SPADE or rank_of(drawn) >= 9)
            if rng.random() < 0.1:
                keep = not keep
            return legal_or_first(view, KEEP if keep else DISCARD)
        if phase is Phase.KITTY:
            return legal_or_first(view, Exchange(True))
        if phase is Phase.PASS:
            return find_pass(view, pass_choice(view))
        return legal[0]
