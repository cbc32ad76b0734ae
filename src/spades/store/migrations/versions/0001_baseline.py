"""The baseline: the tables as ``create_all`` made them before there were migrations.

A database made then (with games in it and no version table) is stamped with this revision
instead of running it (spades.store.migrate adopts it); a new database runs it. Frozen: never
edit it, add a migration instead.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spades.store.migrate import prefixed

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

ID = 64  # the length of game ids and player ids


def upgrade() -> None:
    games = prefixed("games")
    op.create_table(
        games,
        sa.Column("id", sa.String(ID), nullable=False),
        sa.Column("owner", sa.String(ID), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(f"ix_{games}_owner", games, ["owner"])
    seats = prefixed("seats")
    op.create_table(
        seats,
        sa.Column("game_id", sa.String(ID), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(ID), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], [f"{games}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_index(f"ix_{seats}_player_id", seats, ["player_id"])
    op.create_table(
        prefixed("decks"),
        sa.Column("game_id", sa.String(ID), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("cards", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], [f"{games}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "hand"),
    )
    op.create_table(
        prefixed("actions"),
        sa.Column("game_id", sa.String(ID), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], [f"{games}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )
    op.create_table(
        prefixed("looks"),
        sa.Column("game_id", sa.String(ID), nullable=False),
        sa.Column("hand", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], [f"{games}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "hand", "seat"),
    )


def downgrade() -> None:
    for name in ("looks", "actions", "decks"):
        op.drop_table(prefixed(name))
    seats = prefixed("seats")
    op.drop_index(f"ix_{seats}_player_id", table_name=seats)
    op.drop_table(seats)
    games = prefixed("games")
    op.drop_index(f"ix_{games}_owner", table_name=games)
    op.drop_table(games)
