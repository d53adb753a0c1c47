"""Alembic's entry point for ``spades db upgrade`` (and ``GameRepository`` on a
new database): run the migrations on the connection ``schema.py`` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from spades.storage.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    if connection.dialect.name == "postgresql":
        # Two servers started at once on a new database would both create the
        # tables: the second waits here, then finds the schema up to date.
        # (SQLite takes its write lock at the first DDL statement instead.)
        connection.execute(text("SELECT pg_advisory_xact_lock(hashtext('spades-migrations'))"))
    context.run_migrations()
