"""The laws of play, each written once, on cards as bit masks.

Which cards may be played (follow suit; the first lead; no spade led before spades are
broken, unless the hand holds nothing else), who wins a trick, when spades break under each
``spades_break`` rule, who leads first, which bids are allowed, Boston and the end of the
game, and the card and suit masks they work on.

The engine's ``legal_actions`` and ``apply`` call these, and so do the computer players
(on what a seat may see). A search that needs a leaner form of a law in its inner loop (the
playout kernel) keeps it, and a test checks it against these, for every preset and every
``spades_break`` rule.

Cards are indices (clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51, then the Little
and Big Joker 52-53, the two highest spades); a set of cards is an ``int`` with bit ``c``
set for card ``c``. Within a suit, and across spades and jokers, a higher index is a higher
card.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import BIDS, BLIND_NIL, NIL, Bid
from .cards import (
    CARDS,
    NON_SPADES_MASK,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Card,
    Suit,
)
from .rules import Rules

__all__ = [
    "ABOVE",
    "CLUBS_MASK",
    "FIRST_SPADE",
    "SPADES_MASK",
    "TWO_OF_CLUBS",
    "beaters",
    "beats",
    "boston_side",
    "breaks_spades",
    "deck_mask",
    "first_lead",
    "first_leader",
    "game_over",
    "legal_bids",
    "legal_plays",
    "trick_winner",
]

# ---------------------------------------------------------------------------- cards

#: The lowest spade (the two); every card from here up, jokers included, is a spade.
FIRST_SPADE = 39
CLUBS_MASK = SUIT_MASKS[Suit.CLUBS]
SPADES_MASK = SUIT_MASKS[Suit.SPADES]
TWO_OF_CLUBS: Card = CARDS[0]
#: Every card with a higher index than ``c``: ``ABOVE[c] & SUIT_MASKS[s]`` is the cards of
#: suit ``s`` that rank above ``c`` (for a card of that suit).
ABOVE: tuple[int, ...] = tuple(
    ((1 << len(CARDS)) - 1) & ~((1 << (c + 1)) - 1) for c in range(len(CARDS)))

_DECK_MASKS: dict[tuple[Card, ...], int] = {}


def deck_mask(rules: Rules) -> int:
    """The cards of the variant's deck, as a mask."""
    mask = _DECK_MASKS.get(rules.deck)
    if mask is None:
        mask = 0
        for card in rules.deck:
            mask |= 1 << card
        _DECK_MASKS[rules.deck] = mask
    return mask


# ---------------------------------------------------------------------------- play

def legal_plays(held: int, led: int | None, broken: bool, opening: int = 0) -> int:
    """The cards of ``held`` that may be played, as a mask.

    ``led`` is the first card of the trick, None when this card leads it: follow the suit
    led when you can, else play anything. To lead: ``opening`` (the mask of the card that
    must open the hand, see ``first_lead``) when you hold it; else no spade before spades
    are broken, unless you hold nothing but spades.
    """
    if led is not None:
        return held & SUIT_MASK_OF[led] or held
    if opening & held:
        return opening
    if not broken:
        return held & NON_SPADES_MASK or held
    return held


def breaks_spades(spades_break: str, led: int | None, card: int) -> bool:
    """Does playing ``card`` break spades (when they are not broken yet)?

    ``led`` is the first card of the trick, None when ``card`` leads it. Under ``offsuit``
    a spade played on another suit's lead breaks them; under ``any-spade``, any spade
    played; under ``void``, any card that does not follow suit. A spade led while spades
    are unbroken (from a hand of nothing but spades) breaks them under ``any-spade`` and
    ``void``, not under ``offsuit``.
    """
    if led is None:
        return card >= FIRST_SPADE and spades_break != "offsuit"
    if spades_break == "void":
        return not (1 << card) & SUIT_MASK_OF[led]
    return card >= FIRST_SPADE and (spades_break == "any-spade" or led < FIRST_SPADE)


