"""Several games' actions on PostgreSQL (what a busy server's group commit writes) go in
one statement with no transaction around it: one round trip instead of a begin, a
statement of each kind and a commit. Each is still checked against its own game's
version: a stale one writes nothing, the others are kept."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from test_lone_append import statements
from test_store import DECK, make_row

from spades.store import ActionRow, Append, StaleVersionError, Store
from spades.store.store import many_values, now


@pytest.fixture
def store(postgres_store: Store) -> Store:
    return postgres_store


def bid(seq: int, seat: int) -> ActionRow:
    return ActionRow(seq=seq, hand=0, seat=seat, action={"seat": seat, "bid": seq + 2})


def make_games(store: Store, *game_ids: str) -> None:
    for game_id in game_ids:
        store.create_game(make_row(game_id), DECK)


def test_several_games_actions_are_one_statement(store: Store) -> None:
    make_games(store, "g1", "g2", "g3")
    sent = statements(store)
    done = store.append_actions([
        Append("g3", 0, bid(1, 1)),
        Append("g1", 0, bid(1, 1), deck=(1, list(reversed(DECK))), stand_in=(1, 1)),
        Append("g2", 0, bid(1, 2)),
    ])
    assert done == [1, 1, 1]
    assert sent == ["WITH"]
    g1 = store.load_game("g1")
    assert g1 is not None and g1.game.version == 1
    assert [a.action for a in g1.actions] == [bid(1, 1).action]
    assert g1.decks == (tuple(DECK), tuple(reversed(DECK)))
    assert store.friends.stand_ins("g1") == {1: 1}
    for game_id, seat in (("g2", 2), ("g3", 1)):
        stored = store.load_game(game_id)
        assert stored is not None and stored.game.version == 1
        assert [a.action for a in stored.actions] == [bid(1, seat).action]
        assert len(stored.decks) == 1 and store.friends.stand_ins(game_id) == {}


def test_a_stale_one_among_them_writes_nothing_and_the_others_are_kept(store: Store) -> None:
    make_games(store, "g1", "g2", "g3")
    assert store.append_actions([Append("g2", 0, bid(1, 1))]) == [1]
    sent = statements(store)
    done = store.append_actions([
        Append("g1", 0, bid(1, 1)),
        Append("g2", 0, bid(1, 2), deck=(1, DECK), stand_in=(1, 2)),  # stale
        Append("g3", 0, bid(1, 1)),
        Append("nowhere", 0, bid(1, 1)),  # no such game: stale too
    ])
    assert done[0] == 1 and done[2] == 1
    assert isinstance(done[1], StaleVersionError) and isinstance(done[3], StaleVersionError)
    assert sent == ["WITH"]
    g2 = store.load_game("g2")
    assert g2 is not None and g2.game.version == 1
    assert [a.action for a in g2.actions] == [bid(1, 1).action]
    assert len(g2.decks) == 1 and store.friends.stand_ins("g2") == {}


def test_a_broken_constraint_among_them_fails_only_its_own_append(store: Store) -> None:
    make_games(store, "g1", "g2")
    assert store.append_actions([Append("g1", 0, bid(1, 1))]) == [1]
    done = store.append_actions([
        Append("g1", 1, bid(1, 2)),  # the right version, but step 1 is kept already
        Append("g2", 0, bid(1, 1)),
    ])
    assert isinstance(done[0], StaleVersionError) and done[1] == 1
    g1 = store.load_game("g1")
    assert g1 is not None and g1.game.version == 1 and len(g1.actions) == 1


def test_a_game_twice_goes_in_a_transaction(store: Store) -> None:
    make_games(store, "g1", "g2")
    sent = statements(store)
    done = store.append_actions([Append("g1", 0, bid(1, 1)), Append("g1", 1, bid(2, 2))])
    assert done == [1, 2]
    assert "WITH" not in sent and sent[-1] == "COMMIT"


HAND = {"hands": 1, "scores": [52, 31], "winner": None, "over": False}
GAME = {"hands": 2, "scores": [510, 87], "winner": 0, "over": True}


def stored_ends(store: Store, *game_ids: str) -> dict[str, tuple[Any, ...]]:
    """Each game's version, status and result, the result as the text the database holds."""
    games = store.tables.games
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(games.c.id, games.c.version, games.c.status,
                                      sa.cast(games.c.result, sa.Text))
                            .where(games.c.id.in_(game_ids))).all()
    return {row[0]: tuple(row[1:]) for row in rows}


