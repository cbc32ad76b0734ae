"""Bringing a store's tables to the newest schema with Alembic, once, whoever starts first.

The migration scripts ship inside the package (``spades/store/migrations``); Alembic is
configured here, in code, so no ``alembic.ini`` is needed. Every table name, the version
table's included, starts with the store's prefix (tests use a unique one), so migrations
name their tables with :func:`prefixed`.

:func:`upgrade` takes a lock first (PostgreSQL: a transaction-level advisory lock; SQLite: a
``BEGIN IMMEDIATE`` write transaction), so that several processes starting at once upgrade
exactly once: the others wait, then find nothing left to do. Inside the lock it adopts a
database that ``create_all`` made before there were migrations (its tables are the baseline:
stamp it, its games stay), then runs whatever migrations are missing, all in one transaction.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from alembic import command, op
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from .database import make_engine
from .schema import make_tables

#: Where the migration scripts are, as a package resource.
SCRIPTS = "spades.store:migrations"
#: The first migration: the schema as ``create_all`` made it before there were migrations.
BASELINE = "0001"
#: The tables of the baseline; a database holding them and no version table is adopted.
BASELINE_TABLES = ("games", "seats", "decks", "actions", "looks")
#: How long an upgrade waits for another process's upgrade of a SQLite file (milliseconds).
SQLITE_WAIT_MS = 120_000
#: Alembic's ``op`` and ``context`` are module globals: one migration at a time per process.
_RUNNING = threading.Lock()
#: The revisions are read once per process, by one thread.
_READING = threading.Lock()


class MigrationError(Exception):
    """The store's tables cannot be brought up to date; nothing was changed."""


@dataclass(frozen=True, slots=True)
class Upgrade:
    """What :func:`upgrade` found and did: the revision before (None: no version table),
    the revision after, and whether it adopted a database made before migrations."""

    before: str | None
    after: str
    adopted: bool = False

    @property
    def changed(self) -> bool:
        return self.adopted or self.before != self.after

    def describe(self) -> str:
        if self.adopted and self.before == self.after:
            return (f"adopted the tables made before migrations as the baseline "
                    f"(revision {self.after}); every game stays")
        if self.adopted:
            return (f"adopted the tables made before migrations as the baseline "
                    f"(revision {BASELINE}) and upgraded them to revision {self.after}; "
                    f"every game stays")
        if self.before is None:
            return f"created the tables (revision {self.after})"
        if self.before != self.after:
            return f"upgraded from revision {self.before} to {self.after}"
        return f"up to date (revision {self.after})"


def version_table(prefix: str = "") -> str:
    return f"{prefix}alembic_version"


def prefixed(name: str) -> str:
    """A table's (or index's) name with the prefix of the store being migrated: migration
    scripts name every table through this."""
    config = op.get_context().config
    prefix = config.attributes.get("prefix", "") if config is not None else ""
    return f"{prefix}{name}"


def config(connection: sa.Connection | None = None, prefix: str = "") -> Config:
    """Alembic's configuration, made in code: the packaged scripts, the connection to
    migrate and the table prefix (read by ``env.py`` and :func:`prefixed`)."""
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPTS)
    cfg.set_main_option("path_separator", "os")
    cfg.attributes["connection"] = connection
    cfg.attributes["prefix"] = prefix
    return cfg


def scripts() -> ScriptDirectory:
    """The packaged migrations, read afresh: Alembic's objects are not shared between
    threads (:func:`revisions` keeps what the upgrades need to know)."""
    return ScriptDirectory.from_config(config())


@functools.cache
def _revisions() -> tuple[str, ...]:
    script = scripts()
    heads = script.get_heads()
    if len(heads) != 1:
        raise MigrationError(f"the migrations have {len(heads)} newest revisions "
                             f"({', '.join(heads) or 'none'}), not one")
    return tuple(s.revision for s in script.walk_revisions())


