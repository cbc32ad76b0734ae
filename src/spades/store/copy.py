"""Copying a whole store into an empty database (``spades db copy``): a single-process
SQLite store moved to PostgreSQL, where several server processes can share it
(docs/self-hosting.md, "Moving to PostgreSQL").

The source is brought to the newest schema first (as ``spades serve`` would on start; every
migration keeps every game), then read in one transaction, so the copy is a consistent
snapshot even while a server writes to it. The target must hold no rows: a copy never
merges into somebody's games. It gets the newest schema and every row of every table,
parents before children, in one transaction: a copy that fails leaves the target empty.
``differences`` compares the two stores table by table afterwards.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa

from .database import StoreError
from .store import Store

#: Rows read and written at a time.
BATCH = 500


class CopyError(Exception):
    """The copy was not made; the message says why, and nothing was written."""


def copy_store(source: str, target: str, prefix: str = "") -> dict[str, int]:
    """Copy every row of the store at ``source`` into the empty store at ``target``;
    the rows copied, by table (without ``prefix``)."""
    try:
        same = sa.make_url(source) == sa.make_url(target)
    except (sa.exc.ArgumentError, ValueError) as error:
        raise CopyError(f"not a database URL: {error}") from error
    if same:
        raise CopyError("the source and the target are the same database")
    try:
        origin = Store(source, prefix=prefix)
    except StoreError as error:
        raise CopyError(str(error)) from error
    try:
        destination = Store(target, prefix=prefix, create=False)
    except StoreError as error:
        origin.close()
        raise CopyError(str(error)) from error
    try:
        filled = _filled(destination)
        if filled:
            raise CopyError(f"{destination.safe_url} already holds rows (in "
                            f"{', '.join(filled)}): a copy goes into an empty database only")
        destination.upgrade()
        return _copy_rows(origin, destination)
    except (sa.exc.SQLAlchemyError, StoreError) as error:
        raise CopyError(f"the copy failed, and no row was copied: {error}") from error
    finally:
        origin.close()
        destination.close()


def _filled(store: Store) -> list[str]:
    """The store's tables that exist and hold rows."""
    with store.engine.connect() as conn:
        inspector = sa.inspect(conn)
        return [_bare(table, store.prefix) for table in store.tables.metadata.sorted_tables
                if inspector.has_table(table.name)
                and conn.execute(sa.select(sa.func.count()).select_from(table)).scalar()]


def _copy_rows(origin: Store, destination: Store) -> dict[str, int]:
    copied: dict[str, int] = {}
    with origin.engine.connect() as reading, reading.begin(), \
            destination.engine.begin() as writing:
        for table in origin.tables.metadata.sorted_tables:  # parents first
            count = 0
            for batch in _rows(reading, table):
                writing.execute(table.insert(), batch)
                count += len(batch)
            copied[_bare(table, origin.prefix)] = count
    return copied


def _rows(conn: sa.Connection, table: sa.Table) -> Iterator[list[dict[str, Any]]]:
    """The table's rows in batches, in the order of their primary key, with every time
    made timezone-aware (SQLite keeps UTC times without their zone)."""
    times = [c.name for c in table.columns if isinstance(c.type, sa.DateTime)]
    order = list(table.primary_key.columns)
    result = conn.execution_options(yield_per=BATCH).execute(sa.select(table).order_by(*order))
    for part in result.partitions():
        batch = []
        for row in part:
            values = dict(row._mapping)
            for name in times:
                values[name] = _utc(values[name])
            batch.append(values)
        yield batch


def _utc(value: dt.datetime | None) -> dt.datetime | None:
    if value is None or value.tzinfo is not None:
        return value
    return value.replace(tzinfo=dt.UTC)


def _bare(table: sa.Table, prefix: str) -> str:
    return table.name[len(prefix):]


def differences(source: str, target: str, prefix: str = "") -> list[str]:
    """What differs between the rows of the two stores, table by table (empty: the same),
    times compared as instants."""
    stores = [Store(url, prefix=prefix, create=False) for url in (source, target)]
    try:
        out = []
        for table in stores[0].tables.metadata.sorted_tables:
            seen = []
            for store in stores:
                with store.engine.connect() as conn:
                    seen.append([row for batch in _rows(conn, table) for row in batch])
            if seen[0] != seen[1]:
                out.append(f"{_bare(table, prefix)}: {len(seen[0])} rows against "
                           f"{len(seen[1])}, or their values differ")
        return out
    finally:
        for store in stores:
            store.close()


def game_ids(url: str, prefix: str = "") -> list[str]:
    """Every game's id in the store, in order."""
    store = Store(url, prefix=prefix, create=False)
    try:
        with store.engine.connect() as conn:
            games = store.tables.games
            return list(conn.execute(sa.select(games.c.id).order_by(games.c.id)).scalars())
    finally:
        store.close()
