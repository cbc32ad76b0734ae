"""The databases the store tests run on: a SQLite file, and PostgreSQL when it answers."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from storekit import POSTGRES, Database, drop_prefixed, postgres_reachable

from spades.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    prefix = f"t{secrets.token_hex(4)}_"
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
    else:
        reason = postgres_reachable()
        if reason:
            pytest.skip(reason)
        url = POSTGRES
    try:
        yield Database(url, prefix, request.param)
    finally:
        drop_prefixed(url, prefix)


@pytest.fixture
def store(database: Database) -> Iterator[Store]:
    """A store on ``database``, its tables dropped after."""
    opened = Store(database.url, prefix=database.prefix)
    try:
        yield opened
    finally:
        opened.drop_tables()
        opened.close()


@pytest.fixture
def postgres_store() -> Iterator[Store]:
    """A store on PostgreSQL alone (skipped where it does not answer), its tables dropped
    after."""
    reason = postgres_reachable()
    if reason:
        pytest.skip(reason)
    prefix = f"t{secrets.token_hex(4)}_"
    opened = Store(POSTGRES, prefix=prefix)
    try:
        yield opened
    finally:
        opened.drop_tables()
        opened.close()
        drop_prefixed(POSTGRES, prefix)
