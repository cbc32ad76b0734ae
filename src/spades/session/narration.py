"""What a seat learns as the game goes on, as structured events that transports render in
their own words (the web table as JSON with a sentence, the terminal as lines of text).

The events are the engine's (``spades.engine.events``: a look, a bid, a card played, spades
broken, a trick won, a draw, a pass, a kitty exchange, a hand scored with its sheet line,
the next deal), except that the game's end says why it ended: ``GameEnded``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from spades.engine import Event, GameOver, GameState, end_reason, events


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over: the winning side (None: no winner), the final scores per side, and
    why (``spades.engine.END_REASONS``: boston, moon, target or mercy)."""

    winner: int | None
    scores: tuple[int, ...]
    reason: str | None


Narrated = Event | GameEnded


def ending(state: GameState) -> GameEnded:
    """The end of a finished game, with its reason."""
    reason = None
    if state.results:
        last = state.results[-1]
        reason = end_reason(state.rules, last.bids, last.tricks, last.score)
    return GameEnded(state.winner, tuple(state.scores), reason)


def narrate(before: GameState, after: GameState, seat: int) -> list[Narrated]:
    """What ``seat`` learns between two states of one game, in order (only through the
    engine's projection: nothing hidden from the seat)."""
    return told(events(before, after, seat), after)


def told(learned: Iterable[Event], after: GameState) -> list[Narrated]:
    """The engine's events as the session tells them: the game's end with its reason."""
    return [ending(after) if isinstance(event, GameOver) else event for event in learned]
