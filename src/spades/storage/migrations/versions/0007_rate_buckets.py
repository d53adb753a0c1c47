"""The limits' token buckets, shared by every server process: one new table.

``rate_buckets`` keeps, for each kind of costly request and each player or
client address, how many more it may make and as of when, so that under
``spades serve --workers N`` (or several servers over one SQLite file) a client
gets a limit once, not once for each process. Nothing existing changes; the
table starts empty (every bucket full), as each process's memory did.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_buckets",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("counted_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_buckets")
