"""Tables with friends: ``friend_tables`` (host, status, options, the SHA-256 of the invite
and watch codes, who was removed, the turn timer's deadline), ``friend_seats`` (the people
seated: player id, display name, presence, the end of a grace period) and ``stand_ins`` (the
actions a computer player made for an absent person).

Only new tables: every game, seat, deck and action stays as it was. Frozen once released.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spades.store.migrate import prefixed

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

ID = 64  # the length of ids: games (a table's id is its game's), players, code digests


def upgrade() -> None:
    tables = prefixed("friend_tables")
    op.create_table(
        tables,
        sa.Column("id", sa.String(ID), nullable=False),
        sa.Column("host", sa.String(ID), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("touched", sa.DateTime(timezone=True), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("invite", sa.String(ID), nullable=True),
        sa.Column("watch", sa.String(ID), nullable=True),
        sa.Column("barred", sa.JSON(), nullable=False),
        sa.Column("next_id", sa.String(ID), nullable=True),
        sa.Column("timer_seat", sa.Integer(), nullable=True),
        sa.Column("timer_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    for column in ("host", "invite", "watch"):
        op.create_index(f"ix_{tables}_{column}", tables, [column])
    seats = prefixed("friend_seats")
    op.create_table(
        seats,
        sa.Column("table_id", sa.String(ID), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(ID), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("away_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], [f"{tables}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
    )
    op.create_index(f"ix_{seats}_player_id", seats, ["player_id"])
    stand_ins = prefixed("stand_ins")
    op.create_table(
        stand_ins,
        sa.Column("game_id", sa.String(ID), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], [f"{prefixed('games')}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table(prefixed("stand_ins"))
    seats = prefixed("friend_seats")
    op.drop_index(f"ix_{seats}_player_id", table_name=seats)
    op.drop_table(seats)
    tables = prefixed("friend_tables")
    for column in ("host", "invite", "watch"):
        op.drop_index(f"ix_{tables}_{column}", table_name=tables)
    op.drop_table(tables)
