"""`spades db backup` of a live store mid-game, and `spades db restore` into a new database
that resumes the game at the backed-up trick (docs/self-hosting.md). Bad input changes
nothing: a backup never overwrites a file, a restore never overwrites a database."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from server_testkit import PLAYER, Driver, client, db_url, new_game_id, open_table, stored

from spades.cli.main import main

pytestmark = pytest.mark.timeout(120)
WS = "/ws/games/{}?player=" + PLAYER


def into_the_hand(driver: Driver, tricks: int) -> dict[str, Any]:
    """Bid and play until ``tricks`` tricks are done and seat 0 is to play again."""
    state = driver.until_decision()
    while state["legal"]["kind"] != "play" or state["view"]["tricks_played"] < tricks:
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def play_on(driver: Driver, state: dict[str, Any], decisions: int) -> dict[str, Any]:
    for _ in range(decisions):
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def test_a_backup_taken_mid_game_resumes_at_its_trick(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    live, copy = tmp_path / "live", tmp_path / "copy"
    live.mkdir()
    copy.mkdir()
    backup = tmp_path / "mid-game.db"
    with client(live) as http:  # the server holds the database throughout
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            at_backup = into_the_hand(driver, tricks=3)
            assert main(["db", "backup", str(backup), "--db", db_url(live)]) == 0
            assert f"to {backup} (1 game, " in capsys.readouterr().out
            later = play_on(driver, at_backup, 4)  # the server goes on saving
            assert later["step"] > at_backup["step"]
    assert len(stored(live, game_id).actions) == later["step"]
    assert main(["db", "restore", str(backup), "--db", db_url(copy)]) == 0
    assert "(1 game, " in capsys.readouterr().out
    assert len(stored(copy, game_id).actions) == at_backup["step"]
    with client(copy) as http, open_table(http, game_id) as ws:
        driver = Driver(ws)
        resumed = driver.recv()
        for key in ("version", "step", "game", "view", "legal"):
            assert resumed[key] == at_backup[key], key
        assert resumed["view"]["tricks_played"] == 3
        on = play_on(driver, resumed, 2)
        assert on["step"] > at_backup["step"]
    assert len(stored(copy, game_id).actions) == on["step"]


def test_a_backup_is_one_checked_file_and_never_overwrites(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with client(tmp_path) as http:
        new_game_id(http)
        backup = tmp_path / "backup.db"
        assert main(["db", "backup", str(backup), "--db", db_url(tmp_path)]) == 0
        with sqlite3.connect(backup) as conn:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert not list(tmp_path.glob(".backup.db.partial*"))
        made = backup.read_bytes()
        assert main(["db", "backup", str(backup), "--db", db_url(tmp_path)]) == 2
        assert "already exists: a backup never overwrites" in capsys.readouterr().err
        assert backup.read_bytes() == made


def test_a_restore_never_overwrites_a_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with client(tmp_path) as http:
        mine = new_game_id(http)
    backup = tmp_path / "backup.db"
    assert main(["db", "backup", str(backup), "--db", db_url(tmp_path)]) == 0
    other = tmp_path / "other"
    other.mkdir()
    with client(other) as http:
        theirs = new_game_id(http)
    assert main(["db", "restore", str(backup), "--db", db_url(other)]) == 2
    assert "already exists: restore into a new database file" in capsys.readouterr().err
    assert stored(other, theirs).game.id == theirs  # still theirs, and only theirs
    with client(other) as http:
        ids = [g["id"] for g in http.get("/api/games",
                                         headers={"X-Spades-Player": PLAYER}).json()["games"]]
    assert ids == [theirs] and mine != theirs


@pytest.mark.parametrize("content, words", [
    (b"not a database at all, just some words", "is not a SQLite database"),
    (None, "holds no saved games"),  # a SQLite file without our tables
])
def test_restoring_what_is_not_a_backup_says_so_and_creates_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
        words: str) -> None:
    source = tmp_path / "source.db"
    if content is None:
        with sqlite3.connect(source) as conn:
            conn.execute("CREATE TABLE notes (text)")
        conn.close()
    else:
        source.write_bytes(content)
    target = tmp_path / "new" / "games.db"
    assert main(["db", "restore", str(source), "--db", f"sqlite:///{target}"]) == 2
    assert words in capsys.readouterr().err
    assert not target.exists()
    assert not target.parent.exists() or list(target.parent.iterdir()) == []


def test_backing_up_nothing_says_so(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.db"
    assert main(["db", "backup", str(tmp_path / "b.db"), "--db", f"sqlite:///{missing}"]) == 2
    assert "there is no database at" in capsys.readouterr().err
    assert not missing.exists() and not (tmp_path / "b.db").exists()
    assert main(["db", "restore", str(tmp_path / "nothing.db"), "--db",
                 f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    assert "there is no backup at" in capsys.readouterr().err
