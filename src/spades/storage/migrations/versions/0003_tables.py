"""Games with friends: a nullable ``seating`` column holds a game's seats.

A game played with friends keeps who sits where (a display name and the hash
of the seat's secret, or a bot level) beside its record, in the same row, so
one versioned save covers a move and the seats together. Games one person
plays against bots leave it null: nothing to fill in for the games already
stored.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("seating", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "seating")
