"""What Hard would have done: beside each bid and card of a finished hand, the Hard player's
choice from that seat's view at that moment and, double dummy, what that choice was worth
against what was played (docs/review.md, "What Hard would have done").

The choices are deterministic: Hard searches a fixed number of playouts
(``HARD_ITERATIONS``, no time limit) with a random generator seeded from the hand's deck (a
finished hand's cards are public), its number and the action's place in the hand; the same
review always says the same thing. The double-dummy worth of a card Hard would have played
instead is searched within a fixed number of nodes (``HARD_NODES``): out of that reach it is
left unknown (None), never guessed.

This is worked out apart from, and after, the review's own double-dummy counts
(``spades.ai.review``), so the first tricks of a review show as soon as they are solved.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from spades.engine import (
    CODE_OF,
    Action,
    Bid,
    GameState,
    Phase,
    Play,
    PlayerView,
    apply,
    new_game,
    player_view,
)

from . import kernel as k
from .hard import HardPlayer
from .review import HandReview, finished_hand, hand_line
from .tricks import TrickSolver

#: Playouts a Hard decision of the review searches (half the table's default budget: a
#: review thinks for every seat of the hand).
HARD_ITERATIONS = 600
#: Search nodes for the double-dummy count after a card Hard would have played instead.
HARD_NODES = 200_000


@dataclass(frozen=True, slots=True)
class HardChoice:
    """Hard's choice beside one bid or card of the hand."""

    seat: int
    kind: str  #: "bid" or "play"
    played: str | int  #: what was played (a card's code) or bid (a bid's record code)
    hard: str | int  #: what Hard would have played or bid, the same way
    trick: int | None = None  #: for a card: its trick, from 1
    #: for a card: the side's tricks for the hand under best play after the card played, and
    #: after Hard's (None: not worked out within ``HARD_NODES``, or the review's count is
    #: an estimate)
    played_tricks: int | None = None
    hard_tricks: int | None = None

    @property
    def same(self) -> bool:
        return self.played == self.hard


def hand_views(state: GameState, hand: int) -> list[tuple[int, Action, PlayerView]]:
    """Each action of finished hand ``hand`` (from 1) with the view of the seat that took it,
    just before it: the game replayed from its decks up to that moment."""
    finished_hand(state, hand)
    results = state.results[:hand]
    game = new_game(state.rules, 0, decks=[r.deck for r in results],
                    first_dealer=state.first_dealer)
    out: list[tuple[int, Action, PlayerView]] = []
    for result in results:
        for seat, action in result.actions:
            if result.number == hand - 1:
                out.append((seat, action, player_view(game, seat)))
            game = apply(game, action)
    return out


def hard_choices(state: GameState, hand: int, review: HandReview | None = None,
                 iterations: int = HARD_ITERATIONS,
                 seats: Sequence[int] | None = None) -> list[HardChoice]:
    """Hard's choice beside every bid and card of finished hand ``hand`` (of ``seats``
    only, if given); with the hand's ``review``, each card's double-dummy worth beside the
    worth of the card played."""
    result = finished_hand(state, hand)
    player = HardPlayer(iterations=iterations)
    deck = "".join(CODE_OF[c] for c in result.deck)
    worth = _Worth(state, hand, review)
    out: list[HardChoice] = []
    plays = 0
    for index, (seat, action, view) in enumerate(hand_views(state, hand)):
        if isinstance(action, Play):
            plays += 1
        # a bid of the bidding (a blind nil said at a two-player draw is not one) and cards
        bid = isinstance(action, Bid) and view.phase is Phase.BID
        if not (bid or isinstance(action, Play)) or (seats is not None and seat not in seats):
            continue
        chosen = action if len(view.legal) == 1 else player.choose(
            view, random.Random(position_seed(deck, hand, index)))
        if isinstance(action, Bid) and isinstance(chosen, Bid):
            out.append(HardChoice(seat, "bid", action.code, chosen.code))
            continue
        if not isinstance(action, Play) or not isinstance(chosen, Play):
            continue  # (never: at a bid Hard bids, at a card it plays one)
        played, hard = worth.of(plays - 1, int(chosen.card))
        out.append(HardChoice(seat, "play", CODE_OF[action.card], CODE_OF[chosen.card],
                              trick=(plays - 1) // state.rules.players + 1,
                              played_tricks=played, hard_tricks=hard))
    return out


def position_seed(deck: str, hand: int, index: int) -> int:
    """The seed of Hard's decision at action ``index`` of hand ``hand`` dealt ``deck``."""
    digest = hashlib.sha256(f"spades-hindsight/1:{deck}:{hand}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def choices_json(choices: Sequence[HardChoice],
                 iterations: int = HARD_ITERATIONS) -> dict[str, Any]:
    """The review's ``hard`` entry (docs/review.md)."""
    return {"level": "hard", "iterations": iterations,
            "choices": [{**asdict(c), "same": c.same} for c in choices]}


class _Worth:
    """Double-dummy worth of a card against the card played, for the side playing it."""

    def __init__(self, state: GameState, hand: int, review: HandReview | None) -> None:
        self.review = review
        self.book, self.positions, self.line = hand_line(state, hand)
        self.solvers: dict[int, TrickSolver] = {}

    def of(self, i: int, card: int) -> tuple[int | None, int | None]:
        """(the side's tricks after card ``i`` of the line as played, after ``card`` in its
        place): None where not known exactly."""
        if self.review is None or i >= len(self.review.plays):
            return None, None
        play = self.review.plays[i]
        if not play.exact:
            return None, None
        if card == self.line[i]:
            return play.after, play.after
        pos = self.positions[i].copy()
        side = self.book.side_of[pos.turn]
        k.play(self.book, pos, card)
        taken = sum(pos.tricks[s] for s in self.book.sides[side])
        if pos.over:
            return play.after, taken
        solver = self.solvers.get(side)
        if solver is None:
            solver = self.solvers[side] = TrickSolver(self.book, side)
        low, high = solver.span(pos, play.after - taken, nodes=HARD_NODES)
        return play.after, (low + taken if low == high else None)
