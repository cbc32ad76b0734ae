"""The statements of the store's hot path, built once: an action appended to a game, and
the rows another process reads to follow it.

Every card is one such write. Building ``sa.update(...).where(...).values(...)`` anew for
each costs more CPU than the database's own work (SQLAlchemy coerces every literal into a
bound parameter and computes the statement's cache key again); statements built once with
named parameters are compiled once and then only executed with each action's values.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

from .schema import Tables

#: ``Statements.many``: the given appends as rows, their games locked in order, the
#: versions raised, and only then the rows that depend on a raised version inserted.
MANY = """
WITH given AS (
    SELECT * FROM json_to_recordset(CAST(:rows AS json))
        AS given (game_id varchar, version integer, seq integer, hand integer, seat integer,
                  action json, dealt integer, cards json, in_seq integer, in_seat integer,
                  status varchar, result json)
), locked AS (
    SELECT id FROM {games} WHERE id = ANY(ARRAY(SELECT game_id FROM given))
    ORDER BY id FOR UPDATE
), bumped AS (
    UPDATE {games} SET version = given.version + 1, updated = :updated,
        status = COALESCE(given.status, {games}.status),
        result = CASE WHEN given.result IS NULL THEN {games}.result ELSE given.result END
    FROM given
    WHERE {games}.id = given.game_id AND {games}.version = given.version
      AND {games}.id = ANY(ARRAY(SELECT id FROM locked))
    RETURNING {games}.id
), kept AS (
    INSERT INTO {actions} (game_id, seq, hand, seat, action, created)
    SELECT given.game_id, given.seq, given.hand, given.seat, given.action, :updated
    FROM given JOIN bumped ON bumped.id = given.game_id
    RETURNING game_id
), dealt AS (
    INSERT INTO {decks} (game_id, hand, cards)
    SELECT given.game_id, given.dealt, given.cards
    FROM given JOIN bumped ON bumped.id = given.game_id WHERE given.cards IS NOT NULL
), marked AS (
    INSERT INTO {marks} (game_id, seq, seat)
    SELECT given.game_id, given.in_seq, given.in_seat
    FROM given JOIN bumped ON bumped.id = given.game_id WHERE given.in_seq IS NOT NULL
)
SELECT game_id FROM kept
"""


class Statements:
    """The statements built once for ``Store.append_action`` and ``Store.missed`` on
    ``tables``."""

    def __init__(self, tables: Tables):
        self.tables = tables
        games = tables.games
        self._bumps: dict[tuple[str, ...], sa.Update] = {}
        self._together: sa.Insert | None = None
        self._many: sa.TextClause | None = None
        self._where = (games.c.id == sa.bindparam("b_game"),
                       games.c.version == sa.bindparam("b_version"))
        self.action = sa.insert(tables.actions)
        self.deck = sa.insert(tables.decks)
        self.stand_in = sa.insert(tables.stand_ins)
        # and what a process following the game reads of it (``Store.missed``)
        actions, marks = tables.actions.c, tables.stand_ins.c
        self.version = sa.select(games.c.version).where(games.c.id == sa.bindparam("game_id"))
        self.rows = (sa.select(actions.seq, actions.hand, actions.seat, actions.action)
                     .where(actions.game_id == sa.bindparam("game_id"),
                            actions.seq > sa.bindparam("seq"))
                     .order_by(actions.seq))
        self.marks = sa.select(marks.seq, marks.seat).where(
            marks.game_id == sa.bindparam("game_id"), marks.seq > sa.bindparam("seq"))

    def together(self) -> sa.Insert:
        """One action appended in one statement (PostgreSQL: a data-modifying ``WITH``):
        the game's version raised from the given one, and the action inserted only if it
        was, so that a stale action writes nothing and inserts no row. Run on its own (no
        transaction around it: one round trip instead of a begin, two statements and a
        commit); its parameters are ``bump``'s and the action's. It returns the action's
        ``seq`` when it was kept, no row when it was stale."""
        if self._together is None:
            games, actions = self.tables.games, self.tables.actions
            bumped = self.bump(()).returning(games.c.id).cte("bumped")
            self._together = sa.insert(actions).from_select(
                ["game_id", "seq", "hand", "seat", "action", "created"],
                sa.select(bumped.c.id, sa.bindparam("seq", type_=sa.Integer),
                          sa.bindparam("hand", type_=sa.Integer),
                          sa.bindparam("seat", type_=sa.Integer),
                          sa.bindparam("action", type_=actions.c.action.type),
                          sa.bindparam("b_updated", type_=actions.c.created.type))
            ).returning(actions.c.seq)  # the row inserted, or none (a rowcount of an insert
            # is not kept by every SQLAlchemy 2.0)
        return self._together

    def many(self, quote: Callable[[str], str]) -> sa.TextClause:
        """Several games' actions appended in one statement (PostgreSQL, autocommit): the
        given rows read from one JSON array (``Store``'s ``many_values``: one text
        parameter, which the driver passes as it is, where arrays cost it a dump of each
        element in Python), the games' rows locked in their ids' order (so that two
        processes writing batches at once never wait for each other in a circle), each
        game's version raised from the given one (with its new status and result, where
        the action ends a hand or the game), and its action, deck and stand-in mark
        inserted only if it was. It returns the ids of the games whose action was kept: a
        game missing is stale. One action a game at most; ``quote`` quotes a table's name
        for the dialect."""
        if self._many is None:
            games, actions, decks, marks = (quote(table.name) for table in (
                self.tables.games, self.tables.actions, self.tables.decks,
                self.tables.stand_ins))
            self._many = sa.text(MANY.format(games=games, actions=actions, decks=decks,
                                             marks=marks))
        return self._many

    def bump(self, extra: tuple[str, ...]) -> sa.Update:
        """The game's version raised by one from the given one, with the ``extra``
        columns (``status``, ``result``) set too. The parameters are named ``b_...``:
        ``values`` may not bind a parameter by a column's own name."""
        statement = self._bumps.get(extra)
        if statement is None:
            values: dict[str, Any] = {"version": sa.bindparam("b_next"),
                                      "updated": sa.bindparam("b_updated")}
            values.update({name: sa.bindparam(f"b_{name}") for name in extra})
            statement = sa.update(self.tables.games).where(*self._where).values(**values)
            self._bumps[extra] = statement
        return statement

    @staticmethod
    def bump_values(game_id: str, version: int, updated: dt.datetime,
                    extra: dict[str, Any]) -> dict[str, Any]:
        """The parameters of ``bump`` for one append."""
        values = {"b_game": game_id, "b_version": version, "b_next": version + 1,
                  "b_updated": updated}
        values.update({f"b_{name}": value for name, value in extra.items()})
        return values
