"""A player's games, newest first, from one index.

Every listing asks for one owner's games by ``updated_at``, newest first (the
game to resume, Your games). An index on (owner, updated_at) reads them in that
order directly, where the owner index alone made the database sort all of an
owner's games; it also serves the owner-only lookups, so the two single-column
indexes go (the one on updated_at alone served no query, and cost every save).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_owner_updated_at", "games", ["owner", "updated_at"])
    op.drop_index("ix_games_owner", table_name="games")
    op.drop_index("ix_games_updated_at", table_name="games")


def downgrade() -> None:
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_index("ix_games_owner", "games", ["owner"])
    op.drop_index("ix_games_owner_updated_at", table_name="games")
