"""The tables this server holds: creating games, finding them for a player, listing them.

A table is loaded from the store (its record replayed by the session) the first time it is
asked for, so a restarted server resumes every game where it was. The game's state stays
behind the session's API: the lobby holds its ``Snapshot``s.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from spades.engine import Rules, rules_from_json
from spades.session import (
    Appender,
    Reviews,
    Sitter,
    Snapshot,
    Thinker,
    dealt_again,
    first_deal,
    loaded,
    one_person,
    store_first,
)
from spades.store import ABANDONED, PLAYING, GameRow, SeatRow, Store, StoredGame

from .download import download
from .ids import GAME_ID, is_player_id
from .presets import (
    CREATOR_SEAT,
    DEFAULT_LEVEL,
    PRESET_LABELS,
    ChoiceError,
    level_of,
    rules_for,
)
from .seating import sitters_of
from .table import ServedTable
from .wire import Json

#: Tables kept in memory with nobody watching; beyond this the idle ones are let go,
#: once nothing has used them for ``LET_GO`` seconds.
KEEP_TABLES = 256
LET_GO = 300.0


#: One player id, or every id of one person (an account's: ``Identity.players``).
Players = str | frozenset[str]


def ids_of(players: Players) -> frozenset[str]:
    return frozenset({players}) if isinstance(players, str) else players


def seat_for(table: ServedTable, players: Players) -> int | None:
    """The seat at ``table`` of the person with these ids (the first, if several)."""
    seats = [s for s in (table.seat_of(p) for p in sorted(ids_of(players))) if s is not None]
    return min(seats) if seats else None


def seated(row: GameRow, players: Players) -> bool:
    """Whether one of ``players`` sits at the game (an abandoned game has nobody)."""
    ids = ids_of(players)
    return row.status != ABANDONED and any(s.player_id in ids for s in row.seats
                                           if s.player_id is not None)


def summary_json(row: GameRow) -> Json:
    """A line of the list of games, from the game row alone (no replay)."""
    rules = rules_from_json(row.rules)
    names = [s.name for s in row.seats]
    sides = [list(side) for side in rules.sides]
    side_names = [" and ".join(names[s] for s in side) for side in rules.sides]
    result = row.result or {}
    scores = list(result.get("scores", [0] * len(sides)))
    hands = int(result.get("hands", 0))
    winner = result.get("winner")
    standing = ", ".join(f"{n} {s}" for n, s in zip(side_names, scores, strict=True))
    if row.status == PLAYING:
        text = f"Hand {hands + 1} in play; {standing}"
    elif winner is not None:
        text = f"{side_names[winner]} won; {standing}"
    else:
        text = f"Over; {standing}"
    return {
        "id": row.id, "preset": row.options.get("preset", rules.name),
        "label": row.options.get("label", rules.name), "level": row.options.get("level"),
        "players": names, "sides": sides, "side_names": side_names,
        "created": row.created.isoformat(), "updated": row.updated.isoformat(),
        "status": row.status, "hands": hands, "scores": scores, "winner": winner,
        "text": text,
    }


def new_game_row(owner: str, rules: Rules, house_rules: dict[str, Any], level: str,
                 first_dealer: int | None = None,
                 sitters: tuple[Sitter, ...] | None = None) -> tuple[GameRow, Snapshot]:
    """A new game: ``owner`` in seat 0 and computer players of ``level`` elsewhere unless
    ``sitters`` say who sits where; its row and first deal (``spades.session``)."""
    if sitters is None:
        sitters = one_person(owner, rules.players, level, CREATOR_SEAT)
    options = {"preset": rules.name, "label": PRESET_LABELS.get(rules.name, rules.name),
               "level": level, "house_rules": house_rules}
    return first_deal(owner, rules, sitters, options, first_dealer)


class Lobby:
    def __init__(self, store: Store, thinker: Thinker, pace: float):
        self.store = store
        self.thinker = thinker
        self.pace = pace
        self.tables: dict[str, ServedTable] = {}
        #: hand reviews, kept for every table (a table let go keeps its reviews)
        self.reviews = Reviews(thinker)
        #: the tables' actions kept in the store, those made meanwhile in one transaction
        self.appender = Appender(store)
        #: game id -> its loading lock and how many wait for it (only while loading)
        self._loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        #: what a table for friends needs when it is served (``presence.Presence``)
        self.prepare: Callable[[ServedTable], Awaitable[None]] | None = None
        #: what a table needs when several processes serve it (``owners.Owners``)
        self.adopt: Callable[[ServedTable], Awaitable[None]] | None = None
        #: whether something still needs a table nobody watches (``presence``: a grace
        #: period or a turn timer running): it is not let go then
        self.held: Callable[[str], bool] | None = None
        self._stopping: set[asyncio.Task[None]] = set()

    async def create(self, owner: str, preset: Any, house_rules: Any, level: Any,
                     seats: Any = None, own: frozenset[str] | None = None) -> GameRow:
        """A new game for ``owner``: in seat 0 with computer players elsewhere, or seated
        as ``seats`` say (``seating.sitters_of``); dealt and saved."""
        if not isinstance(preset, str):
            raise ChoiceError(f"preset must be a preset name, not {preset!r}")
        if house_rules is not None and not isinstance(house_rules, dict):
            raise ChoiceError("house_rules must be an object such as {\"target_score\": 300}")
        rules, chosen = rules_for(preset, house_rules)
        chosen_level = level_of(level)
        sitters = None if seats is None else sitters_of(seats, owner, rules.players,
                                                        chosen_level, own)
        row, state = new_game_row(owner, rules, chosen, chosen_level, sitters=sitters)
        await self.store_new(row, state)
        return row

    async def store_new(self, row: GameRow, state: Snapshot) -> ServedTable:
        """Save a new game (its row and first deal) and serve it."""
        async with self._alone(row.id):
            stored = await asyncio.to_thread(store_first, self.store, row, state)
            table = self._serve(stored, state)
            await self._ready(table)
            return table

    async def _ready(self, table: ServedTable) -> None:
        """Keep a table just served, and give it what it needs: leading or following it
        with the other processes, the presence of a table for friends. Runs under the
        game's ``_alone``: nobody is handed the table before it is ready."""
        self._keep(table)
        if self.adopt is not None:
            await self.adopt(table)
        if self.prepare is not None:
            await self.prepare(table)

    async def again(self, game_id: str, owner: str, players: Players, hand: int,
                    from_scores: bool) -> GameRow | None:
        """Play finished hand ``hand`` (from 1) of a game of ``players`` again: a new game
        for ``owner`` in the same seat, computer players at the game's level in the others,
        dealt that hand's cards (from 0-0 or the scores before it); saved and served. None
        when the game is not theirs; ``ChoiceError`` says why not."""
        table = await self.table(game_id, players)
        if table is None:
            return None
        seat = seat_for(table, players)
        assert seat is not None
        old = table.row.options
        level = level_of(old.get("level") or DEFAULT_LEVEL)
        options: dict[str, Any] = {key: old[key] for key in ("preset", "label", "house_rules")
                                   if key in old}
        options.update(level=level, again={"game": game_id, "hand": hand})
        try:
            row, first = dealt_again(table.snapshot, hand - 1, secrets.token_hex(16),
                                     from_scores, owner, seat, level, options)
        except ValueError as error:
            raise ChoiceError(str(error)) from None
        await self.store_new(row, first)
        return row

    async def reseat(self, game_id: str, seat: int, row: SeatRow) -> None:
        """A seat of a game changed hands in the store: the table in memory follows."""
        table = self.tables.get(game_id)
        if table is not None:
            table.reseat(seat, row)

    def _serve(self, stored: StoredGame, state: Snapshot) -> ServedTable:
        return ServedTable(stored, state, self.store, self.thinker, self.pace, self.reviews,
                           self.appender)

    def _keep(self, table: ServedTable) -> None:
        """Hold ``table`` in memory; past ``KEEP_TABLES``, let go of the tables that have
        been idle (no socket, no turn being played, nothing held for them) for ``LET_GO``
        seconds. A table just served or just asked for stays: a socket may be about to
        join it, and a second copy of one game in memory would split its sockets."""
        table.touch()
        if len(self.tables) >= KEEP_TABLES:
            now = asyncio.get_running_loop().time()
            for game_id, old in list(self.tables.items()):
                if (old.idle and now - old.used > LET_GO
                        and (self.held is None or not self.held(game_id))):
                    self.let_go(old)
        self.tables[table.id] = table

    def let_go(self, table: ServedTable) -> None:
        """Hold ``table`` in memory no more (the next who asks for it loads it again)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        self._stopping.add(asyncio.get_running_loop().create_task(table.stop()))
        self._stopping = {t for t in self._stopping if not t.done()}

    async def table(self, game_id: str, player_id: Players) -> ServedTable | None:
        """The table of ``game_id`` if ``player_id`` (or one of a person's ids) sits at it
        (loaded if need be)."""
        if not GAME_ID.fullmatch(game_id) or not any(is_player_id(p)
                                                     for p in ids_of(player_id)):
            return None
        table = self._ready_table(game_id) or await self._load(game_id, player_id)
        if table is None:
            return None
        if seat_for(table, player_id) is None:
            return None
        table.touch()
        return table

    async def watched(self, game_id: str) -> ServedTable | None:
        """The table of ``game_id`` for its spectators (loaded if need be): the caller
        checked the watch code."""
        if not GAME_ID.fullmatch(game_id):
            return None
        table = self._ready_table(game_id) or await self._load(game_id, None)
        if table is not None:
            table.touch()
        return table

    def loading(self, game_id: str) -> bool:
        """Whether ``game_id`` is being loaded or made ready (not in ``tables`` yet)."""
        return game_id in self._loading

    def _ready_table(self, game_id: str) -> ServedTable | None:
        """The table of ``game_id`` in memory, unless it is being loaded or made ready
        (then ``_load`` waits for it: a socket that joined a table whose presence is not
        prepared yet would not be counted here)."""
        return None if game_id in self._loading else self.tables.get(game_id)

    @contextlib.asynccontextmanager
    async def _alone(self, game_id: str) -> AsyncIterator[None]:
        """One load or new game of ``game_id`` at a time; the lock is kept only while
        someone waits for it (an unknown id leaves nothing behind)."""
        entry = self._loading.get(game_id)
        if entry is None:
            entry = self._loading[game_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._loading[game_id]

    async def _load(self, game_id: str, player_id: Players | None) -> ServedTable | None:
        """Load a table once however many ask at the same time."""
        async with self._alone(game_id):
            table = self.tables.get(game_id)
            if table is not None:
                return table
            stored = await asyncio.to_thread(self.store.load_game, game_id)
            if stored is None or (player_id is not None
                                  and not seated(stored.game, player_id)):
                return None
            state = await asyncio.to_thread(loaded, stored)
            table = self._serve(stored, state)
            await self._ready(table)
            return table

    async def list_games(self, player_id: Players) -> list[Json]:
        """The person's games; ``deletable``: one in play that they started."""
        ids = ids_of(player_id)
        rows = await asyncio.to_thread(self.store.list_games, ids)
        return [{**summary_json(r), "deletable": r.status == PLAYING and r.owner in ids}
                for r in rows]

    async def seated_row(self, game_id: str, player_id: Players) -> GameRow | None:
        """The game's row if ``player_id`` sits at it (None: no such game for them)."""
        if not GAME_ID.fullmatch(game_id):
            return None
        row = await asyncio.to_thread(self.store.get_game, game_id)
        return row if row is not None and seated(row, player_id) else None

    async def summary(self, game_id: str, player_id: Players) -> Json | None:
        row = await self.seated_row(game_id, player_id)
        return None if row is None else summary_json(row)

    async def unfinished(self, players: Players) -> int:
        """How many games in play this person (any of their ids) started."""
        return await asyncio.to_thread(self.store.count_unfinished, ids_of(players))

    async def abandon(self, game_id: str) -> bool:
        """Mark a game in play abandoned (False: it is not in play): from now on nobody
        loads it; ``forget`` lets its table go once its sockets are ended."""
        return await asyncio.to_thread(self.store.abandon, game_id)

    async def seated_id(self, game_id: str, players: frozenset[str]) -> str | None:
        """Which of a person's ``players`` ids sits at ``game_id`` (None: none does, or no
        such game). A table in memory answers; else the game's row (no replay)."""
        if not GAME_ID.fullmatch(game_id):
            return None
        table = self.tables.get(game_id)
        if table is not None:
            ids = [p for p in players if table.seat_of(p) is not None]
        else:
            row = await asyncio.to_thread(self.store.get_game, game_id)
            ids = [] if row is None or not seated(row, players) else [
                s.player_id for s in row.seats
                if s.player_id is not None and s.player_id in players]
        return min(ids) if ids else None

    async def download(self, game_id: str, player_id: Players) -> Json | None:
        table = await self.table(game_id, player_id)
        if table is None:
            return None
        seat = seat_for(table, player_id)
        assert seat is not None
        async with table.lock:
            return download(table.snapshot, table.names, seat,
                            tuple(s.computer_level for s in table.row.seats))

    async def refresh_seats(self, game_ids: list[str]) -> None:
        """Read again who sits where at these games (seats changed hands in the store)."""
        for game_id in game_ids:
            table = self.tables.get(game_id)
            row = None if table is None else await asyncio.to_thread(self.store.get_game,
                                                                     game_id)
            if table is None or row is None:
                continue
            for seat in row.seats:
                if seat != table.session.seats[seat.seat]:
                    table.reseat(seat.seat, seat)

    async def forget(self, game_ids: list[str]) -> None:
        """Let go of these games' tables (their games were deleted): their sockets close."""
        for game_id in game_ids:
            table = self.tables.pop(game_id, None)
            if table is not None:
                await table.stop()

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
