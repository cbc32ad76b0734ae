"""The statements of the store's hot path, built once: an action appended to a game, and
the rows another process reads to follow it.

Every card is one such write. Building ``sa.update(...).where(...).values(...)`` anew for
each costs more CPU than the database's own work (SQLAlchemy coerces every literal into a
bound parameter and computes the statement's cache key again); statements built once with
named parameters are compiled once and then only executed with each action's values.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa

from .schema import Tables


class Statements:
    """The statements built once for ``Store.append_action`` and ``Store.missed`` on
    ``tables``."""

    def __init__(self, tables: Tables):
        self.tables = tables
        games = tables.games
        self._bumps: dict[tuple[str, ...], sa.Update] = {}
        self._together: sa.Insert | None = None
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
