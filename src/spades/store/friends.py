"""Tables with friends in the store (schema: ``friend_tables``, ``friend_seats``,
``stand_ins``; migrations 0003 and 0004).

A table is written whole (its row and its people's seats) in one transaction; the server
holds one lock per table, so the last write is the table as it is. Codes are stored as the
SHA-256 of the code; the code itself only while the host lets everyone seated share it
(``shared``, migration 0004). Each method is one transaction; call them from a thread
in async code.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .database import among_param, aware, failed
from .schema import Tables

WAITING = "waiting"
STARTED = "playing"
FINISHED = "over"
CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class FriendSeat:
    """A person at a table: ``state`` is "seated" (waiting for the start), "here", "away"
    (until ``away_until``), "gone" (the computer player plays for them) or "left"."""

    seat: int
    player_id: str | None
    name: str
    state: str = "seated"
    away_until: dt.datetime | None = None


@dataclass(frozen=True, slots=True)
class FriendTable:
    """A table for friends: its ``options`` (preset, level, house rules, hints, watching,
    timer, take_seats), its people and the SHA-256 of its codes (None: no link works)."""

    id: str
    host: str | None
    status: str
    created: dt.datetime
    touched: dt.datetime
    options: dict[str, Any]
    seats: tuple[FriendSeat, ...] = ()
    invite: str | None = None
    watch: str | None = None
    barred: tuple[str, ...] = ()
    next_id: str | None = None
    timer_seat: int | None = None
    timer_until: dt.datetime | None = None
    #: the invite code itself while the host lets anyone seated share the link (else None)
    shared: str | None = None

    def person(self, players: Collection[str]) -> FriendSeat | None:
        """The seat of the person with one of these ids (the lowest seat if several)."""
        mine = [s for s in self.seats if s.player_id is not None and s.player_id in players]
        return min(mine, key=lambda s: s.seat) if mine else None

    def at(self, seat: int) -> FriendSeat | None:
        return next((s for s in self.seats if s.seat == seat), None)


def _seat(row: Any) -> FriendSeat:
    return FriendSeat(seat=row.seat, player_id=row.player_id, name=row.name, state=row.state,
                      away_until=None if row.away_until is None else aware(row.away_until))


def _table(row: Any, seats: tuple[FriendSeat, ...]) -> FriendTable:
    return FriendTable(
        id=row.id, host=row.host, status=row.status, created=aware(row.created),
        touched=aware(row.touched), options=dict(row.options), seats=seats,
        invite=row.invite, watch=row.watch, barred=tuple(row.barred), next_id=row.next_id,
        timer_seat=row.timer_seat,
        timer_until=None if row.timer_until is None else aware(row.timer_until),
        shared=row.shared)


class Friends:
    """The friends' tables of one store (``Store.friends``)."""

    def __init__(self, engine: sa.Engine, tables: Tables, check_file: Callable[[], None]):
        self.engine = engine
        self.tables = tables
        self.check_file = check_file
        # built once: a table is read by its id on every socket that opens (its greeting)
        tables_c, seats_c = tables.friend_tables.c, tables.friend_seats.c
        self._seats = sa.select(tables.friend_seats).where(
            among_param(engine, seats_c.table_id, "ids")).order_by(seats_c.seat)
        self._get = sa.select(tables.friend_tables).where(
            tables_c.id == sa.bindparam("table_id"))

    def save(self, table: FriendTable) -> None:
        """Write the table whole: its row and its people (made if new)."""
        t = self.tables
        values = {"host": table.host, "status": table.status, "created": table.created,
                  "touched": table.touched, "options": table.options, "invite": table.invite,
                  "watch": table.watch, "barred": list(table.barred),
                  "next_id": table.next_id, "timer_seat": table.timer_seat,
                  "timer_until": table.timer_until, "shared": table.shared}
        self.check_file()
        try:
            with self.engine.begin() as conn:
                done = conn.execute(sa.update(t.friend_tables)
                                    .where(t.friend_tables.c.id == table.id).values(**values))
                if done.rowcount != 1:
                    conn.execute(sa.insert(t.friend_tables).values(id=table.id, **values))
                conn.execute(sa.delete(t.friend_seats)
                             .where(t.friend_seats.c.table_id == table.id))
                if table.seats:
                    conn.execute(sa.insert(t.friend_seats), [
                        {"table_id": table.id, "seat": s.seat, "player_id": s.player_id,
                         "name": s.name, "state": s.state, "away_until": s.away_until}
                        for s in table.seats])
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not save the table", error) from error

    def get(self, table_id: str) -> FriendTable | None:
        found = self._find(self._get, {"table_id": table_id})
        return found[0] if found else None

    def by_invite(self, digest: str) -> FriendTable | None:
        found = self._where(self.tables.friend_tables.c.invite == digest)
        return found[0] if found else None

    def by_watch(self, digest: str) -> FriendTable | None:
        found = self._where(self.tables.friend_tables.c.watch == digest)
        return found[0] if found else None

    def hosted(self, players: Collection[str], status: str = WAITING) -> list[FriendTable]:
        """The tables these player ids host that have ``status``."""
        c = self.tables.friend_tables.c
        return self._where(sa.and_(c.host.in_(sorted(players)), c.status == status))

    def live(self) -> list[FriendTable]:
        """Every table waiting or in play (what a restarted server picks up: grace periods
        and turn timers run on)."""
        c = self.tables.friend_tables.c
        return self._where(c.status.in_((WAITING, STARTED)))

    def with_player(self, players: Collection[str]) -> list[FriendTable]:
        """The tables where one of these ids has a seat."""
        t = self.tables
        ids = sa.select(t.friend_seats.c.table_id).where(
            t.friend_seats.c.player_id.in_(sorted(players)))
        return self._where(t.friend_tables.c.id.in_(ids))

    def _where(self, where: Any) -> list[FriendTable]:
        """The tables ``where`` holds, oldest first."""
        t = self.tables
        return self._find(sa.select(t.friend_tables).where(where)
                          .order_by(t.friend_tables.c.created))

    def _find(self, query: sa.Select[Any], params: dict[str, Any] | None = None
              ) -> list[FriendTable]:
        """The tables ``query`` selects, each with its people."""
        try:
            with self.engine.connect() as conn:
                rows = conn.execute(query, params).all()
                ids = [r.id for r in rows]
                seats: dict[str, list[FriendSeat]] = {i: [] for i in ids}
                if ids:
                    for r in conn.execute(self._seats, {"ids": ids}):
                        seats[r.table_id].append(_seat(r))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the tables", error) from error
        return [_table(r, tuple(seats[r.id])) for r in rows]

    def delete(self, table_id: str) -> None:
        t = self.tables
        self.check_file()
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.delete(t.friend_seats)
                             .where(t.friend_seats.c.table_id == table_id))
                conn.execute(sa.delete(t.friend_tables).where(t.friend_tables.c.id == table_id))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not delete the table", error) from error

    # ------------------------------------------------------------------ stand-ins

    def stand_ins(self, game_id: str, after: int = 0) -> dict[int, int]:
        """The actions made for absent people, after step ``after``: step -> seat."""
        t = self.tables
        try:
            with self.engine.connect() as conn:
                rows = conn.execute(sa.select(t.stand_ins.c.seq, t.stand_ins.c.seat)
                                    .where(t.stand_ins.c.game_id == game_id,
                                           t.stand_ins.c.seq > after)).all()
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not read the stand-ins' marks", error) from error
        return {r.seq: r.seat for r in rows}
