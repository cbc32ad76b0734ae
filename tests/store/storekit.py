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
    """Drop every table whose name starts with ``prefix`` (children first)."""
    engine = sa.create_engine(url)
    try:
        md = sa.MetaData()
        md.reflect(engine, only=lambda name, _md: name.startswith(prefix))
        md.drop_all(engine)
    finally:
        engine.dispose()
