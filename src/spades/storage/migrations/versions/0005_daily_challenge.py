"""The daily challenge: its days, players, plays and pars (four new tables).

``challenge_days`` keeps each day's secret seed and its commitment,
``challenge_players`` the display name beside an owner cookie's hash,
``challenge_plays`` each player's play of each deal (one row per day, player
and deal, so a deal is entered once) and ``challenge_pars`` the bots' own play
of each deal. Nothing existing changes: nothing to fill in.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "challenge_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("salt", sa.String(32), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("deals", sa.Integer, nullable=False),
        sa.Column("level", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "challenge_players",
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "challenge_plays",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("owner", sa.String(64), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("bid", sa.Integer, nullable=True),
        sa.Column("tricks", sa.Integer, nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_challenge_plays_day_deal", "challenge_plays", ["day", "deal"])
    op.create_index("ix_challenge_plays_owner_day", "challenge_plays", ["owner", "day"])
    op.create_index("ix_challenge_plays_id", "challenge_plays", ["id"], unique=True)
    op.create_table(
        "challenge_pars",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("record", sa.JSON, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("bid", sa.Integer, nullable=False),
        sa.Column("tricks", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("challenge_pars")
    op.drop_index("ix_challenge_plays_id", "challenge_plays")
    op.drop_index("ix_challenge_plays_owner_day", "challenge_plays")
    op.drop_index("ix_challenge_plays_day_deal", "challenge_plays")
    op.drop_table("challenge_plays")
    op.drop_table("challenge_players")
    op.drop_table("challenge_days")
