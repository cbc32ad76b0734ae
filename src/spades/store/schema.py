"""The tables of the store: a game is its rules, its decks and its ordered actions.

``games`` holds one row per game (the secret seed stays here, never sent anywhere),
``seats`` who sits where (a player id per human seat, so that tables with several people
and accounts need no new shape), ``decks`` each hand's deck as it is dealt, ``actions`` the
append-only list of actions (a look at face-down cards is one of them), and ``looks``, where
servers saved such looks before they were actions: it is only read now, so that those games
resume the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

#: The length of ids we accept: game ids and player ids.
ID_LENGTH = 64


@dataclass(frozen=True)
class Tables:
    metadata: sa.MetaData
    games: sa.Table
    seats: sa.Table
    decks: sa.Table
    actions: sa.Table
    looks: sa.Table


def make_tables(prefix: str = "") -> Tables:
    """The tables, their names starting with ``prefix`` (tests use a unique one)."""
    md = sa.MetaData()
    games = sa.Table(
        f"{prefix}games", md,
        sa.Column("id", sa.String(ID_LENGTH), primary_key=True),
        sa.Column("owner", sa.String(ID_LENGTH), nullable=False, index=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
    )
    seats = sa.Table(
        f"{prefix}seats", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(ID_LENGTH), nullable=True, index=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
    )
    decks = sa.Table(
        f"{prefix}decks", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("cards", sa.JSON, nullable=False),
    )
    actions = sa.Table(
        f"{prefix}actions", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    looks = sa.Table(
        f"{prefix}looks", md,
        sa.Column("game_id", sa.String(ID_LENGTH),
                  sa.ForeignKey(games.c.id, ondelete="CASCADE"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    return Tables(md, games, seats, decks, actions, looks)