def beaters(top: int, led_suit: int) -> int:
    """The cards that would take a trick led in ``led_suit`` from ``top``, the card winning
    it so far, as a mask: a higher spade; and when ``top`` is not a spade (so it is of the
    suit led), a higher card of the suit led or any spade."""
    if top >= FIRST_SPADE:
        return ABOVE[top] & SPADES_MASK
    return ABOVE[top] & SUIT_MASKS[led_suit] | SPADES_MASK


def beats(card: int, top: int, led_suit: int) -> bool:
    """Does ``card`` take the trick from ``top``, the card winning a trick led in
    ``led_suit``? (see ``beaters``)"""
    return bool(beaters(top, led_suit) >> card & 1)


def trick_winner(cards: Sequence[int], leader: int, players: int) -> int:
    """The seat that wins a complete trick (``cards`` in play order, led by ``leader``):
    the highest spade, else the highest card of the suit led."""
    led = SUIT_MASKS[SUIT_OF[cards[0]]]
    win = 0
    top = cards[0]
    for index in range(1, len(cards)):
        card = cards[index]
        # ``beaters(top, led) >> card & 1``, written out: this runs for every card played
        if card >= FIRST_SPADE:
            if top < FIRST_SPADE or card > top:
                top = card
                win = index
        elif top < card and (1 << card) & led:  # top < card < FIRST_SPADE
            top = card
            win = index
    return (leader + win) % players


def first_lead(rules: Rules, hands: Sequence[int]) -> int:
    """The card that must open the hand, as a mask (0 when any card may): under
    ``first_lead = lowest-club``, the lowest club dealt (``hands`` as dealt, every seat's)."""
    if rules.first_lead != "lowest-club":
        return 0
    clubs = 0
    for held in hands:
        clubs |= held & CLUBS_MASK
    return clubs & -clubs


def first_leader(rules: Rules, dealer: int, hands: Sequence[int]) -> int:
    """The seat that leads the first trick: the holder of the card that must open the hand,
    else the dealer's left."""
    opening = first_lead(rules, hands)
    if opening:
        for seat, held in enumerate(hands):
            if held & opening:
                return seat
    return (dealer + 1) % rules.players


# ---------------------------------------------------------------------------- bids

def legal_bids(rules: Rules, partner_bid: Bid | None = None, *,
               blind_nil: bool = False) -> tuple[Bid, ...]:
    """The bids a seat may make: nil (when played), then ``min_bid`` to a whole hand, then
    blind nil when ``blind_nil`` (it is still open to the seat). In suicide the first
    partner to bid chooses nil or at least ``suicide_min``, and ``partner_bid`` (the
    partner's bid, None before it) decides the other's."""
    top = rules.max_bid
    blind = (BLIND_NIL,) if blind_nil else ()
    if rules.suicide:
        high = BIDS[rules.suicide_min: top + 1]
        if partner_bid is None:
            return (NIL, *high, *blind)
        if partner_bid.nil:
            return high
        return (NIL, *blind)
    low = BIDS[rules.min_bid: top + 1]
    if rules.nil:
        return (NIL, *low, *blind)
    return low


# ---------------------------------------------------------------------------- game end

def boston_side(rules: Rules, tricks: Sequence[int]) -> int | None:
    """The side that took every trick of the hand when Boston is played (it wins the game
    at once), else None."""
    if not rules.boston:
        return None
    for index, side in enumerate(rules.sides):
        if sum(tricks[s] for s in side) == rules.hand_size:
            return index
    return None


def game_over(rules: Rules, scores: Sequence[int],
              boston: int | None = None) -> tuple[bool, int | None]:
    """(over, winning side) with each side's running ``scores`` after a hand, and the side
    that made Boston in it, if any.

    Boston wins at once. Otherwise the game is over when a side has reached the target or
    (mercy rule) fallen to the losing score, and one side has the highest score; a tie for
    the highest score plays another hand.
    """
    if boston is not None:
        return True, boston
    reached = any(s >= rules.target_score for s in scores)
    fallen = rules.losing_score is not None and any(s <= rules.losing_score for s in scores)
    if not (reached or fallen):
        return False, None
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    if len(leaders) > 1:
        return False, None
    return True, leaders[0]