def revisions() -> tuple[str, ...]:
    """Every revision, the newest first (read once per process; threads may ask at once)."""
    with _READING:
        return _revisions()


def reread() -> None:
    """Forget the revisions read (after writing one, or in tests)."""
    with _READING:
        _revisions.cache_clear()


def head() -> str:
    return revisions()[0]


def run_environment(context: Any) -> None:
    """The body of ``env.py``: migrate the connection :func:`config` was given. ``context``
    is ``alembic.context``, the module that stands for the running EnvironmentContext."""
    cfg = context.config
    connection = cfg.attributes.get("connection")
    if connection is None:
        raise MigrationError("run the migrations with `spades db upgrade`, which opens the "
                             "store and takes the upgrade lock, not with the alembic command")
    prefix: str = cfg.attributes.get("prefix", "")
    context.configure(
        connection=connection,
        target_metadata=make_tables(prefix).metadata,
        version_table=version_table(prefix),
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters by copying
        include_name=lambda name, kind, _parents: ours(name, kind, prefix),
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def ours(name: str | None, kind: str, prefix: str) -> bool:
    """Whether a table belongs to the store with this prefix (the version table aside):
    comparisons look at these only, so stores with other prefixes are never touched."""
    if kind != "table":
        return True
    return name is not None and name.startswith(prefix) and name != version_table(prefix)


def current(connection: sa.Connection, prefix: str = "") -> str | None:
    """The revision the database is at; None when it has no version table."""
    context = MigrationContext.configure(connection,
                                         opts={"version_table": version_table(prefix)})
    return context.get_current_revision()


def is_legacy(connection: sa.Connection, prefix: str = "") -> bool:
    """Whether the database holds the store's tables but no revision: made by
    ``create_all`` before there were migrations."""
    names = set(sa.inspect(connection).get_table_names())
    return f"{prefix}games" in names and current(connection, prefix) is None


def upgrade(engine: sa.Engine, prefix: str = "", target: str = "heads") -> Upgrade:
    """Bring the store's tables to ``target`` (the newest by default), under the lock, in
    one transaction: on any failure nothing changes."""
    if target == "heads":  # the usual start: already there, no lock, nothing to write
        with engine.connect() as conn:
            newest = head()
            if current(conn, prefix) == newest:
                return Upgrade(before=newest, after=newest)
    with engine.connect() as conn:
        try:
            lock(conn, prefix)
            before = current(conn, prefix)
            if before is not None and before not in revisions():
                raise MigrationError(
                    f"the database is at revision {before}, which this version of Spades does "
                    f"not know: a newer version upgraded it. Install that version (or newer) "
                    f"to open it; nothing was changed")
            adopted = before is None and is_legacy(conn, prefix)
            if adopted:
                names = set(sa.inspect(conn).get_table_names())
                missing = [t for t in BASELINE_TABLES if f"{prefix}{t}" not in names]
                if missing:
                    raise MigrationError(
                        f"the database has a {prefix}games table but no "
                        f"{', '.join(prefix + t for t in missing)}: it was not made by "
                        f"Spades, or only in part; nothing was changed")
                run(command.stamp, conn, prefix, BASELINE)
            run(command.upgrade, conn, prefix, target)
            after = current(conn, prefix)
            check_keys(conn, prefix)
            conn.commit()
        finally:
            unlock(conn)
    if after is None:  # pragma: no cover - alembic always writes the version
        raise MigrationError("the upgrade left no version")
    return Upgrade(before=before, after=after, adopted=adopted)


def run(step: Any, conn: sa.Connection, prefix: str, target: str) -> None:
    """One Alembic command on the locked connection; whatever a migration raises becomes a
    MigrationError (the caller rolls the transaction back)."""
    try:
        with _RUNNING:
            step(config(conn, prefix), target)
    except MigrationError:
        raise
    except Exception as error:
        raise MigrationError(f"a migration failed ({type(error).__name__}: {error}); it was "
                             f"rolled back, nothing was changed") from error


def downgrade(engine: sa.Engine, prefix: str = "", target: str = "base") -> None:
    """Undo migrations down to ``target`` (developers and tests), under the lock."""
    with engine.connect() as conn:
        try:
            lock(conn, prefix)
            run(command.downgrade, conn, prefix, target)
            check_keys(conn, prefix)
            conn.commit()
        finally:
            unlock(conn)


def lock_key(prefix: str) -> int:
    """The advisory lock's key: one per prefix, the same in every process."""
    digest = hashlib.blake2b(f"spades.store.migrate:{prefix}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock(conn: sa.Connection, prefix: str) -> None:
    """Open the upgrade's transaction holding the lock that makes other upgrades wait."""
    dialect = conn.dialect.name
    if dialect == "postgresql":  # released by the transaction's end
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(lock_key(prefix))))
    elif dialect == "sqlite":  # the write lock of the whole file, taken now, not at first write
        waited = conn.exec_driver_sql("PRAGMA busy_timeout").scalar()
        keys = conn.exec_driver_sql("PRAGMA foreign_keys").scalar()
        conn.info["spades_sqlite"] = (int(waited or 0), int(keys or 0))
        conn.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_WAIT_MS}")
        # a batch migration copies a table and drops the old one: with foreign keys on, that
        # drop would cascade and delete every seat, deck and action. Off (it can only change
        # outside a transaction), and checked before the commit instead (check_keys).
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    # other databases: Alembic's own transaction; concurrent first starts are not guarded


