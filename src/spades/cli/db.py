"""``spades db``: ``upgrade`` the store's tables to the newest schema, show the ``current``
revision, ``backup`` the store to a file while the server runs, ``restore`` a backup,
``copy`` a whole store into an empty database (SQLite to PostgreSQL, checked by replaying
every game from both)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from spades.store import default_url


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "db", help="the saved games' database: upgrade, show the revision, back up, restore",
        description="Upgrade the tables of the store to this version of Spades (spades serve "
                    "does it on start), or show which revision they are at; back the store "
                    "up to a file (safe while spades serve runs) or restore a backup into a "
                    "new database. A database made before migrations is adopted as it is: "
                    "every game stays.")
    sub = parser.add_subparsers(dest="action",
                                metavar="{upgrade,current,backup,restore,copy}", required=True)
    for name, text, run_, file_help in (
            ("upgrade", "bring the tables to the newest schema (creating them if needed)",
             upgrade, None),
            ("current", "show the revision of the tables and the newest this version knows",
             current, None),
            ("backup", "copy the store into a new file, safely while spades serve runs "
             "(SQLite: its backup API; PostgreSQL: pg_dump's custom format)", backup,
             "the backup file to make (never overwritten)"),
            ("restore", "copy a backup into a new database (never over one that exists; "
             "PostgreSQL: pg_restore into an empty database)", restore,
             "the backup file made by spades db backup")):
        action = sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".")
        if file_help is not None:
            action.add_argument("file", type=Path, metavar="FILE", help=file_help)
        action.add_argument("--db", default=None, metavar="URL",
                            help="SQLAlchemy URL of the store, e.g. sqlite:///games.db or "
                                 "postgresql+psycopg://user@host/db (default: $SPADES_DB, "
                                 f"else {default_url()})")
        action.set_defaults(func=run_)
    register_copy(sub)


def register_copy(sub: Any) -> None:
    text = ("copy every game, account and table of a store into an empty database, e.g. "
            "from SQLite to PostgreSQL for several server processes (stop spades serve "
            "first: what it saves meanwhile is not copied); then check that every game "
            "replays the same from both")
    action = sub.add_parser("copy", help=text, description=text[:1].upper() + text[1:] + ".")
    action.add_argument("--from", dest="source", required=True, metavar="URL",
                        help="SQLAlchemy URL of the store to copy, e.g. sqlite:///games.db "
                             "(brought to the newest schema first, as spades serve would)")
    action.add_argument("--to", dest="target", required=True, metavar="URL",
                        help="SQLAlchemy URL of an empty database, e.g. "
                             "postgresql+psycopg://user@host/db")
    action.set_defaults(func=copy)


def copy(args: argparse.Namespace) -> int:
    from spades.store import Store
    from spades.store.copy import CopyError, copy_store, differences

    if sqlite_file_missing(args.source):
        print(f"spades db copy: there is no database at {args.source}", file=sys.stderr)
        return 2
    try:
        copied = copy_store(args.source, args.target)
    except CopyError as error:
        print(f"spades db copy: {error}", file=sys.stderr)
        return 2
    rows = ", ".join(f"{count} {table}" for table, count in copied.items() if count)
    print(f"Copied {Store.describe(args.source)} into {Store.describe(args.target)}: "
          f"{rows or 'no rows'}.")
    problems = differences(args.source, args.target) + replays_differ(args.source, args.target)
    if problems:
        for problem in problems:
            print(f"spades db copy: the copy differs: {problem}", file=sys.stderr)
        return 1
    print(f"Checked: every row is the same in both, and all {copied.get('games', 0)} games "
          "replay the same from both.")
    return 0


def replays_differ(source: str, target: str) -> list[str]:
    """The games whose record, replayed from each store, is not the same."""
    from spades.engine import record_of
    from spades.session import state_from_store
    from spades.store import Store
    from spades.store.copy import game_ids

    stores = [Store(source, create=False), Store(target, create=False)]
    try:
        out = []
        for game_id in game_ids(source):
            records = []
            for store in stores:
                stored = store.load_game(game_id)
                records.append(None if stored is None
                               else record_of(state_from_store(stored), reveal=True))
            if records[0] != records[1]:
                out.append(f"game {game_id} does not replay the same")
        return out
    finally:
        for store in stores:
            store.close()


def backup(args: argparse.Namespace) -> int:
    from spades.store import Store
    from spades.store.backup import BackupError
    from spades.store.backup import backup as back_up

    url = chosen_url(args, "backup")
    if url is None:
        return 2
    try:
        copied = back_up(url, args.file)
    except (BackupError, ValueError) as error:
        print(f"spades db backup: {error}", file=sys.stderr)
        return 2
    print(f"Backed up {Store.describe(url)} to {args.file} ({copied.describe()}).")
    return 0


def restore(args: argparse.Namespace) -> int:
    from spades.store import Store
    from spades.store.backup import BackupError
    from spades.store.backup import restore as restore_into

    url = chosen_url(args, "restore")
    if url is None:
        return 2
    try:
        copied = restore_into(args.file, url)
    except (BackupError, ValueError) as error:
        print(f"spades db restore: {error}", file=sys.stderr)
        return 2
    print(f"Restored {args.file} into {Store.describe(url)} ({copied.describe()}). "
          "spades serve brings its tables to this version's schema on start.")
    return 0


def upgrade(args: argparse.Namespace) -> int:
    from spades.store import Store, StoreError
    from spades.store import upgrade as upgrade_store

    url = chosen_url(args, "upgrade")
    if url is None:
        return 2
    try:
        done = upgrade_store(url)
    except StoreError as error:
        print(f"spades db upgrade: {error}", file=sys.stderr)
        return 2
    print(f"{Store.describe(url)}: {done.describe()}")
    return 0


def current(args: argparse.Namespace) -> int:
    from spades.store import Store, StoreError
    from spades.store.migrate import head

    url = chosen_url(args, "current")
    if url is None:
        return 2
    if sqlite_file_missing(url):
        print(f"{Store.describe(url)}: no database yet: `spades db upgrade` creates it")
        return 0
    try:
        store = Store(url, create=False)
        try:
            revision = store.revision()
            legacy = revision is None and store.is_legacy()
        finally:
            store.close()
    except StoreError as error:
        print(f"spades db current: {error}", file=sys.stderr)
        return 2
    newest = head()
    if revision is None:
        state = ("made before migrations: `spades db upgrade` adopts it, every game stays"
                 if legacy else "no tables yet: `spades db upgrade` creates them")
    elif revision == newest:
        state = f"revision {revision} (the newest)"
    else:
        state = f"revision {revision}; the newest is {newest}: run `spades db upgrade`"
    print(f"{Store.describe(url)}: {state}")
    return 0


def chosen_url(args: argparse.Namespace, action: str) -> str | None:
    """The --db URL, else $SPADES_DB, else the default; None (after saying why) for an
    empty --db."""
    if args.db is None:
        return os.environ.get("SPADES_DB", "").strip() or default_url()
    if not args.db.strip():
        print(f"spades db {action}: --db needs a database URL, e.g. sqlite:///games.db",
              file=sys.stderr)
        return None
    return str(args.db)


def sqlite_file_missing(url: str) -> bool:
    """Whether ``url`` names a SQLite file that is not there (opening it would create it)."""
    import sqlalchemy as sa

    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError:
        return False  # the store says what is wrong with it
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return False
    return not Path(database).expanduser().exists()
