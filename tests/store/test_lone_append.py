"""A lone action on PostgreSQL (most of a busy server's commits: one card) is written in
one statement with no transaction around it: one round trip instead of four (a begin, the
version's update, the action's insert, a commit). It is still checked against its game's
version: a stale one writes nothing."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from test_store import DECK, make_row

from spades.store import ActionRow, Append, StaleVersionError, Store


@pytest.fixture
def store(postgres_store: Store) -> Store:
    return postgres_store


def card(seq: int) -> ActionRow:
    return ActionRow(seq=seq, hand=0, seat=seq % 4, action={"seat": seq % 4, "card": "AS"})


def statements(store: Store) -> list[str]:
    """The statements sent to the database from now on: each one's first word, "(in a
    transaction)" after it unless its connection was in autocommit (psycopg then sends no
    BEGIN), and "COMMIT" for each commit."""
    sent: list[str] = []

    def executed(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        alone = conn.connection.dbapi_connection.autocommit
        sent.append(statement.split()[0].upper() + ("" if alone else " (in a transaction)"))

    sa.event.listen(store.engine, "before_cursor_execute", executed)
    sa.event.listen(store.engine, "commit", lambda conn: sent.append("COMMIT"))
    return sent


def test_a_lone_action_is_one_statement(store: Store) -> None:
    store.create_game(make_row("g"), DECK)
    sent = statements(store)
    assert store.append_actions([Append("g", 0, card(1))]) == [1]
    assert sent == ["WITH"]
    stored = store.load_game("g")
    assert stored is not None and stored.game.version == 1
    assert [a.action for a in stored.actions] == [card(1).action]


def test_a_stale_lone_action_writes_nothing(store: Store) -> None:
    store.create_game(make_row("g"), DECK)
    assert store.append_actions([Append("g", 0, card(1))]) == [1]
    again = ActionRow(seq=2, hand=0, seat=1, action={"seat": 1, "card": "KS"})
    done = store.append_actions([Append("g", 0, again)])  # made from version 0: stale
    assert len(done) == 1 and isinstance(done[0], StaleVersionError)
    stored = store.load_game("g")
    assert stored is not None and stored.game.version == 1
    assert [a.action for a in stored.actions] == [card(1).action]


def test_a_lone_action_of_a_game_not_stored_is_stale(store: Store) -> None:
    done = store.append_actions([Append("nowhere", 0, card(1))])
    assert len(done) == 1 and isinstance(done[0], StaleVersionError)


@pytest.mark.parametrize("more", [
    {"stand_in": (1, 1)},
    {"deck": (1, list(reversed(DECK)))},
    {"status": "over", "result": {"hands": 1, "scores": [10, 0]}},
])
def test_an_action_with_more_is_one_statement_too(store: Store, more: dict[str, Any]) -> None:
    """A deck, a stand-in mark or a game's end with it: the statement of several games'
    actions (``Statements.many``), for one."""
    store.create_game(make_row("g"), DECK)
    sent = statements(store)
    assert store.append_actions([Append("g", 0, card(1), **more)]) == [1]
    assert sent == ["WITH"]
    stored = store.load_game("g")
    assert stored is not None and stored.game.version == 1
    assert [a.action for a in stored.actions] == [card(1).action]
    assert store.friends.stand_ins("g") == ({1: 1} if "stand_in" in more else {})
    assert len(stored.decks) == (2 if "deck" in more else 1)
    assert stored.game.status == more.get("status", "playing")
    assert stored.game.result == more.get("result", make_row("g").result)
