"""Who owns a game's table for now (``Store.leases``): with several server processes, exactly
one runs a table's computer players, grace periods and turn timers at a time. A process
takes a game's lease for a few seconds and renews it while it lives; when the owner dies its
lease runs out and another process takes it (docs/architecture.md, "Several processes").

The lease is a row (game, owner, until). Taking it is one transaction: renew the row if it
is ours or its time is past, else insert it; a row that is someone else's and still in time
refuses both (two processes racing for a free lease: the database lets one insert or update
win and the other sees it taken). Times are the processes' own clocks in UTC: machines that
share a database keep their clocks in step (NTP), and a lease lasts seconds, not less.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection

import sqlalchemy as sa

from .database import StoreError, among, aware, failed
from .schema import Tables


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Leases:
    """The leases of one store. Blocking methods: call them from a thread in async code."""

    def __init__(self, engine: sa.Engine, tables: Tables, check_file: Callable[[], None],
                 clock: Callable[[], dt.datetime] = utc_now):
        self.engine = engine
        self.table = tables.leases
        self.check_file = check_file
        self.clock = clock

    def take(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take or renew ``owner``'s lease of ``game_id`` for ``seconds``; False when another
        owner holds it and its time is not past."""
        return game_id in self.take_all([game_id], owner, seconds)

    def take_all(self, game_ids: Collection[str], owner: str, seconds: float) -> set[str]:
        """Take or renew ``owner``'s leases of ``game_ids`` for ``seconds`` (one transaction
        for the renewals); the ids whose lease ``owner`` now holds."""
        t = self.table
        now = self.clock()
        until = now + dt.timedelta(seconds=seconds)
        ids = sorted(set(game_ids))
        if not ids:
            return set()
        self.check_file()
        try:
            with self.engine.begin() as conn:
                ours = among(self.engine, t.c.game_id, ids)
                conn.execute(sa.update(t).where(
                    ours, sa.or_(t.c.owner == owner, t.c.until < now))
                    .values(owner=owner, until=until))
                held = {row.game_id: row.owner for row in conn.execute(
                    sa.select(t.c.game_id, t.c.owner).where(ours))}
            free = [game_id for game_id in ids if game_id not in held]
            return {g for g, who in held.items() if who == owner} | {
                g for g in free if self._insert(g, owner, until)}
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not take a table's lease", error) from error

    def _insert(self, game_id: str, owner: str, until: dt.datetime) -> bool:
        """A first lease for ``game_id``; False when another process inserted it first. A
        lease inserted meanwhile by ``owner`` itself (a table's first ``take`` as it is
        served, beside the renewal of every table) is held: a renewal that lost that race
        must not make the process stop leading a table it has just taken."""
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.insert(self.table).values(game_id=game_id, owner=owner,
                                                          until=until))
        except sa.exc.IntegrityError:
            held = self.holder(game_id)
            return held is not None and held[0] == owner
        return True

    def drop(self, game_ids: Collection[str], owner: str) -> None:
        """Give up ``owner``'s leases of ``game_ids`` (another process may take them at
        once); a lease that is not ``owner``'s stays."""
        t = self.table
        if not game_ids:
            return
        self.check_file()
        try:
            with self.engine.begin() as conn:
                conn.execute(sa.delete(t).where(
                    among(self.engine, t.c.game_id, sorted(set(game_ids))), t.c.owner == owner))
        except sa.exc.SQLAlchemyError as error:
            raise failed("could not give up a table's lease", error) from error

    def holder(self, game_id: str) -> tuple[str, dt.datetime] | None:
        """Who holds ``game_id``'s lease and until when (None: nobody ever took it)."""
        try:
            with self.engine.connect() as conn:
                row = conn.execute(sa.select(self.table.c.owner, self.table.c.until)
                                   .where(self.table.c.game_id == game_id)).first()
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(f"could not read a table's lease: {error}") from error
        return None if row is None else (row.owner, aware(row.until))
