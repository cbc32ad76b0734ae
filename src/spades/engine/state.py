"""The immutable state of a game and of the hand in play.

Nothing here is for clients or computer players: they see ``player_view`` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .actions import PLAYS, Action, Bid
from .cards import Card
from .rules import Rules
from .shuffle import Shuffle


class Phase(Enum):
    DRAW = "draw"
    KITTY = "kitty"
    BID = "bid"
    PASS = "pass"  # nosec B105 - the phase of passing cards, not a password
    PLAY = "play"
    OVER = "over"


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, who won it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def plays(self, players: int) -> tuple[tuple[int, Card], ...]:
        return tuple(((self.leader + i) % players, c) for i, c in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class HandScore:
    """What one hand scored, per side: points this hand, bags after penalties, running
    score after the hand; ``bags_taken``: the bags each side took in this hand, before any
    penalty (``scoring.side_points``: tricks over the bid, and a failed nil's or moon's
    tricks where the rules count them as bags)."""

    points: tuple[int, ...]
    bags: tuple[int, ...]
    scores: tuple[int, ...]
    boston: int | None = None
    bags_taken: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand, whole: enough to write its record and its score sheet line."""

    number: int
    dealer: int
    deck: tuple[Card, ...]
    actions: tuple[tuple[int, Action], ...]
    bids: tuple[Bid, ...]
    tricks: tuple[int, ...]
    history: tuple[Trick, ...]
    score: HandScore


class HandState(NamedTuple):
    """The hand in play. A NamedTuple: immutable, and cheap to build on every action."""

    number: int
    dealer: int
    deck: tuple[Card, ...]
    phase: Phase
    turn: int
    hands: tuple[int, ...]
    stock: int
    discards: tuple[Card, ...]
    kitty: Card | None
    bids: tuple[Bid | None, ...]
    passes: tuple[tuple[int, int, tuple[Card, ...]], ...]
    pending: tuple[tuple[int, int], ...]
    leader: int
    trick: tuple[Card, ...]
    tricks: tuple[int, ...]
    broken: bool
    played: int
    history: tuple[Trick, ...]
    setup: tuple[tuple[int, Action], ...]

    @property
    def actions(self) -> tuple[tuple[int, Action], ...]:
        """Every action of the hand so far, in order: the setup (draws, kitty, bids,
        passes) then the plays, which always come last and are kept in the tricks."""
        n = len(self.hands)
        plays = [((trick.leader + i) % n, PLAYS[card])
                 for trick in self.history for i, card in enumerate(trick.cards)]
        plays += [((self.leader + i) % n, PLAYS[card]) for i, card in enumerate(self.trick)]
        return self.setup + tuple(plays)

    @property
    def action_count(self) -> int:
        """How many actions the hand has had: ``len(self.actions)``, without making them."""
        return len(self.setup) + self.played.bit_count()

    def actions_from(self, start: int) -> tuple[tuple[int, Action], ...]:
        """``self.actions[start:]``, making only those (a change's few last actions, not
        the whole hand's again)."""
        if start <= len(self.setup):
            return self.actions[start:]
        n = len(self.hands)
        # every finished trick holds one card a seat: the first action wanted is card
        # ``skip`` of trick ``first``
        first, skip = divmod(start - len(self.setup), n)
        if first > len(self.history):
            return ()
        plays: list[tuple[int, Action]] = []
        for leader, cards in [(t.leader, t.cards) for t in self.history[first:]] + [
                (self.leader, self.trick)]:
            plays += [((leader + i) % n, PLAYS[card])
                      for i, card in enumerate(cards) if i >= skip]
            skip = 0
        return tuple(plays)


@dataclass(frozen=True, slots=True)
class Undo:
    """A seat took back its last card or bid and everything after it, in hand ``hand``
    (the house rule ``undo``): the hand's first ``kept`` actions stayed, ``taken`` (in
    order, with their seats) were taken back. The hand is then played on from there."""

    hand: int
    seat: int
    kept: int
    taken: tuple[tuple[int, Action], ...]


@dataclass(frozen=True, slots=True)
class Start:
    """A game begun from a chosen deal (play a deal again): its first hand's deck was
    chosen, not shuffled from the game's seed, and the game starts from these scores and
    bags (each side's)."""

    scores: tuple[int, ...]
    bags: tuple[int, ...]


class GameState(NamedTuple):
    """A whole game: rules, scores, finished hands and the hand in play."""

    rules: Rules
    seed: int | str
    decks: tuple[tuple[Card, ...], ...]
    first_dealer: int
    scores: tuple[int, ...]
    bags: tuple[int, ...]
    results: tuple[HandResult, ...]
    hand: HandState
    over: bool
    winner: int | None
    #: how the hands not in ``decks`` are dealt from ``seed`` (and any added entropy)
    shuffle: Shuffle = Shuffle()
    #: the undos so far, in order (each keeps what it took back: nothing leaves a record)
    undos: tuple[Undo, ...] = ()
    #: a game begun from a chosen deal; None for a game dealt from its seed
    start: Start | None = None
    #: why the game was marked practice beyond what it shows itself (such as "hint")
    marks: tuple[str, ...] = ()

    @property
    def phase(self) -> Phase:
        return self.hand.phase

    @property
    def turn(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.over else self.hand.turn
