"""Every decision a person makes is one of these actions; the seat is whoever's turn it is."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import CARDS, CODE_OF, Card, CardError, parse_card


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message says why, in a player's words."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Two-player draw: keep the drawn card (the next goes face up to the discards), or
    discard it face up and keep the next."""

    keep: bool

    def __str__(self) -> str:
        return "keep" if self.keep else "discard"


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of ``tricks``; ``nil`` is a bid of no tricks with its own scoring, ``blind``
    a nil bid before looking at the cards. Use ``NIL`` and ``BLIND_NIL``."""

    tricks: int
    nil: bool = False
    blind: bool = False

    def __post_init__(self) -> None:
        if self.blind and not self.nil:
            raise ValueError("a blind bid must be nil")
        if self.nil and self.tricks:
            raise ValueError("a nil bid is a bid of no tricks")

    @property
    def label(self) -> str:
        """How a player says it: "4", "nil", "blind nil"."""
        if self.blind:
            return "blind nil"
        if self.nil:
            return "nil"
        return str(self.tricks)

    @property
    def code(self) -> int | str:
        """As a record writes it: an integer, "nil" or "blind-nil"."""
        if self.blind:
            return "blind-nil"
        if self.nil:
            return "nil"
        return self.tricks

    def __str__(self) -> str:
        return self.label


NIL = Bid(0, nil=True)
BLIND_NIL = Bid(0, nil=True, blind=True)
#: Plain bids, shared so that legal_actions builds nothing.
BIDS: tuple[Bid, ...] = tuple(Bid(n) for n in range(19))


@dataclass(frozen=True, slots=True)
class PassCards:
    """Blind-nil card passing: these cards go to the partner."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "pass " + " ".join(CODE_OF[c] for c in self.cards)


@dataclass(frozen=True, slots=True)
class Exchange:
    """Three-player kitty: the holder of the 2 of clubs swaps it for the kitty, or not."""

    take: bool

    def __str__(self) -> str:
        return "exchange" if self.take else "keep the 2 of clubs"


@dataclass(frozen=True, slots=True)
class Look:
    """Turn up one's cards. While blind nil is open to a seat its cards (and, in the draw,
    the card it would draw) stay face down; looking closes blind nil for the hand. Any seat
    may look, in turn or not, so the action names its seat. Bidding (other than blind nil)
    or drawing with the cards face down looks first."""

    seat: int

    def __str__(self) -> str:
        return "look"


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """Play ``card``: a ``Card`` (or its index) or card text such as ``"AS"``."""

    card: Card

    def __init__(self, card: Card | str) -> None:
        object.__setattr__(self, "card", _card_of(card))

    def __str__(self) -> str:
        return CODE_OF[self.card]


def _card_of(card: object) -> Card:
    if isinstance(card, str):
        try:
            return parse_card(card)
        except CardError as error:
            raise IllegalActionError(f"{error}; pass a Card or card text, "
                                     "e.g. Play('AS')") from None
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(CARDS):
        return CARDS[card]
    raise IllegalActionError(f"{card!r} is not a card: pass a Card or card text, "
                             "e.g. Play('AS')")


Action = Draw | Bid | PassCards | Exchange | Play | Look

#: One shared ``Play`` per card, so that legal_actions builds nothing new.
PLAYS: tuple[Play, ...] = tuple(Play(c) for c in CARDS)
KEEP = Draw(True)
DISCARD = Draw(False)
TAKE_KITTY = Exchange(True)
KEEP_TWO = Exchange(False)
#: One shared ``Look`` per seat.
LOOKS: tuple[Look, ...] = tuple(Look(s) for s in range(8))
