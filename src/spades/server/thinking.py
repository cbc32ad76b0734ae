"""Computer players think in the session's worker processes (``spades.session.thinking``):
the server's ``Brain`` is the session's ``Thinker``, named here for the server's code."""

from __future__ import annotations

from spades.session.thinking import (
    _PLAYERS,
    BUDGETS,
    GRACE,
    HARD_TIME_LIMIT,
    InlineThinker,
    Thinker,
    choose,
    player_for,
    suggest,
    warm,
)
from spades.session.workers import OverrunError, StoppingError, _start_worker

Brain = Thinker

__all__ = [
    "BUDGETS",
    "GRACE",
    "HARD_TIME_LIMIT",
    "_PLAYERS",
    "Brain",
    "InlineThinker",
    "OverrunError",
    "StoppingError",
    "Thinker",
    "_start_worker",
    "choose",
    "player_for",
    "suggest",
    "warm",
]
