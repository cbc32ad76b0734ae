"""`spades db upgrade|current` and `spades serve` bring the store's tables up to date, say what
they did, and refuse a bad --db with exit code 2 and a message, not a traceback."""

from __future__ import annotations

import asyncio
import datetime as dt
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import release_schema
import sqlalchemy as sa

from spades.cli.main import main
from spades.store import GameRow, SeatRow, Store, migrate

pytestmark = pytest.mark.timeout(120)


def spades(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spades.cli.main", *args],
                          capture_output=True, text=True, timeout=60)


def release_file(path: Path) -> str:
    """A SQLite file as the release before migrations left it, with one game."""
    url = f"sqlite:///{path}"
    engine = sa.create_engine(url)
    release_schema.make_tables().metadata.create_all(engine)
    engine.dispose()
    store = Store(url, create=False)
    moment = dt.datetime.now(dt.UTC)
    try:
        store.create_game(GameRow(
            id="kept", owner="player-aaaa-0001", rules={"preset": "house"}, seed="s" * 32,
            first_dealer=3, options={}, created=moment, updated=moment,
            seats=(SeatRow(seat=0, kind="human", name="You", player_id="player-aaaa-0001"),)),
            ["AS"] * 52)
    finally:
        store.close()
    return url


def test_upgrade_creates_then_finds_nothing_to_do(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    assert main(["db", "current", "--db", url]) == 0
    assert "no database yet" in capsys.readouterr().out
    assert not (tmp_path / "games.db").exists()  # looking created nothing
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"created the tables (revision {migrate.head()})" in capsys.readouterr().out
    assert main(["db", "upgrade", "--db", url]) == 0
    assert f"up to date (revision {migrate.head()})" in capsys.readouterr().out
    assert main(["db", "current", "--db", url]) == 0
    assert f"revision {migrate.head()} (the newest)" in capsys.readouterr().out


def test_a_release_database_is_adopted_with_its_game(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    url = release_file(tmp_path / "old.db")
    assert main(["db", "current", "--db", url]) == 0
    assert "made before migrations: `spades db upgrade` adopts it" in capsys.readouterr().out
    assert main(["db", "upgrade", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "adopted the tables made before migrations" in out and "every game stays" in out
    store = Store(url)
    try:
        assert store.get_game("kept") is not None and store.revision() == migrate.head()
    finally:
        store.close()


@pytest.mark.parametrize(("url", "says"), [
    ("not a url", "that is not a database URL"),
    ("nosuchdb://host/x", "no such kind of database"),
    ("", "--db needs a database URL"),
    ("postgresql+psycopg://nobody:secret@127.0.0.1:1/none",
     "cannot open the store at postgresql+psycopg://nobody:***@127.0.0.1:1/none"),
])
@pytest.mark.parametrize("action", ["upgrade", "current"])
def test_a_bad_db_url_is_exit_2_with_a_message(action: str, url: str, says: str) -> None:
    result = spades("db", action, "--db", url)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.startswith(f"spades db {action}: ") and says in result.stderr
    assert "Traceback" not in result.stderr and "secret" not in result.stderr
    assert result.stdout == ""


def test_db_without_an_action_is_a_usage_error() -> None:
    result = spades("db")
    assert result.returncode == 2 and "upgrade" in result.stderr


def test_serve_upgrades_the_store_before_it_listens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    url = release_file(tmp_path / "served.db")
    seen: list[Any] = []
    said: list[str] = []

    async def listen(server: uvicorn.Server, sockets: Any = None) -> None:
        store = Store(url, create=False)  # the store is upgraded by the time it would listen
        try:
            seen.append(store.revision())
        finally:
            store.close()
        server.started = True
        for _ in range(200):  # until serve has said where it listens and what it did
            await asyncio.sleep(0.01)
            said.append(capsys.readouterr().out)
            if "Ctrl+C" in "".join(said):
                break
        await asyncio.sleep(0.05)

    monkeypatch.setattr(uvicorn.Server, "serve", listen)
    assert main(["serve", "--db", url, "--port", "0", "--workers", "0"]) == 0
    assert seen == [migrate.head()]
    out = "".join(said) + capsys.readouterr().out
    assert out.index("Spades is ready: open http://") < out.index(
        "The store adopted the tables made before migrations")
    said.clear()
    assert main(["serve", "--db", url, "--port", "0", "--workers", "0"]) == 0
    out = "".join(said) + capsys.readouterr().out
    assert "Spades is ready" in out and "The store" not in out  # nothing to say this time
