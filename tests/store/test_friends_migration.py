"""Migration 0003 (tables with friends): a database at revision 0002 with games in it is
upgraded, every game stays and resumes, and the new tables work (a table written whole and
found by its code's digest, the stand-ins' marks); the downgrade goes back."""

from __future__ import annotations

import dataclasses
import datetime as dt

import sqlalchemy as sa
from storekit import Database, prefixed_tables
from test_migrations import OWNER, as_before, play, same_game

from spades.session import state_from_store
from spades.store import FriendSeat, FriendTable, Store, migrate

FRIEND_TABLES = ("friend_tables", "friend_seats", "stand_ins")


def test_a_0002_database_with_games_is_upgraded_to_friends(database: Database) -> None:
    store = Store(database.url, prefix=database.prefix, create=False)
    as_before(store)
    try:
        assert migrate.upgrade(store.engine, database.prefix, target="0002").after == "0002"
        names = prefixed_tables(database.url, database.prefix)
        assert not {f"{database.prefix}{t}" for t in FRIEND_TABLES} & names
        played = [play(store, "mid", "house", 37, seed=1),
                  play(store, "over", "house", 10_000, seed=4),
                  play(store, "drawn", "two-player", 9, seed=2)]
        before = {p.id: store.load_game(p.id) for p in played}
    finally:
        store.close()

    store = Store(database.url, prefix=database.prefix)  # opening upgrades it
    try:
        assert store.revision() == migrate.head() and migrate.head() >= "0003"
        for game in played:
            loaded = store.load_game(game.id)
            assert loaded == before[game.id]
            assert loaded is not None and same_game(state_from_store(loaded), game.state)
        assert sorted(g.id for g in store.list_games(OWNER)) == sorted(p.id for p in played)
        when = dt.datetime.now(dt.UTC).replace(microsecond=0)
        table = FriendTable(id="mid", host=OWNER, status="playing", created=when,
                            touched=when, options={"preset": "house", "level": "easy"},
                            seats=(FriendSeat(0, OWNER, "Ann", "away", when),),
                            invite="d" * 64, barred=("player-gone-0009",),
                            timer_seat=0, timer_until=when)
        friends = store.friends
        friends.save(table)
        assert friends.get("mid") == table and friends.by_invite("d" * 64) == table
        moved = dataclasses.replace(table, seats=(FriendSeat(2, OWNER, "Ann", "here"),))
        friends.save(moved)
        assert friends.get("mid") == moved and friends.with_player({OWNER}) == [moved]
        with store.engine.begin() as conn:  # a stand-in's mark (kept with its action)
            conn.execute(sa.insert(store.tables.stand_ins).values(game_id="mid", seq=12, seat=0))
        assert friends.stand_ins("mid") == {12: 0}
        migrate.downgrade(store.engine, database.prefix, target="0002")
        assert store.revision() == "0002"
        assert not {f"{database.prefix}{t}" for t in FRIEND_TABLES} & prefixed_tables(
            database.url, database.prefix)
        assert store.load_game("mid") == before["mid"]
    finally:
        store.close()
