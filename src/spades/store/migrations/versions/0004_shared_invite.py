"""The invite code a host lets everyone seated share: ``friend_tables.shared`` holds the code
itself (its SHA-256 stays in ``invite``) while the host lets anyone seated share the link,
and nothing otherwise.

One new nullable column: every table, game, seat, deck and action stays as it was (a table
made before has no shared code: its host may make the link shareable and renew it). Frozen
once released.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spades.store.migrate import prefixed

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

CODE = 16  # an invite code is 9 letters


def upgrade() -> None:
    with op.batch_alter_table(prefixed("friend_tables")) as batch:
        batch.add_column(sa.Column("shared", sa.String(CODE), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table(prefixed("friend_tables")) as batch:
        batch.drop_column("shared")