def unlock(conn: sa.Connection) -> None:
    """End the upgrade's transaction if it is still open (a failure: nothing is kept) and
    give the connection back as it was."""
    if conn.closed:
        return
    if conn.in_transaction():
        conn.rollback()
    saved = conn.info.pop("spades_sqlite", None)
    if saved is not None:
        conn.exec_driver_sql(f"PRAGMA busy_timeout={int(saved[0])}")
        conn.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if saved[1] else 'OFF'}")
        conn.commit()


def check_keys(conn: sa.Connection, prefix: str) -> None:
    """SQLite upgrades run with foreign keys off: before committing, prove no row of the
    store lost its game (else roll back, changing nothing)."""
    if conn.dialect.name != "sqlite":
        return
    broken = [row for name in sa.inspect(conn).get_table_names() if ours(name, "table", prefix)
              for row in conn.exec_driver_sql(f'PRAGMA foreign_key_check("{name}")').all()]
    if broken:
        tables = sorted({str(row[0]) for row in broken})
        raise MigrationError(f"the upgrade would leave rows of {', '.join(tables)} without "
                             f"their game; nothing was changed")


def differences(connection: sa.Connection, prefix: str = "") -> list[Any]:
    """What differs between the database's tables and the models (empty when the migrations
    and the models agree): Alembic's ``compare_metadata``."""
    from alembic.autogenerate import compare_metadata

    context = MigrationContext.configure(connection, opts={
        "version_table": version_table(prefix),
        "include_name": lambda name, kind, _parents: ours(name, kind, prefix),
        "compare_type": True,
    })
    return list(compare_metadata(context, make_tables(prefix).metadata))


def new_revision(message: str) -> str:
    """Write the next migration for developers: what the models have that the migrations do
    not make, compared on a scratch SQLite database. Returns the file's path; edit it
    (docs/migrations.md), never an older one."""
    import tempfile

    number = f"{int(head()) + 1:04d}"
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{folder}/scratch.db")
        try:
            upgrade(engine)
            with engine.connect() as conn, _RUNNING:
                script = command.revision(config(conn), message=message, autogenerate=True,
                                          rev_id=number)
        finally:
            engine.dispose()
    reread()
    if script is None or isinstance(script, list):  # pragma: no cover - one head, one script
        raise MigrationError("alembic wrote no single revision")
    return str(script.path)

