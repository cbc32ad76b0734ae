"""The one interface every computer player implements.

A player sees exactly what a person in its seat sees, a ``PlayerView``, and a seeded random
generator; it never receives the game state.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from spades.engine import Action, PlayerView


@runtime_checkable
class Player(Protocol):
    """Chooses one of ``view.legal`` for the seat ``view.seat``."""

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...
