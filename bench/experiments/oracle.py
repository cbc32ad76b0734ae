"""Hard that sees every hand: what perfect information would be worth to its search.

A measuring tool, never a player of the game. Seated in the arena by its path (as the
frozen Normal is), it is Hard in every way but one: where it would draw the deals its seat
could be facing (``sampler.DealSampler``), it is handed the one true deal. ``where=play``
sees the deal only for card play, ``where=bid`` only for bids, ``where=both`` for both;
any other option is Hard's own.

    PYTHONPATH=src python3 bench/experiments/screen.py hard \\
        bench/experiments/oracle.py:where=play --plays \\
        --deals 300 --seed 2 --jobs 2 --cache /tmp/hard-seed2.pickle --where

Paired against Hard on the same deals, the difference is what Hard's reading of the
hidden cards (bids, voids, clues) still costs it, next to what its playouts and its
evaluation cost it. The true deal comes from the arena's own state: this module wraps the
``player_view`` that the arena (and ``screen.py``, when it is the script) builds views with,
and keeps the last state it was given. A decision whose view is not that state's seat to
act is refused, so the oracle can never play on a stale or foreign deal.

Figures only; nothing here can fail on strength.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

import spades.ai.arena as arena
import spades.ai.hard as hard
from spades.engine import Action, GameState, Phase, PlayerView, player_view

WHERE = ("play", "bid", "both")

#: the state of the last view built through ``_watch`` (the arena builds one a decision)
_last: list[GameState | None] = [None]


def _watch(state: GameState, seat: int) -> PlayerView:
    _last[0] = state
    return player_view(state, seat)


def install() -> None:
    """Wrap the ``player_view`` of the arena, and of ``screen.py`` where it is loaded, so
    that the state behind each decision is known here."""
    arena.player_view = _watch  # type: ignore[attr-defined]
    for name in ("__main__", "screen"):
        module = sys.modules.get(name)
        if module is not None and getattr(module, "player_view", None) is player_view:
            module.player_view = _watch  # type: ignore[attr-defined]


def uninstall() -> None:
    """Put back the ``player_view`` that ``install`` wrapped, and forget the state."""
    for module in (arena, sys.modules.get("__main__"), sys.modules.get("screen")):
        if module is not None and getattr(module, "player_view", None) is _watch:
            module.player_view = player_view  # type: ignore[attr-defined]
    _last[0] = None


def true_deal(view: PlayerView) -> list[int]:
    """The holdings behind ``view`` (one mask a seat, the kitty last and empty), read from the
    state the arena last built a view of; refused when that is not this view's state."""
    state = _last[0]
    if state is None:
        raise RuntimeError("the oracle sees no state: seat it through the arena "
                           "(install() wraps its player_view)")
    hand = state.hand
    if hand.turn != view.seat or hand.hands[view.seat] != view.hand_mask \
            or hand.played != view.played:
        raise RuntimeError("the last state seen is not the one this decision is about")
    return [*hand.hands, 0]


class TrueDeal:
    """Stands in for ``sampler.DealSampler``: every sample is the true deal."""

    certain = True

    def __init__(self, view: PlayerView, **_options: Any) -> None:
        self.deal = true_deal(view)

    def sample(self, rng: random.Random) -> list[int]:
        return list(self.deal)


class OraclePlayer(hard.HardPlayer):
    """Hard, handed the true deal where it would sample deals (``where``)."""

    def __init__(self, where: str = "play", **options: Any) -> None:
        if where not in WHERE:
            raise ValueError(f"where must be one of {', '.join(WHERE)}, not {where!r}")
        super().__init__(**options)
        self.where = where
        self.name = f"oracle-{where}"

    def sees(self, phase: Phase) -> bool:
        """Does it see the deal in this phase?"""
        return self.where == "both" or (self.where == "play") == (phase is Phase.PLAY)

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        if not self.sees(view.phase):
            return super().choose(view, rng)
        names = vars(hard)  # Hard builds its samples with the name DealSampler
        sampler: Callable[..., Any] = names["DealSampler"]
        names["DealSampler"] = TrueDeal
        try:
            return super().choose(view, rng)
        finally:
            names["DealSampler"] = sampler


def make_player(**options: Any) -> OraclePlayer:
    """The arena's entry point for a contender given by path."""
    install()
    return OraclePlayer(**options)
