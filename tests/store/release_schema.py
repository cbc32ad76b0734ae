"""A frozen copy of the store's tables as release 0.1.0 made them with ``create_all``, before
there were migrations (src/spades/store/schema.py at that release). Never edit it: the
migration tests build "a database made by the current release" from it."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

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
