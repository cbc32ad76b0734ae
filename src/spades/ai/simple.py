"""The simplest honest player: a legal action at random. A baseline and a test stand-in."""

from __future__ import annotations

import random
from dataclasses import dataclass

from spades.engine import Action, PlayerView


@dataclass
class RandomPlayer:
    name: str = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not view.legal:
            raise ValueError("it is not this seat's turn")
        return rng.choice(view.legal)
