"""What the store tests share: the PostgreSQL they may use, and dropping a prefix's tables."""

from __future__ import annotations

import os
from dataclasses import dataclass

import sqlalchemy as sa

#: CI sets SPADES_TEST_POSTGRES; the default is the developers' machines' server
POSTGRES = os.environ.get("SPADES_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@dataclass(frozen=True)
class Database:
    """A database URL and a table-name prefix of this test's own."""

    url: str
    prefix: str
    kind: str  # "sqlite" or "postgresql"


def postgres_reachable() -> str | None:
    """None when PostgreSQL answers, else why not (the reason a test skips with)."""
    try:
        engine = sa.create_engine(POSTGRES, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(sa.text("select 1"))
        engine.dispose()
    except Exception as error:  # any failure to connect: skip with the reason
        where = POSTGRES.rsplit("@", 1)[-1]
        return f"PostgreSQL is not reachable at {where} ({type(error).__name__})"
    return None


def prefixed_tables(url: str, prefix: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return {t for t in sa.inspect(conn).get_table_names() if t.startswith(prefix)}
    finally:
        engine.dispose()


def drop_prefixed(url: str, prefix: str) -> None:
    """Drop every table whose name starts with ``prefix``. By name, without reflecting the
    tables' constraints: other test processes drop their own tables in the same database
    meanwhile, and reading a constraint dropped under the reading failed a teardown once
    (PostgreSQL gave its definition as NULL). PostgreSQL's CASCADE drops a child's foreign
    key with its parent; SQLite (no foreign keys enforced here) drops in any order."""
    names = prefixed_tables(url, prefix)
    engine = sa.create_engine(url)
    cascade = " CASCADE" if engine.dialect.name == "postgresql" else ""
    quote = engine.dialect.identifier_preparer.quote
    try:
        with engine.begin() as conn:
            for name in sorted(names):
                conn.execute(sa.text(f"DROP TABLE IF EXISTS {quote(name)}{cascade}"))
    finally:
        engine.dispose()
