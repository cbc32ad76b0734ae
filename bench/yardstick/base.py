"""The one interface every computer player implements.

A player sees exactly what a person in its seat sees, a ``PlayerView``, and a seeded random
generator; it never receives the game state.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from spades.engine import Action, Card, Play, PlayerView


@runtime_checkable
class Player(Protocol):
    """Chooses one of ``view.legal`` for the seat ``view.seat``."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


def forced(view: PlayerView) -> Action | None:
    """The action when there is no choice to make (a single legal action), else None.
    A view that is not the seat's turn is refused."""
    if not view.legal:
        raise ValueError("it is not this seat's turn")
    return view.legal[0] if len(view.legal) == 1 else None


def play_of(view: PlayerView, card: Card) -> Action:
    """Playing ``card``, which a strategy chose among the legal plays."""
    action = Play(card)
    if action not in view.legal:
        raise ValueError(f"{card} is not a legal play here")
    return action


def legal_or_first(view: PlayerView, action: Action) -> Action:
    """``action`` when it is legal, else the first legal action (a rule that forbids it)."""
    return action if action in view.legal else view.legal[0]
