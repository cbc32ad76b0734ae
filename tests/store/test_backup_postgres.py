"""PostgreSQL: `spades db backup` (pg_dump) and `spades db restore` (pg_restore) round-trip a
game into a new database, and so does a plain `pg_dump` read back by `psql`, as
docs/self-hosting.md says. Runs in CI; skips here without PostgreSQL or its client programs."""

from __future__ import annotations

import datetime as dt
import secrets
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from storekit import POSTGRES, drop_prefixed, postgres_reachable

from spades.cli.main import main
from spades.store import ActionRow, GameRow, SeatRow, Store, StoredGame

pytestmark = [pytest.mark.postgres, pytest.mark.timeout(180)]


@pytest.fixture()
def source() -> Iterator[tuple[str, str]]:
    """The test database with a game under a prefix of this test's own."""
    reason = postgres_reachable()
    if reason:
        pytest.skip(reason)
    for name in ("pg_dump", "pg_restore", "psql"):
        if shutil.which(name) is None:
            pytest.skip(f"{name} is not installed (apt-get install postgresql-client)")
    prefix = f"t{secrets.token_hex(4)}_"
    put_game(POSTGRES, prefix)
    try:
        yield POSTGRES, prefix
    finally:
        drop_prefixed(POSTGRES, prefix)


@pytest.fixture()
def databases() -> Iterator[Callable[[], str]]:
    """Makes new, empty databases next to the test one (all dropped afterwards)."""
    admin = sa.create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    made: list[str] = []

    def make() -> str:
        name = f"spades_restore_{secrets.token_hex(4)}"
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        made.append(name)
        return sa.make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)

    try:
        yield make
    finally:
        with admin.connect() as conn:
            for name in made:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture()
def new_database(databases: Callable[[], str]) -> str:
    return databases()


def put_game(url: str, prefix: str = "") -> None:
    store = Store(url, prefix=prefix)
    moment = dt.datetime.now(dt.UTC)
    try:
        store.create_game(GameRow(
            id="backed-up", owner="player-aaaa-0001", rules={"preset": "house"},
            seed="5" * 32, first_dealer=1, options={"level": "easy"}, created=moment,
            updated=moment, seats=(
                SeatRow(seat=0, kind="human", name="You", player_id="player-aaaa-0001"),
                SeatRow(seat=1, kind="computer", name="Bramble", level="easy"))),
            ["AS", "KS", "QS"])
        for seq in (1, 2, 3):
            store.append_action("backed-up", seq - 1, ActionRow(
                seq=seq, hand=0, seat=seq % 4, action={"seat": seq % 4, "bid": seq}))
    finally:
        store.close()


def load(url: str, prefix: str) -> StoredGame:
    store = Store(url, prefix=prefix, create=False)
    try:
        game = store.load_game("backed-up")
    finally:
        store.close()
    assert game is not None
    return game


def test_backup_and_restore_round_trip_a_game(
        tmp_path: Path, source: tuple[str, str], new_database: str) -> None:
    from spades.store import backup as backup_module

    url, prefix = source
    before = load(url, prefix)
    dump = tmp_path / "games.dump"
    # the CLI backs up the whole database; this test's tables share one: name them
    assert backup_module.backup(url, dump, prefix).games == 1
    assert dump.stat().st_size > 0
    copied = backup_module.restore(dump, new_database, prefix)
    assert copied.games == 1
    after = load(new_database, prefix)
    assert after == before and len(after.actions) == 3
    # a second restore into the same database is refused, and changes nothing
    with pytest.raises(backup_module.BackupError, match="already has saved games"):
        backup_module.restore(dump, new_database, prefix)
    assert load(new_database, prefix) == before
    # the store opened on the restored database is at the newest schema and takes actions
    store = Store(new_database, prefix=prefix)
    try:
        store.append_action("backed-up", 3, ActionRow(
            seq=4, hand=0, seat=0, action={"seat": 0, "bid": 4}))
    finally:
        store.close()
    assert len(load(new_database, prefix).actions) == 4
    assert len(load(url, prefix).actions) == 3


def test_a_plain_pg_dump_read_back_by_psql_round_trips_a_game(
        tmp_path: Path, source: tuple[str, str], new_database: str) -> None:
    url, prefix = source
    before = load(url, prefix)
    plain = tmp_path / "games.sql"
    libpq = sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    target = sa.make_url(new_database).set(drivername="postgresql").render_as_string(
        hide_password=False)
    subprocess.run(["pg_dump", "--no-owner", "--no-privileges", f"--table={prefix}*",
                    f"--file={plain}", f"--dbname={libpq}"], check=True, timeout=120)
    subprocess.run(["psql", "--quiet", "--set=ON_ERROR_STOP=1", "--single-transaction",
                    f"--file={plain}", f"--dbname={target}"], check=True, timeout=120,
                   capture_output=True)
    assert load(new_database, prefix) == before


def test_the_spades_db_commands_back_up_and_restore_a_whole_database(
        tmp_path: Path, databases: Callable[[], str],
        capsys: pytest.CaptureFixture[str]) -> None:
    if postgres_reachable() or shutil.which("pg_dump") is None:
        pytest.skip("PostgreSQL or pg_dump is not here")
    first, second = databases(), databases()
    put_game(first)
    dump = tmp_path / "spades.dump"
    assert main(["db", "backup", str(dump), "--db", first]) == 0
    assert "(1 game, " in capsys.readouterr().out
    assert main(["db", "restore", str(dump), "--db", second]) == 0
    assert "(1 game, " in capsys.readouterr().out
    assert load(second, "") == load(first, "")
    assert main(["db", "restore", str(dump), "--db", second]) == 2
    assert "already has saved games" in capsys.readouterr().err
    assert main(["db", "backup", str(dump), "--db", first]) == 2  # never overwritten
    assert "already exists" in capsys.readouterr().err
