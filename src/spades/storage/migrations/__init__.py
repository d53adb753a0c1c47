"""Alembic migration scripts of the game database (see ``storage/schema.py``)."""
