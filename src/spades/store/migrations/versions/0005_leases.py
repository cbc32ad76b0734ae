"""Leases: ``leases`` names the server process that owns a game's table for a few seconds at
a time (``spades serve`` with several processes on PostgreSQL: the owner runs the table's
computer players, grace periods and turn timers; docs/architecture.md).

Only a new table: every game, seat, deck and action stays as it was. Frozen once released.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spades.store.migrate import prefixed

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

ID = 64  # the length of ids: games, and a server process's name


def upgrade() -> None:
    op.create_table(
        prefixed("leases"),
        sa.Column("game_id", sa.String(ID), nullable=False),
        sa.Column("owner", sa.String(ID), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table(prefixed("leases"))
