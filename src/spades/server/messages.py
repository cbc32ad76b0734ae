"""The ``state`` message of the protocol for one seat, made from a session's snapshot: the
game's facts, the seat's view (``Snapshot.view``: made once for all its messages), its
choices, and what just happened."""

from __future__ import annotations

from typing import Any

from spades.engine import Rules
from spades.session import Snapshot

from .presets import table_json
from .wire import Json, legal_json, shuffle_json, view_json


def meta_json(game_id: str, rules: Rules, names: tuple[str, ...],
              options: dict[str, Any]) -> Json:
    """What every state message says of the game, whoever reads it."""
    return {
        "id": game_id, "preset": options.get("preset", rules.name),
        "label": options.get("label", rules.name), "level": options.get("level"),
        "players": list(names),
        "sides": [list(side) for side in rules.sides], "table": table_json(rules),
        "side_names": [" and ".join(names[s] for s in side) for side in rules.sides],
        "rules": {"preset": rules.name, **rules.options()},
        "house_rules": options.get("house_rules", {}),
        # a table for friends whose host allowed no hints says so (the page hides Hint)
        "hints": options.get("hints", True) is not False,
    }


def state_json(meta: Json, snapshot: Snapshot, seat: int, events: list[Json],
               suggestion: Json | None, names: tuple[str, ...],
               can_undo: bool = False) -> Json:
    """The state message for ``seat``: only what the engine projects for it, and whether
    the seat may take back its last card or bid now (``can_undo``)."""
    view = snapshot.view(seat)
    legal = legal_json(view)
    if legal is None or legal["kind"] != "bid":
        suggestion = None
    thinking = None
    if snapshot.thinking is not None:
        thinking = {"seat": snapshot.thinking, "name": names[snapshot.thinking]}
    # the seat of the socket's player, never assumed to be seat 0
    game = {**meta, "you": seat, "partner": snapshot.rules.partner_of[seat]}
    return {"type": "state", "version": snapshot.version, "step": snapshot.step,
            "game": game, "view": view_json(view), "legal": legal,
            "suggestion": suggestion, "thinking": thinking, "events": events,
            "shuffle": shuffle_json(snapshot), "can_undo": can_undo}


def wants_suggestion(snapshot: Snapshot, seat: int) -> bool:
    """Whether the seat is to bid now (its state message then carries a suggestion)."""
    legal = legal_json(snapshot.view(seat))
    return legal is not None and legal["kind"] == "bid"
