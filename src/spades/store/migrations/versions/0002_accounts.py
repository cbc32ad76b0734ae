"""Optional accounts: ``accounts``, ``logins`` (server-side sessions), ``account_players``
(the player ids whose games are an account's) and ``resets`` (one-use reset links).

Only new tables: every game, seat, deck and action stays as it was. Frozen once released.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from spades.store.migrate import prefixed

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

ID = 64  # the length of ids: accounts, players, logins (a SHA-256 in hex), reset links
EMAIL = 254


def upgrade() -> None:
    accounts = prefixed("accounts")
    op.create_table(
        accounts,
        sa.Column("id", sa.String(ID), nullable=False),
        sa.Column("email", sa.String(EMAIL), nullable=False),
        sa.Column("password", sa.String(255), nullable=False),
        sa.Column("player_id", sa.String(ID), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("email"),
        sa.UniqueConstraint("player_id"),
    )
    account_players = prefixed("account_players")
    op.create_table(
        account_players,
        sa.Column("player_id", sa.String(ID), nullable=False),
        sa.Column("account_id", sa.String(ID), nullable=False),
        sa.Column("moved", sa.Boolean(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], [f"{accounts}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_index(f"ix_{account_players}_account_id", account_players, ["account_id"])
    logins = prefixed("logins")
    op.create_table(
        logins,
        sa.Column("id", sa.String(ID), nullable=False),
        sa.Column("player_id", sa.String(ID), nullable=False),
        sa.Column("account_id", sa.String(ID), nullable=True),
        sa.Column("csrf", sa.String(ID), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("device", sa.String(128), nullable=False),
        sa.Column("moving", sa.String(ID), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], [f"{accounts}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(f"ix_{logins}_account_id", logins, ["account_id"])
    resets = prefixed("resets")
    op.create_table(
        resets,
        sa.Column("id", sa.String(ID), nullable=False),
        sa.Column("account_id", sa.String(ID), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["account_id"], [f"{accounts}.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(f"ix_{resets}_account_id", resets, ["account_id"])


def downgrade() -> None:
    for name in ("resets", "logins", "account_players"):
        table = prefixed(name)
        op.drop_index(f"ix_{table}_account_id", table_name=table)
        op.drop_table(table)
    op.drop_table(prefixed("accounts"))
