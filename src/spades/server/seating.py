"""The seating of a new game, as ``POST /api/games`` says it: ``"seats"`` is one entry per
seat, ``{"player": id}`` for a person or ``{"level": "hard"}`` for a computer player."""

from __future__ import annotations

from typing import Any

from spades.session import Sitter

from .ids import is_player_id
from .presets import ChoiceError, level_of

SEAT_HELP = ('"seats" is a list with one entry per seat, each {"player": "<player id>"} '
             'or {"level": "easy" | "normal" | "hard"}')


def _sitter(entry: Any, seat: int, level: str) -> Sitter:
    if not isinstance(entry, dict) or len(entry) > 1 or set(entry) - {"player", "level"}:
        raise ChoiceError(f"seat {seat}: {SEAT_HELP}")
    if "player" in entry:
        if not is_player_id(entry["player"]):
            raise ChoiceError(f"seat {seat}: a player id is 8 to 64 characters of A-Z, a-z, "
                              "0-9, - and _")
        return Sitter(player=entry["player"])
    return Sitter(level=level_of(entry.get("level", level)))


ONLY_YOU = ("a new game seats only you: invite the others with a table for friends "
            "(POST /api/tables)")


def sitters_of(seats: Any, owner: str, players: int, level: str,
               own: frozenset[str] | None = None) -> tuple[Sitter, ...]:
    """Who sits where, checked: one entry per seat, each person once, the owner seated
    (a game is reachable only by the player ids seated at it), and nobody but the maker's
    own ids (``own``: nobody is seated without saying yes; the others are invited)."""
    if not isinstance(seats, list) or len(seats) != players:
        raise ChoiceError(f"these rules seat {players} players: {SEAT_HELP}")
    sitters = tuple(_sitter(entry, seat, level) for seat, entry in enumerate(seats))
    people = [s.player for s in sitters if s.player is not None]
    if len(set(people)) != len(people):
        raise ChoiceError("a player id can take only one seat")
    if own is not None and any(p not in own for p in people):
        raise ChoiceError(ONLY_YOU)
    if owner not in people:
        raise ChoiceError("you must sit at the game you make: put your own player id in "
                          "one of the seats")
    return sitters
