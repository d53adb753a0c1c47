"""Tables across processes, and reviews computed once: two new tables.

``table_changes`` is a short log of what happened at each table with friends
(the public events of a move, who is connected where, a quick reaction), which
every server process reads to push the change to the sockets it holds.
``hand_reviews`` keeps each finished hand's review, so a review is computed
once whichever process is asked for it, and survives a restart. Neither holds
anything the games table does not already imply: nothing to fill in.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_changes",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer, "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("origin", sa.String(32), nullable=False),
        sa.Column("log_length", sa.Integer, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("connected", sa.JSON, nullable=False),
        sa.Column("reaction", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "hand_reviews",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("review", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hand_reviews")
    op.drop_table("table_changes")
