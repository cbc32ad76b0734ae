"""Backup and restore of the store, safe while ``spades serve`` runs (docs/self-hosting.md).

SQLite: SQLite's online backup API copies a consistent snapshot of the file (in WAL mode the
server goes on writing meanwhile); the copy is checked, made a single self-contained file
and only then given its name, so a backup is never half written. A restore copies a backup
into a new database file, never over an existing one (the games there are somebody's).

PostgreSQL: ``pg_dump``'s custom format, restored with ``pg_restore``, when those programs
are on the PATH; otherwise the message says how to run them by hand.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess  # nosec B404 - runs pg_dump/pg_restore with a list of arguments, no shell
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from .schema import make_tables

PG_CLIENT = ("install PostgreSQL's client programs (on Debian: apt-get install "
             "postgresql-client) or run them where they are")


class BackupError(Exception):
    """A backup or restore could not be made; the message says why and what to do."""


@dataclass(frozen=True)
class Copied:
    """What a backup or restore copied: the games in it, and the file's size in bytes."""

    games: int
    size: int

    def describe(self) -> str:
        games = f"{self.games} game{'s' if self.games != 1 else ''}"
        return f"{games}, {self.size / 1e6:.1f} MB"


def backup(url: str, target: Path, prefix: str = "") -> Copied:
    """Copy the store at ``url`` into the new file ``target``."""
    parsed = sa.make_url(url)
    if target.exists():
        raise BackupError(f"{target} already exists: a backup never overwrites a file, "
                          "choose a new name")
    if not target.parent.is_dir():
        raise BackupError(f"{target.parent} is not a folder")
    if parsed.get_backend_name() == "postgresql":
        return pg_dump(parsed, target, prefix)
    source = sqlite_path(parsed)
    if not source.is_file():
        raise BackupError(f"there is no database at {source} to back up")
    return sqlite_copy(source, target, prefix, "back up")


def restore(source: Path, url: str, prefix: str = "") -> Copied:
    """Copy the backup ``source`` into the new database at ``url``."""
    parsed = sa.make_url(url)
    if not source.is_file():
        raise BackupError(f"there is no backup at {source}")
    if parsed.get_backend_name() == "postgresql":
        return pg_restore(source, parsed, prefix)
    target = sqlite_path(parsed)
    if target.exists():
        raise BackupError(f"{target} already exists: restore into a new database file (to "
                          "replace that one, stop the server and move the file aside first)")
    target.parent.mkdir(parents=True, exist_ok=True)
    return sqlite_copy(source, target, prefix, "restore")


def sqlite_path(parsed: sa.URL) -> Path:
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        raise BackupError("backup and restore work on a SQLite file or a PostgreSQL database")
    return Path(database).expanduser().resolve()


def sqlite_copy(source: Path, target: Path, prefix: str, what: str) -> Copied:
    """Copy the SQLite database ``source`` into ``target`` through a partial file."""
    source, target = source.resolve(), target.resolve()
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        # mode=rw: never create the source; the copy is one consistent snapshot (pages=-1)
        with contextlib.closing(sqlite3.connect(f"{source.as_uri()}?mode=rw", uri=True,
                                                timeout=30)) as src:
            games = count_games(src, prefix, source)
            with contextlib.closing(sqlite3.connect(partial)) as dst:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
                found = dst.execute("PRAGMA integrity_check").fetchone()
                if found is None or found[0] != "ok":
                    raise BackupError(f"the copy did not check out ({found}); nothing was "
                                      f"written at {target}")
        with open(partial, "rb+") as written:
            os.fsync(written.fileno())
        os.replace(partial, target)  # the name appears only once the copy is whole
    except sqlite3.Error as error:
        raise BackupError(f"could not {what} {source}: {error}") from error
    finally:
        partial.unlink(missing_ok=True)
    return Copied(games, target.stat().st_size)


def count_games(conn: sqlite3.Connection, prefix: str, path: Path) -> int:
    """The games in a SQLite database; BackupError if it is not a store of Spades games."""
    games = make_tables(prefix).games.name
    try:
        found = conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND name=?",
                             (games,)).fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a SQLite database ({error})") from error
    if found is None:
        raise BackupError(f"{path} holds no saved games (it has no {games} table)")
    row = conn.execute(f'SELECT count(*) FROM "{games}"').fetchone()  # nosec B608 - our name
    return int(row[0])


# ---------------------------------------------------------------------- PostgreSQL

def libpq(parsed: sa.URL) -> tuple[str, dict[str, str]]:
    """The URL as pg_dump and pg_restore take it (no +driver, no password: that goes in the
    environment, so it never shows in the list of processes)."""
    env = dict(os.environ)
    if parsed.password is not None:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def program(name: str, how: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not on the PATH: {PG_CLIENT}; by hand: {how}")
    return found


def shown(parsed: sa.URL) -> str:
    """The libpq URL without its password, for messages."""
    return parsed.set(drivername="postgresql").render_as_string(hide_password=True)


def pg_games(parsed: sa.URL, prefix: str) -> int | None:
    """The games in the PostgreSQL database (None: it has no games table)."""
    games = make_tables(prefix).games
    engine = sa.create_engine(parsed)
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table(games.name):
                return None
            return int(conn.execute(sa.select(sa.func.count()).select_from(games))
                       .scalar_one())
    except sa.exc.SQLAlchemyError as error:
        raise BackupError(f"cannot read the database at {shown(parsed)}: {error}") from error
    finally:
        engine.dispose()


def pg_dump(parsed: sa.URL, target: Path, prefix: str) -> Copied:
    dump = program("pg_dump", f"pg_dump --format=custom --file={target} {shown(parsed)}")
    games = pg_games(parsed, prefix)
    if games is None:
        raise BackupError(f"the database at {shown(parsed)} holds no saved games")
    dbname, env = libpq(parsed)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    command = [dump, "--format=custom", "--no-owner", "--no-privileges", f"--file={partial}",
               f"--dbname={dbname}"]
    if prefix:  # only this store's tables (tests share a database)
        command.append(f"--table={prefix}*")
    try:
        run(command, env, "pg_dump")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return Copied(games, target.stat().st_size)


def pg_restore(source: Path, parsed: sa.URL, prefix: str) -> Copied:
    load = program("pg_restore", f"pg_restore --no-owner --dbname={shown(parsed)} {source}")
    if pg_games(parsed, prefix) is not None:
        raise BackupError(f"the database at {shown(parsed)} already has saved games: restore "
                          "into a new database (createdb NAME), never over one in use")
    dbname, env = libpq(parsed)
    run([load, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction",
         f"--dbname={dbname}", str(source)], env, "pg_restore")
    games = pg_games(parsed, prefix)
    if games is None:
        raise BackupError(f"{source} held no saved games (is it a backup of Spades?)")
    return Copied(games, source.stat().st_size)


def run(command: list[str], env: dict[str, str], name: str) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True,  # nosec B603
                              timeout=3600, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BackupError(f"{name} could not run: {error}") from error
    if done.returncode != 0:
        raise BackupError(f"{name} failed: {done.stderr.strip() or done.returncode}")
