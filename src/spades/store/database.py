"""The database under a store: opening it (SQLite's settings, or a pool for PostgreSQL),
the file a SQLite store lives in, and a database's errors said for a person. ``store`` and
``accounts`` both work through this; it knows nothing of games or accounts."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.pool import StaticPool

#: How long a SQLite connection waits for another's write (milliseconds).
SQLITE_BUSY_MS = 5000
#: Connections a server database's pool keeps: one for each thread of asyncio's default
#: executor (the store is called through ``asyncio.to_thread``), so that none is opened and
#: closed again each time the threads are all busy (with SQLAlchemy's default, 5, the sixth
#: busy thread's connection was, and each costs the server a new backend process).
POOL = min(32, (os.cpu_count() or 1) + 4)
#: Seconds a pooled connection may rest and be taken again without a ping first.
IDLE_PING = 2.0


class StoreError(Exception):
    """The store could not do what was asked (the database refused or is unreachable).
    ``reason`` is a short cause for a person ("the disk is full") when it is known."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason


#: Words in a database's error and the cause they mean, for a person.
CAUSES = (
    (("database or disk is full", "no space left", "could not extend file", "diskfull"),
     "the disk is full"),
    (("readonly database", "read-only", "readonlysqltransaction", "read only"),
     "the database is read-only"),
    (("disk i/o error",), "the disk failed"),
)


def _cause(error: BaseException) -> str:
    text = f"{type(getattr(error, 'orig', None)).__name__} {error}".lower()
    for words, cause in CAUSES:
        if any(w in text for w in words):
            return cause
    return ""


def failed(what: str, error: sa.exc.SQLAlchemyError) -> StoreError:
    """A database error as a ``StoreError`` saying what failed, and why when it is known."""
    cause = _cause(error)
    return StoreError(f"{what}: {cause + ': ' if cause else ''}{error}", cause)


def aware(value: dt.datetime) -> dt.datetime:
    """A time read back from the database, in UTC (SQLite keeps no time zone)."""
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
        _write_ahead(cursor)
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def _write_ahead(cursor: Any) -> None:
    """Turn on write-ahead logging. SQLite does not wait (its busy timeout) for this one
    change: connections opening a new file at once (several servers starting, or threads)
    can be told "database is locked" while another makes the log. Wait for it, briefly."""
    deadline = time.monotonic() + SQLITE_BUSY_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
            time.sleep(0.005)


def among(engine: sa.Engine, column: sa.ColumnElement[Any],
          values: list[str]) -> sa.ColumnElement[bool]:
    """``column`` is one of ``values``: on PostgreSQL ``= ANY`` of one array parameter, so
    that the statement's text is the same for any number of values (compiled, converted by
    the driver and prepared by the server once, not once a count: a process renews the leases
    and reads the versions of hundreds of tables every second); elsewhere ``IN``."""
    if engine.dialect.name == "postgresql":
        return column == sa.any_(sa.bindparam(None, values, type_=sa.ARRAY(column.type)))
    return column.in_(values)


def among_param(engine: sa.Engine, column: sa.ColumnElement[Any],
                name: str) -> sa.ColumnElement[bool]:
    """``among`` for a statement built once: the values come at each execution as the
    parameter ``name`` (a list)."""
    if engine.dialect.name == "postgresql":
        return column == sa.any_(sa.bindparam(name, type_=sa.ARRAY(column.type)))
    return column.in_(sa.bindparam(name, expanding=True))


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database or memory)."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser().resolve()


def file_identity(path: Path | None) -> tuple[int, int] | None:
    """The file's device and inode, or None if there is no such file."""
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_dev, st.st_ino


def bad_url(url: str, error: Exception) -> str:
    """Why ``url`` cannot name a store, without repeating it (it may hold a password)."""
    if isinstance(error, ImportError):
        return f"the database driver is not installed ({error})"
    if isinstance(error, sa.exc.NoSuchModuleError):
        return f"no such kind of database ({error})"
    return ("that is not a database URL: try sqlite:///games.db or "
            "postgresql+psycopg://user@host/db")


def make_engine(url: str) -> sa.Engine:
    """An engine for ``url``: SQLite (its folder made) with its settings on every
    connection, one shared connection for an in-memory database; a checked pool else."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return _server_engine(url)
    database = parsed.database or ""
    if database in ("", ":memory:"):
        engine = sa.create_engine(url, poolclass=StaticPool,
                                  connect_args={"check_same_thread": False})
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _server_engine(url: str) -> sa.Engine:
    """An engine for a database server, whose connections are pinged only after a rest.

    SQLAlchemy's ``pool_pre_ping`` pings every connection it hands out: round trips to the
    database before each transaction, as many as a short append's own. Here a connection taken
    again within ``IDLE_PING`` seconds of its last use goes without; the pool hands out the
    one used last (LIFO), so a busy server's connections are never pinged and a quiet one's
    are checked after their rest. A connection lost in between (the server restarted) fails
    the one statement on it; SQLAlchemy then renews the pool's connections, and
    ``Store.append_actions`` tries its transaction once more."""
    engine = sa.create_engine(url, pool_size=POOL, pool_use_lifo=True)

    def rested(dbapi_connection: Any, record: Any) -> None:
        record.info["rested"] = time.monotonic()

    def checked(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.get("rested")
        if since is None or time.monotonic() - since < IDLE_PING:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:  # the pool takes another
            raise sa.exc.DisconnectionError("the connection was lost while it rested"
                                            ) from error

    sa.event.listen(engine, "connect", rested)
    sa.event.listen(engine, "checkin", rested)
    sa.event.listen(engine, "checkout", checked)
    return engine
