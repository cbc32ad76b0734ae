"""``spades db``: ``upgrade`` the store's tables to the newest schema, show the ``current``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from spades.store import default_url


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "db", help="the saved games' database: upgrade its tables, show their revision",
        description="Upgrade the tables of the store to this version of Spades (spades serve "
                    "does it on start), or show which revision they are at. A database made "
                    "before migrations is adopted as it is: every game stays.")
    sub = parser.add_subparsers(dest="action", metavar="{upgrade,current}", required=True)
    for name, text, run_ in (
            ("upgrade", "bring the tables to the newest schema (creating them if needed)",
             upgrade),
            ("current", "show the revision of the tables and the newest this version knows",
             current)):
        action = sub.add_parser(name, help=text, description=text[:1].upper() + text[1:] + ".")
        action.add_argument("--db", default=None, metavar="URL",
                            help="SQLAlchemy URL of the store, e.g. sqlite:///games.db or "
                                 "postgresql+psycopg://user@host/db (default: "
                                 f"{default_url()})")
        action.set_defaults(func=run_)


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
    """The --db URL, or the default; None (after saying why) for an empty one."""
    if args.db is None:
        return default_url()
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
