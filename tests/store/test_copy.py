"""`spades db copy` (issue 42 item 3): a whole store, games, accounts and tables with
friends, copied into an empty database (SQLite to PostgreSQL where it answers, and SQLite to
SQLite); every row is the same in both and every game replays the same; a database that
holds rows is never copied into, and nothing is written then."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from storekit import Database
from test_migrations import OWNER, play

from spades.cli.main import main
from spades.engine import record_of
from spades.session import state_from_store
from spades.store import AccountRow, FriendSeat, FriendTable, Store
from spades.store.accounts import LoginRow
from spades.store.copy import CopyError, copy_store, differences

pytestmark = pytest.mark.timeout(120)


def filled_store(url: str, prefix: str = "") -> list[str]:
    """A store with games of three variants (one finished), an account signed in on a
    device, and a table with friends; the games' ids."""
    store = Store(url, prefix=prefix)
    when = dt.datetime.now(dt.UTC).replace(microsecond=0)
    try:
        games = [play(store, "mid", "house", 37, seed=1).id,
                 play(store, "over", "house", 10_000, seed=4).id,
                 play(store, "kitty", "three-player-kitty", 20, seed=3).id]
        store.accounts.create(AccountRow(id="acct-1", email="ann@example.org",
                                         password="$argon2id$v=19$m=32768,t=2,p=1$x$y",
                                         player_id=OWNER, created=when))
        store.accounts.add_login(LoginRow(id="a" * 64, player_id=OWNER, account_id="acct-1",
                                          csrf="c" * 32, created=when, last_seen=when,
                                          expires=when + dt.timedelta(days=30),
                                          device="Firefox on Linux"))
        store.friends.save(FriendTable(
            id="mid", host=OWNER, status="playing", created=when, touched=when,
            options={"preset": "house", "level": "easy"},
            seats=(FriendSeat(0, OWNER, "Ann", "away", when),), invite="d" * 64,
            barred=("player-gone-0009",), timer_seat=0, timer_until=when))
    finally:
        store.close()
    return games


def replayed(url: str, game_id: str, prefix: str = "") -> dict[str, object]:
    store = Store(url, prefix=prefix, create=False)
    try:
        stored = store.load_game(game_id)
        assert stored is not None
        return record_of(state_from_store(stored), reveal=True)
    finally:
        store.close()


def test_a_store_is_copied_whole_and_replays_the_same(tmp_path: Path,
                                                      database: Database) -> None:
    source = f"sqlite:///{tmp_path / 'games.db'}"
    games = filled_store(source, database.prefix)
    copied = copy_store(source, database.url, database.prefix)
    assert copied["games"] == 3 and copied["accounts"] == 1 and copied["logins"] == 1
    assert copied["friend_tables"] == 1 and copied["friend_seats"] == 1
    assert copied["actions"] > 37
    assert differences(source, database.url, database.prefix) == []
    for game_id in games:
        assert replayed(database.url, game_id, database.prefix) == replayed(
            source, game_id, database.prefix)
    target = Store(database.url, prefix=database.prefix)
    try:
        assert target.accounts.by_email("ann@example.org") is not None
        assert target.friends.get("mid") is not None
        assert sorted(g.id for g in target.list_games(OWNER)) == sorted(games)
    finally:
        target.close()
    # a second copy would merge into somebody's games: refused, nothing written
    with pytest.raises(CopyError, match="already holds rows"):
        copy_store(source, database.url, database.prefix)
    assert differences(source, database.url, database.prefix) == []


def test_the_same_database_or_a_bad_url_is_refused(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'games.db'}"
    filled_store(source)
    with pytest.raises(CopyError, match="the same database"):
        copy_store(source, source)
    with pytest.raises(CopyError, match="not a database URL"):
        copy_store(source, "not a url")
    with pytest.raises(CopyError, match="no such kind of database"):
        copy_store(source, "nonsense://")


def test_spades_db_copy_says_what_it_copied_and_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = f"sqlite:///{tmp_path / 'games.db'}"
    target = f"sqlite:///{tmp_path / 'copy.db'}"
    filled_store(source)
    assert main(["db", "copy", "--from", source, "--to", target]) == 0
    out = capsys.readouterr().out
    assert "3 games" in out and "1 accounts" in out
    assert "every row is the same in both, and all 3 games replay the same" in out
    assert main(["db", "copy", "--from", source, "--to", target]) == 2
    assert "already holds rows" in capsys.readouterr().err
    missing = f"sqlite:///{tmp_path / 'nothing.db'}"
    assert main(["db", "copy", "--from", missing, "--to", target]) == 2
    assert "there is no database" in capsys.readouterr().err