def test_a_hands_end_and_a_games_end_go_in_the_one_statement(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The action that ends a hand (the game's standing) or the game (its status too) goes
    in the one statement with the others' and writes what the transaction writes, to the
    text of the stored JSON; an action with neither leaves both as they were."""
    batch = [
        Append("g1", 0, bid(1, 1), result=HAND),
        Append("g2", 0, bid(1, 2), deck=(1, DECK), status="over", result=GAME),
        Append("g3", 0, bid(1, 1), stand_in=(1, 1)),
    ]
    make_games(store, "g1", "g2", "g3", "t1", "t2", "t3")
    made = stored_ends(store, "g3")["g3"]
    sent = statements(store)
    assert store.append_actions(batch) == [1, 1, 1]
    assert sent == ["WITH"]
    with monkeypatch.context() as patched:  # the same appends the transaction's way
        patched.setattr(Store, "_append_many", lambda self, ones: None)
        assert store.append_actions([Append("t" + one.game_id[1], 0, one.action,
                                            deck=one.deck, status=one.status,
                                            result=one.result, stand_in=one.stand_in)
                                     for one in batch]) == [1, 1, 1]
    assert "COMMIT" in sent
    ends = stored_ends(store, "g1", "g2", "g3", "t1", "t2", "t3")
    for n in "123":
        assert ends["g" + n] == ends["t" + n]
    assert ends["g1"][1:] == (made[1], '{"hands": 1, "scores": [52, 31], "winner": null, '
                              '"over": false}')
    assert ends["g2"][1] == "over" and ends["g3"] == (1, *made[1:])
    # the next action with no end: the status and the standing stay
    assert store.append_actions([Append("g1", 1, bid(2, 2)), Append("g3", 1, bid(2, 2))]
                                ) == [2, 2]
    after = stored_ends(store, "g1", "g3")
    assert after["g1"] == (2, *ends["g1"][1:]) and after["g3"] == (2, *ends["g3"][1:])
    g2 = store.get_game("g2")
    assert g2 is not None and g2.status == "over" and g2.result == GAME


def test_the_games_rows_are_locked_in_their_ids_order(store: Store) -> None:
    """While another transaction holds g1, a batch of g2 then g1 waits for g1 holding
    nothing of g2 (it locks in the ids' order), so that two processes writing batches of
    the same games at once wait for each other in turn, never in a circle; when g1 is let
    go it writes both. (g2 is stored first: a scan of the games' rows meets it first.)"""
    make_games(store, "g2", "g1")
    games = store.tables.games
    done: list[int | Any] = []
    with store.engine.connect() as holder:
        holder.execute(sa.select(games.c.id).where(games.c.id == "g1").with_for_update())
        writer = threading.Thread(target=lambda: done.extend(store.append_actions([
            Append("g2", 0, bid(1, 1)), Append("g1", 0, bid(1, 2))])))
        writer.start()
        time.sleep(0.5)  # the batch is waiting for g1 by now
        assert writer.is_alive() and not done
        with store.engine.connect() as other:  # g2 is not held: NOWAIT does not fail
            other.execute(sa.select(games.c.id).where(games.c.id == "g2")
                          .with_for_update(nowait=True)).all()
            other.rollback()
        holder.rollback()
    writer.join(10)
    assert done == [1, 1]


def test_the_statement_finds_the_games_by_their_index_among_many(store: Store) -> None:
    """Among thousands of stored games, the batch's few are found by the games' primary
    key, not by reading every game (a scan of 3,000 games made one batch cost 8 ms of the
    database's time instead of 0.5)."""
    make_games(store, "g1")
    games = store.tables.games
    with store.engine.begin() as conn:
        stored = conn.execute(sa.select(games).where(games.c.id == "g1")).mappings().one()
        conn.execute(sa.insert(games), [{**stored, "id": f"many-{n}"} for n in range(5000)])
        conn.exec_driver_sql(f"ANALYZE {games.name}")
    ones = [Append(f"many-{n}", 0, bid(1, 1)) for n in (10, 20, 30)]
    statement = store._statements.many(store.engine.dialect.identifier_preparer.quote)
    with store.engine.connect() as conn:
        plan = "\n".join(row[0] for row in conn.execute(
            sa.text(f"EXPLAIN {statement.text}"), many_values(ones, now())))
        conn.rollback()
    assert f"Index Scan on {games.name}_pkey" in plan, plan
    assert "Seq Scan" not in plan, plan
    assert store.append_actions(ones) == [1, 1, 1]
