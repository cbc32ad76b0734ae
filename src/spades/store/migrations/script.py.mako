"""${message}

Revision ${up_revision}, after ${down_revision | comma,n}, made ${create_date}.
Name every table and index through ``prefixed`` (the store's table-name prefix).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
${imports if imports else ""}
from spades.store.migrate import prefixed

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}
branch_labels = ${repr(branch_labels)}
depends_on = ${repr(depends_on)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}


def downgrade() -> None:
    ${downgrades if downgrades else "pass"}
