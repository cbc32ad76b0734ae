"""Each test of sessions and accounts runs on SQLite and on PostgreSQL (skipped, with the
reason, when PostgreSQL does not answer; CI has it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from accounts_testkit import database


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    return database(request.param, tmp_path)
