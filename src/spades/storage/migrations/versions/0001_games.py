"""The games table, as spades stored games before it had migrations.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    if inspector.has_table("games"):
        # Made by spades before migrations: the table is there, and lacks the
        # undo setting if it is older than that (the one column ever added).
        if "undo" not in {column["name"] for column in inspector.get_columns("games")}:
            op.add_column(
                "games",
                sa.Column("undo", sa.Boolean(), server_default=sa.true(), nullable=False),
            )
        return
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("partner_level", sa.String(32), nullable=False),
        sa.Column("opponent_level", sa.String(32), nullable=False),
        sa.Column("undo", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("winner", sa.String(2), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_owner", "games", ["owner"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])


def downgrade() -> None:
    op.drop_table("games")
