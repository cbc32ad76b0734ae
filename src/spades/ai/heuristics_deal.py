"""Decisions before the play: the two-player draw, the kitty exchange, the blind-nil pass.

- Draw: keep the card shown when it is worth more than the unknown card we would get
  instead (the average of the cards not yet seen).
- Kitty: swap the two of clubs for the unseen kitty card, unless the hand is set on a nil
  (the two of clubs is the safest card a nil can hold).
- Pass after a blind nil: the nil bidder passes its most dangerous cards (high spades, then
  aces and kings); the partner passes its lowest cards back, side suits first.
"""

from __future__ import annotations

from spades.engine import (
    FIRST_SPADE,
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Action,
    PassCards,
    PlayerView,
    Rules,
    deck_mask,
)

from .knowledge import SPADES

_SIDE_WORTH = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02, 0.05, 0.12, 0.3, 0.6, 0.95)


def rank_of(card: int) -> int:
    """0 for a two up to 12 for an ace; 13 and 14 for the Little and Big Joker."""
    return RANK_OF[card] - 2


def card_worth(card: int, hand: int) -> float:
    """A rough count of the tricks a card brings to ``hand``."""
    suit = SUIT_OF[card]
    rank = rank_of(card)
    if suit == SPADES:
        return min(1.0, 0.4 + 0.045 * rank)
    worth = _SIDE_WORTH[rank]
    if (hand & SUIT_MASKS[suit]).bit_count() >= 5:
        worth *= 0.7
    return worth


def unseen_pool(view: PlayerView) -> int:
    """Cards this seat has not seen: not in its hand, not face up, not shown to it."""
    seen = view.hand_mask | view.played
    for card in view.discards:
        seen |= 1 << card
    if view.drawn is not None:
        seen |= 1 << view.drawn
    return deck_mask(view.rules) & ~seen


def keep_drawn(view: PlayerView) -> bool:
    """Two-player draw: keep the card shown, or take the unknown next one instead."""
    drawn = view.drawn
    if drawn is None:
        return True
    hand = view.hand_mask
    pool = unseen_pool(view)
    count = pool.bit_count()
    if not count:
        return True
    total = 0.0
    mask = pool
    while mask:
        low = mask & -mask
        total += card_worth(low.bit_length() - 1, hand)
        mask ^= low
    return card_worth(drawn, hand) >= total / count


def pass_choice(view: PlayerView) -> tuple[int, ...]:
    """The cards to pass to the partner after a blind nil."""
    rules: Rules = view.rules
    size = rules.blind_nil_pass
    bid = view.bids[view.seat]
    cards = list(view.hand)
    if bid is not None and bid.nil:
        # pass what would win tricks: the high spades first, then the high side cards
        cards.sort(key=lambda c: (rank_of(c) + (4 if c >= FIRST_SPADE else 0), c), reverse=True)
    else:
        # pass low cards back: the partner needs cards that cannot win
        cards.sort(key=lambda c: (rank_of(c) + (6 if c >= FIRST_SPADE else 0), c))
    return tuple(sorted(cards[:size]))


def find_pass(view: PlayerView, chosen: tuple[int, ...]) -> Action:
    wanted = set(chosen)
    for action in view.legal:
        if isinstance(action, PassCards) and set(action.cards) == wanted:
            return action
    return view.legal[0]
