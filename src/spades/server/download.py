"""A game record to download, holding nothing the player has not seen.

The engine projects it (``spades.engine.seat_record``): a finished game is its whole record;
a game in play holds its finished hands whole and, of the hand in play, the seat's own cards
(none while they are face down for blind nil) and the actions it saw, as
``{"seen": {"seat": s, "cards": [...]}, "actions": [...]}``; the session's snapshot asks it
(``Snapshot.record``). Here it is only named.
"""

from __future__ import annotations

from typing import Any

from spades.session import Snapshot


def download(game: Snapshot, names: tuple[str, ...], seat: int,
             levels: tuple[str | None, ...] | None = None) -> dict[str, Any]:
    return game.record(seat, names, levels)
