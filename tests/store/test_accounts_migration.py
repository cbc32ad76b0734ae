"""Migration 0002 (accounts): a database at revision 0001 with games in it is upgraded,
every game stays and resumes, and the accounts' tables work; the downgrade goes back."""

from __future__ import annotations

import datetime as dt

from storekit import Database, prefixed_tables
from test_migrations import OWNER, as_before, play, same_game

from spades.session import state_from_store
from spades.store import AccountRow, LoginRow, Store, migrate

ACCOUNT_TABLES = ("accounts", "logins", "account_players", "resets")


def test_a_0001_database_with_games_is_upgraded_to_accounts(database: Database) -> None:
    store = Store(database.url, prefix=database.prefix, create=False)
    as_before(store)
    try:
        assert migrate.upgrade(store.engine, database.prefix, target="0001").after == "0001"
        assert store.revision() == "0001"
        names = prefixed_tables(database.url, database.prefix)
        assert not {f"{database.prefix}{t}" for t in ACCOUNT_TABLES} & names
        played = [play(store, "mid", "house", 37, seed=1),
                  play(store, "over", "house", 10_000, seed=4),
                  play(store, "kitty", "three-player-kitty", 5, seed=3)]
        before = {p.id: store.load_game(p.id) for p in played}
    finally:
        store.close()

    store = Store(database.url, prefix=database.prefix)  # opening upgrades it
    try:
        assert store.revision() == migrate.head() and migrate.head() >= "0002"
        for game in played:
            loaded = store.load_game(game.id)
            assert loaded == before[game.id]
            assert loaded is not None and same_game(state_from_store(loaded), game.state)
        assert sorted(g.id for g in store.list_games(OWNER)) == sorted(p.id for p in played)
        # the new tables work: an account takes the old id's games in
        when = dt.datetime.now(dt.UTC)
        accounts = store.accounts
        accounts.create(AccountRow(id="acct-1", email="ann@example.org", password="$argon2id$x",
                                   player_id="account-own-id", created=when))
        accounts.add_login(LoginRow(id="a" * 64, player_id="account-own-id",
                                    account_id="acct-1", csrf="c" * 43, created=when,
                                    last_seen=when, expires=when + dt.timedelta(days=1),
                                    device="Firefox on Linux", moving=OWNER))
        assert accounts.answer_move("a" * 64, "acct-1", OWNER, True, when)
        assert accounts.players("acct-1") == {"account-own-id", OWNER}
        assert len(store.list_games(accounts.players("acct-1"))) == len(played)
        # deleting the account deletes its games, and only its rows
        assert sorted(accounts.delete("acct-1")) == sorted(p.id for p in played)
        assert store.list_games(OWNER) == [] and accounts.by_email("ann@example.org") is None
        # and back down: the accounts' tables go, nothing else
        migrate.downgrade(store.engine, database.prefix, target="0001")
        assert store.revision() == "0001"
        assert not {f"{database.prefix}{t}" for t in ACCOUNT_TABLES} & prefixed_tables(
            database.url, database.prefix)
    finally:
        store.close()
