"""Migration 0004 (the invite code a host lets everyone seated share): a database at revision
0003 with games and tables for friends in it is upgraded, every game and table stays as it
was (with no shared code), a shared code is kept and read back; the downgrade goes back
keeping every table."""

from __future__ import annotations

import dataclasses
import datetime as dt

import sqlalchemy as sa
from storekit import Database
from test_migrations import OWNER, play, same_game

from spades.session import state_from_store
from spades.store import FriendSeat, FriendTable, Store, migrate


def test_a_0003_database_with_tables_for_friends_is_upgraded(database: Database) -> None:
    when = dt.datetime.now(dt.UTC).replace(microsecond=0)
    store = Store(database.url, prefix=database.prefix, create=False)
    try:
        assert migrate.upgrade(store.engine, database.prefix, target="0003").after == "0003"
        played = [play(store, "mid", "house", 37, seed=1),
                  play(store, "over", "house", 10_000, seed=4)]
        before = {p.id: store.load_game(p.id) for p in played}
        table = FriendTable(id="mid", host=OWNER, status="playing", created=when,
                            touched=when, options={"preset": "house", "level": "easy"},
                            seats=(FriendSeat(0, OWNER, "Ann", "here"),), invite="d" * 64,
                            timer_seat=0, timer_until=when)
        with store.engine.begin() as conn:  # written as a 0003 server wrote it
            t = store.tables.friend_tables
            conn.execute(t.insert().values(
                id=table.id, host=table.host, status=table.status, created=when,
                touched=when, options=table.options, invite=table.invite, watch=None,
                barred=[], next_id=None, timer_seat=0, timer_until=when))
            conn.execute(store.tables.friend_seats.insert().values(
                table_id="mid", seat=0, player_id=OWNER, name="Ann", state="here",
                away_until=None))
    finally:
        store.close()

    store = Store(database.url, prefix=database.prefix)  # opening upgrades it
    try:
        assert store.revision() == migrate.head() and migrate.head() >= "0004"
        for game in played:
            loaded = store.load_game(game.id)
            assert loaded == before[game.id]
            assert loaded is not None and same_game(state_from_store(loaded), game.state)
        friends = store.friends
        assert friends.get("mid") == table and friends.get("mid").shared is None
        shared = dataclasses.replace(table, shared="ABCDEFGHJ")
        friends.save(shared)
        assert friends.get("mid") == shared and friends.by_invite("d" * 64) == shared
        migrate.downgrade(store.engine, database.prefix, target="0003")
        assert store.revision() == "0003"
        with store.engine.connect() as conn:
            rows = conn.execute(sa.text(
                f"SELECT id FROM {database.prefix}friend_tables")).all()
        assert [r[0] for r in rows] == ["mid"]
        assert store.load_game("mid") == before["mid"]
    finally:
        store.close()

