"""The computer players by level name: ``make_player("normal")``."""

from __future__ import annotations

from typing import Any

from .base import Player

LEVELS: tuple[str, ...] = ("easy", "normal", "hard")


def make_player(level: str, **options: Any) -> Player:
    """A computer player of that level (``easy``, ``normal`` or ``hard``)."""
    key = level.strip().lower()
    if key == "random":
        from .simple import RandomPlayer

        return RandomPlayer(**options)
    if key == "easy":
        from .easy import EasyPlayer

        return EasyPlayer(**options)
    if key == "normal":
        from .normal import NormalPlayer

        return NormalPlayer(**options)
    if key == "hard":
        from .hard import HardPlayer

        return HardPlayer(**options)
    raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
