"""Group commit (``Store.append_actions``): several games' actions in one transaction, each
checked against its own game's version: a stale one is refused alone, the others kept; one
that breaks a constraint is found by writing each again alone. On SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import pytest
import sqlalchemy as sa
from storekit import Database
from test_store import DECK, make_row

from spades.store import ActionRow, Append, StaleVersionError, Store, StoreError


def bid(seq: int, seat: int, value: int = 3) -> ActionRow:
    return ActionRow(seq=seq, hand=0, seat=seat, action={"seat": seat, "bid": value})


def test_a_batch_keeps_each_game_and_refuses_a_stale_one_alone(store: Store) -> None:
    for game_id in ("g1", "g2", "g3"):
        store.create_game(make_row(game_id), DECK)
    store.append_action("g2", 0, bid(1, 1))
    done = store.append_actions([
        Append("g1", 0, bid(1, 1), stand_in=(1, 1)),
        Append("g2", 0, bid(1, 2)),  # g2 is at version 1 now: stale
        Append("g3", 0, bid(1, 1), status="over", result={"hands": 1, "scores": [10, 0]}),
        Append("g1", 1, bid(2, 2)),  # the same game's next action, in the same batch
    ])
    assert done[0] == 1 and done[3] == 2 and done[2] == 1
    assert isinstance(done[1], StaleVersionError)
    assert [r.action for r in store.load_game("g1").actions] == [  # type: ignore[union-attr]
        bid(1, 1).action, bid(2, 2).action]
    assert store.friends.stand_ins("g1") == {1: 1}
    g2 = store.load_game("g2")
    assert g2 is not None and g2.game.version == 1 and len(g2.actions) == 1
    g3 = store.load_game("g3")
    assert g3 is not None and g3.game.status == "over" and g3.game.result == {
        "hands": 1, "scores": [10, 0]}


def test_a_broken_constraint_fails_only_its_own_append(store: Store) -> None:
    for game_id in ("g1", "g2"):
        store.create_game(make_row(game_id), DECK)
    store.append_action("g1", 0, bid(1, 1))
    done = store.append_actions([
        Append("g2", 0, bid(1, 1)),
        Append("g1", 1, bid(1, 2)),  # the right version, but step 1 is kept already
        Append("g2", 1, bid(2, 2)),
    ])
    assert done[0] == 1 and done[2] == 2
    assert isinstance(done[1], StaleVersionError)
    g1 = store.load_game("g1")
    assert g1 is not None and g1.game.version == 1 and len(g1.actions) == 1
    assert store.append_actions([]) == []


def test_one_append_raises_what_kept_it_out(store: Store) -> None:
    store.create_game(make_row("g1"), DECK)
    assert store.append_action("g1", 0, bid(1, 1)) == 1
    with pytest.raises(StaleVersionError):
        store.append_action("g1", 0, bid(2, 2))
    assert issubclass(StaleVersionError, StoreError)


def test_batches_written_at_once_in_opposite_orders_do_not_deadlock(
        database: Database) -> None:
    """Two processes' batches, one of games g1 then g2 and the other of g2 then g1, each
    pausing after its first write: written in the order given, each would hold the row the
    other needs next (PostgreSQL would end one with a deadlock error, failing its whole
    batch); in the order of the games' ids, one waits for the other and both are kept or
    found stale."""
    pause = threading.Barrier(2, timeout=1.0)

    class Pausing(Store):
        def _append_together(self, ones: Any) -> None:
            return None  # one statement for both: nothing to pause between (below)

        def _append_many(self, ones: Any) -> None:
            return None  # the same (tests/store/test_many_append.py locks in order)

        def _append(self, conn: Any, one: Append) -> int | StoreError:
            done = super()._append(conn, one)
            with contextlib.suppress(threading.BrokenBarrierError):
                pause.wait()
            return done

    store = Pausing(database.url, prefix=database.prefix)
    try:
        for game_id in ("g1", "g2"):
            store.create_game(make_row(game_id), DECK)
        results: dict[str, list[int | StoreError]] = {}

        def write(name: str, first: str, second: str) -> None:
            results[name] = store.append_actions([Append(first, 0, bid(1, 1)),
                                                  Append(second, 0, bid(1, 2))])

        threads = [threading.Thread(target=write, args=("a", "g1", "g2")),
                   threading.Thread(target=write, args=("b", "g2", "g1"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        every = results["a"] + results["b"]
        assert all(d == 1 or isinstance(d, StaleVersionError) for d in every), every
        assert every.count(1) == 2  # each game's one action kept once
    finally:
        store.drop_tables()
        store.close()


def test_plain_appends_are_written_with_one_statement_of_each_kind_in_the_games_order(
        store: Store) -> None:
    """A batch without a status or result: the versions, actions, decks and stand-in marks
    each in one statement for the batch, its rows in the order of the games' ids (the order
    in which PostgreSQL locks them, as above)."""
    for game_id in ("g1", "g2", "g3"):
        store.create_game(make_row(game_id), DECK)
    statements: list[tuple[str, Any]] = []

    def seen(conn: Any, statement: Any, rows: Any, params: Any, options: Any) -> None:
        statements.append((type(statement).__name__.upper(), rows))

    sa.event.listen(store.engine, "before_execute", seen)
    done = store.append_actions([
        Append("g3", 0, bid(1, 1)),
        Append("g1", 0, bid(1, 1), deck=(1, DECK), stand_in=(1, 1)),
        Append("g2", 0, bid(1, 2)),
        Append("g1", 1, bid(2, 2)),
    ])
    sa.event.remove(store.engine, "before_execute", seen)
    assert done == [1, 1, 1, 2]
    kinds = [kind for kind, _ in statements]
    assert kinds == ["UPDATE", "INSERT", "INSERT", "INSERT"], statements
    bumped = statements[0][1]
    assert [row["b_game"] for row in bumped] == ["g1", "g1", "g2", "g3"]
    assert [row["b_version"] for row in bumped] == [0, 1, 0, 0]
    g1 = store.load_game("g1")
    assert g1 is not None and g1.game.version == 2
    assert [r.action for r in g1.actions] == [bid(1, 1).action, bid(2, 2).action]
    assert store.friends.stand_ins("g1") == {1: 1}
    assert store.load_game("g3").game.version == 1  # type: ignore[union-attr]


def test_a_stale_append_among_plain_ones_is_refused_alone(store: Store) -> None:
    """Written together, the batch finds one game no longer at its version: nothing of it
    is kept, and each is written again on its own."""
    for game_id in ("g1", "g2", "g3"):
        store.create_game(make_row(game_id), DECK)
    store.append_action("g2", 0, bid(1, 1))
    done = store.append_actions([Append("g1", 0, bid(1, 1)), Append("g2", 0, bid(1, 2)),
                                 Append("g3", 0, bid(1, 1))])
    assert done[0] == 1 and done[2] == 1 and isinstance(done[1], StaleVersionError)
    for game_id, version in (("g1", 1), ("g2", 1), ("g3", 1)):
        game = store.load_game(game_id)
        assert game is not None and game.game.version == version
        assert len(game.actions) == 1
