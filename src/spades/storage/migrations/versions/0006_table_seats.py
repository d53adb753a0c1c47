"""The seats players took at tables with friends: one new table.

``table_seats`` links a player's owner cookie (its hash, as ``games.owner``
keeps it) to the seat they took at a table, so their statistics count the
table's game from that seat. Nothing existing changes. Seats taken before this
revision cannot be linked: a table knows each seat by a secret of its own, a
different token from the owner cookie, and only its hash is kept; those games
stay out of the statistics, as they were.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_seats",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.String(1), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_seats_owner", "table_seats", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_table_seats_owner", "table_seats")
    op.drop_table("table_seats")
