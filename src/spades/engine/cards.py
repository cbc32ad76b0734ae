"""Cards, suits and card sets.

A card is a small int (``Card`` subclasses ``int``): clubs 0-12, diamonds 13-25, hearts
26-38, spades 39-51 (two up to ace in each suit), then the Little Joker (52) and the Big
Joker (53). Jokers are spades, so within the spade suit a higher index is a higher card
and the winner of a trick is always the highest index of the winning suit.

A set of cards (a hand, the cards played) is an ``int`` bit mask: bit ``c`` is set when
card ``c`` is in the set.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def noun(self) -> str:
        return ("clubs", "diamonds", "hearts", "spades")[self]


RANK_LETTERS = "23456789TJQKA"
LITTLE_JOKER_INDEX = 52
BIG_JOKER_INDEX = 53
CARD_COUNT = 54


class Card(int):
    """One card. Compare and hash as its index; ``str(card)`` is ``"AS"``, ``"TH"``, ``"BJ"``."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return SUIT_OF[self]

    @property
    def rank(self) -> int:
        """2..14 for two..ace; 15 for the Little Joker, 16 for the Big Joker."""
        return RANK_OF[self]

    @property
    def is_joker(self) -> bool:
        return self >= LITTLE_JOKER_INDEX

    @property
    def name(self) -> str:
        """A spoken name: "queen of hearts", "Big Joker"."""
        return NAME_OF[self]

    def __str__(self) -> str:
        return CODE_OF[self]

    def __repr__(self) -> str:
        return f"Card({CODE_OF[self]})"


def _code(index: int) -> str:
    if index == LITTLE_JOKER_INDEX:
        return "LJ"
    if index == BIG_JOKER_INDEX:
        return "BJ"
    return RANK_LETTERS[index % 13] + "CDHS"[index // 13]


_RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "jack", "queen", "king", "ace")


def _name(index: int) -> str:
    if index == LITTLE_JOKER_INDEX:
        return "Little Joker"
    if index == BIG_JOKER_INDEX:
        return "Big Joker"
    return f"{_RANK_NAMES[index % 13]} of {Suit(index // 13).noun}"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(CARD_COUNT))
CODE_OF: tuple[str, ...] = tuple(_code(i) for i in range(CARD_COUNT))
NAME_OF: tuple[str, ...] = tuple(_name(i) for i in range(CARD_COUNT))
SUIT_OF: tuple[Suit, ...] = tuple(Suit(min(i // 13, 3)) for i in range(CARD_COUNT))
RANK_OF: tuple[int, ...] = tuple(i % 13 + 2 if i < 52 else i - 37 for i in range(CARD_COUNT))

LITTLE_JOKER = CARDS[LITTLE_JOKER_INDEX]
BIG_JOKER = CARDS[BIG_JOKER_INDEX]

#: The bit mask of every card of each suit; the spade mask holds the jokers too.
SUIT_MASKS: tuple[int, int, int, int] = (
    ((1 << 13) - 1),
    ((1 << 13) - 1) << 13,
    ((1 << 13) - 1) << 26,
    ((1 << 15) - 1) << 39,
)
NON_SPADES_MASK = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2]
#: The suit mask of each card, for "follow suit" tests without a lookup chain.
SUIT_MASK_OF: tuple[int, ...] = tuple(SUIT_MASKS[SUIT_OF[i]] for i in range(CARD_COUNT))

_BY_CODE: dict[str, Card] = {CODE_OF[i]: CARDS[i] for i in range(CARD_COUNT)}


class CardError(ValueError):
    """A card written in a way we cannot read."""


def parse_card(text: str) -> Card:
    """Read ``"AS"``, ``"as"``, ``"10H"``, ``"TH"``, ``"BJ"`` or ``"LJ"``."""
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    card = _BY_CODE.get(code)
    if card is None:
        raise CardError(
            f"{text!r} is not a card: write a rank (2-9, T or 10, J, Q, K, A) then a suit "
            "(C, D, H, S), or BJ / LJ for the jokers"
        )
    return card




def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[Card]:
    """The cards of a mask, lowest index first (clubs, diamonds, hearts, spades, jokers)."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(CODE_OF[c] for c in cards)
