"""A database server's pooled connections: pinged only after a rest, renewed when lost.

SQLAlchemy's ``pool_pre_ping`` cost three round trips before every transaction; the store
pings a connection only when it rested ``IDLE_PING`` seconds, and an append whose connection
was lost (the server restarted since) is written again on a new one."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from storekit import POSTGRES
from test_store import DECK, make_row

from spades.store import ActionRow, Append, Store, database


@pytest.fixture
def store(postgres_store: Store) -> Store:
    return postgres_store


def card(seq: int) -> ActionRow:
    return ActionRow(seq=seq, hand=0, seat=seq % 4, action={"seat": seq % 4, "bid": 3})


def pings(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one at each ping of ``store``'s connections."""
    done: list[int] = []
    real = store.engine.dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        done.append(1)
        return real(dbapi_connection)

    monkeypatch.setattr(store.engine.dialect, "do_ping", counted)
    return done


def backends(store: Store) -> set[int]:
    """The server processes behind the connections resting in ``store``'s pool."""
    found: set[int] = set()
    with store.engine.connect() as conn:
        found.add(conn.execute(sa.text("select pg_backend_pid()")).scalar_one())
    return found


def terminate(pids: set[int]) -> None:
    """End those server processes from another connection, as a restart would."""
    other = sa.create_engine(POSTGRES, poolclass=sa.pool.NullPool)
    try:
        with other.connect() as conn:
            for pid in pids:
                assert conn.execute(sa.text("select pg_terminate_backend(:p)"),
                                    {"p": pid}).scalar_one()
    finally:
        other.dispose()


def test_a_connection_taken_again_at_once_is_not_pinged(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_game(make_row("g1"), DECK)
    done = pings(store, monkeypatch)
    for seq in range(1, 21):
        assert store.append_action("g1", seq - 1, card(seq)) == seq
    assert done == []


def test_a_rested_connection_is_pinged_and_a_lost_one_replaced(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    store.create_game(make_row("g1"), DECK)
    done = pings(store, monkeypatch)
    monkeypatch.setattr(database, "IDLE_PING", 0.0)  # every connection has rested
    terminate(backends(store))
    assert store.append_action("g1", 0, card(1)) == 1
    assert done  # the lost connection was found by its ping, not by the append
    assert store.versions(["g1"]) == {"g1": 1}


def test_an_append_on_a_connection_lost_since_its_last_use_is_written_again(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    for game_id in ("g1", "g2"):
        store.create_game(make_row(game_id), DECK)
    monkeypatch.setattr(database, "IDLE_PING", 3600.0)  # no connection is pinged
    terminate(backends(store))
    done = store.append_actions([Append("g1", 0, card(1)), Append("g2", 0, card(1))])
    assert done == [1, 1]
    assert store.versions(["g1", "g2"]) == {"g1": 1, "g2": 1}


def test_busy_threads_do_not_open_and_close_connections(store: Store) -> None:
    """As many threads as asyncio's default executor, each appending at once: the pool
    keeps a connection for each, so none is opened beyond them."""
    opened: list[int] = []
    sa.event.listen(store.engine, "connect", lambda *_: opened.append(1))
    games = [f"g{i}" for i in range(database.POOL)]
    for game_id in games:
        store.create_game(make_row(game_id), DECK)
    start = threading.Barrier(len(games))
    failures: list[object] = []

    def play(game_id: str) -> None:
        for seq in range(1, 11):
            start.wait(10)  # all of them at once, ten times over
            done = store.append_actions([Append(game_id, seq - 1, card(seq))])
            if done != [seq]:
                failures.append(done)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert len(opened) <= database.POOL
