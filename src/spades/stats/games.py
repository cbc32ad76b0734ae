"""A player's games in the store, turned into figures; a finished game's figures cached.

The player is a player id (the anonymous id the browser mints today; an account's id
later): their games are the stored games with a seat holding that id, and their seats are
those seats. Nothing here writes to the store.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Collection
from typing import Any

import sqlalchemy as sa

from spades.engine import RECORD_FORMAT, RecordError
from spades.store import GameRow, Store, StoredGame, StoreError, stored_record

from .figures import (
    GameFigures,
    Stats,
    StatsError,
    game_figures,
    level_of_seats,
    player_stats,
)

#: The most games of a player read for their statistics (the most recent ones).
MOST_GAMES = 1000


def seats_of(row: GameRow, player_id: str | Collection[str]) -> tuple[int, ...]:
    """The seats of the player (of any of a person's ids: an account's)."""
    ids = {player_id} if isinstance(player_id, str) else set(player_id)
    return tuple(s.seat for s in row.seats if s.player_id in ids)


def level_of(row: GameRow) -> str:
    """The computer players' level at the table ("easy", ...; "mixed" when they differ)."""
    return level_of_seats(s.computer_level for s in row.seats)


def record_data(stored: StoredGame) -> dict[str, Any]:
    """The stored game as a record (every deck: it stays on this side)."""
    return stored_record(stored, RECORD_FORMAT)


def stored_figures(stored: StoredGame, player_id: str | Collection[str]) -> GameFigures:
    """The player's figures in one stored game, replayed through the engine."""
    row = stored.game
    try:
        preset = row.options.get("preset")
        label = row.options.get("label") or preset
        return game_figures(
            record_data(stored), seats_of(row, player_id), game=row.id,
            preset=str(preset) if preset else None, label=str(label) if label else None,
            level=level_of(row), when=row.updated.isoformat())
    except (RecordError, StatsError) as error:
        raise StoreError(f"game {row.id!r} does not replay: {error}") from error


class FigureCache:
    """Figures of games by game, seats and version: a game's figures change only when the
    game does (a finished game's never)."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._items: OrderedDict[tuple[str, tuple[int, ...]], tuple[int, GameFigures]] = (
            OrderedDict())
        self._lock = threading.Lock()

    def get(self, game_id: str, seats: tuple[int, ...], version: int) -> GameFigures | None:
        key = (game_id, seats)
        with self._lock:
            found = self._items.get(key)
            if found is None or found[0] != version:
                return None
            self._items.move_to_end(key)
            return found[1]

    def put(self, version: int, figures: GameFigures) -> None:
        key = (figures.game, figures.seats)
        with self._lock:
            self._items[key] = (version, figures)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


def store_figures(store: Store, player_id: str | Collection[str], cache: FigureCache | None = None,
                  limit: int = MOST_GAMES,
                  unreadable: list[str] | None = None) -> list[GameFigures]:
    """The player's games (most recently played first) as figures. Blocking.

    A stored game that does not replay raises StoreError, or, when ``unreadable`` is a
    list, is left out and its message added to it (the other games still count)."""
    out = []
    for row in store.list_games(player_id, limit=limit):
        seats = seats_of(row, player_id)
        if not seats:
            continue
        cached = cache.get(row.id, seats, row.version) if cache is not None else None
        if cached is not None:
            out.append(cached)
            continue
        try:
            stored = store.load_game(row.id)
            if stored is None:  # deleted meanwhile
                continue
            figures = stored_figures(stored, player_id)
        except StoreError as error:
            if unreadable is None:
                raise
            unreadable.append(str(error))
            continue
        if cache is not None:
            cache.put(stored.game.version, figures)
        out.append(figures)
    return out


def store_stats(store: Store, player_id: str | Collection[str], cache: FigureCache | None = None,
                unreadable: list[str] | None = None) -> Stats:
    return player_stats(store_figures(store, player_id, cache, unreadable=unreadable))


def player_ids(store: Store) -> list[tuple[str, int]]:
    """Every player id with a seat in the store and its number of games, most games first."""
    seats = store.tables.seats
    query = (sa.select(seats.c.player_id, sa.func.count(sa.distinct(seats.c.game_id)))
             .where(seats.c.player_id.is_not(None)).group_by(seats.c.player_id)
             .order_by(sa.func.count(sa.distinct(seats.c.game_id)).desc(), seats.c.player_id))
    try:
        with store.engine.connect() as conn:
            return [(str(p), int(n)) for p, n in conn.execute(query).all()]
    except sa.exc.SQLAlchemyError as error:
        raise StoreError(f"could not list the players: {error}") from error


__all__ = ["FigureCache", "player_ids", "record_data", "store_figures", "store_stats",
           "stored_figures"]
