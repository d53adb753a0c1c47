"""The database's schema and its migrations (Alembic, scripts in ``migrations/``).

A new, empty database is brought to the current schema when it is first
opened: there is nothing to lose. A database that already holds games is
changed only by ``spades db upgrade``, which a person runs (after a backup)
when they install a newer spades: the server refuses a database whose schema
is behind, rather than altering the tables under another server still running
the old code, and a database made by a newer spades, rather than misread it.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect

SCRIPTS: Final = str(Path(__file__).parent / "migrations")
UPGRADE_COMMAND: Final = "spades db upgrade"


class SchemaState(enum.Enum):
    EMPTY = "empty"
    """No tables: a new database."""
    CURRENT = "current"
    BEHIND = "behind"
    """Made by an older spades: ``spades db upgrade`` brings it up to date."""
    AHEAD = "ahead"
    """Made by a newer spades, at a revision this one does not know."""


@dataclass(frozen=True, slots=True)
class SchemaStatus:
    state: SchemaState
    revision: str | None
    """The database's revision (None: no tables, or made before migrations)."""
    head: str
    """The revision this spades needs."""

    def describe(self) -> str:
        """The status in a sentence, for ``spades db status`` and errors."""
        at = "made before migrations" if self.revision is None else f"at {self.revision}"
        match self.state:
            case SchemaState.EMPTY:
                return f"empty: no tables yet (its first use makes them, schema {self.head})"
            case SchemaState.CURRENT:
                return f"up to date (schema {self.head})"
            case SchemaState.BEHIND:
                return f"behind: {at}, this spades needs {self.head}"
            case SchemaState.AHEAD:
                return f"made by a newer spades: {at}, this spades knows up to {self.head}"


class SchemaError(Exception):
    """The database's schema is not the one this spades can use."""

    def __init__(self, status: SchemaStatus, where: str) -> None:
        self.status = status
        advice = (
            f"run `{UPGRADE_COMMAND} --db URL` (back the database up first)"
            if status.state is SchemaState.BEHIND
            else "use that version of spades, or another database"
        )
        super().__init__(f"the database {where} is {status.describe()}: {advice}")


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    config.attributes["connection"] = connection
    return config


@functools.cache
def _scripts() -> ScriptDirectory:
    """The migration scripts, read once a process: Alembic compiles and runs every
    script file to read its revision, and a new database's first opening asks
    for the head three times besides the upgrade's own reading."""
    return ScriptDirectory(SCRIPTS)


def head_revision() -> str:
    head = _scripts().get_current_head()
    assert head is not None, "the migrations have one head"
    return head


def schema_status(connection: Connection) -> SchemaStatus:
    """Where the database on ``connection`` stands against this spades' migrations."""
    head = head_revision()
    revision = MigrationContext.configure(connection).get_current_revision()
    if revision is None:
        # No alembic_version: a new database, or one made before migrations.
        tables = set(inspect(connection).get_table_names()) - {"alembic_version"}
        state = SchemaState.BEHIND if tables else SchemaState.EMPTY
    elif revision == head:
        state = SchemaState.CURRENT
    else:
        known = {script.revision for script in _scripts().walk_revisions()}
        state = SchemaState.BEHIND if revision in known else SchemaState.AHEAD
    return SchemaStatus(state, revision, head)


def upgrade(engine: Engine) -> tuple[SchemaStatus, SchemaStatus]:
    """Run every migration the database lacks; returns its status before and after."""
    with engine.begin() as connection:
        before = schema_status(connection)
        if before.state is SchemaState.AHEAD:
            raise SchemaError(before, _where(engine))
        command.upgrade(_config(connection), "head")
        return before, schema_status(connection)


def ensure_current(engine: Engine) -> None:
    """Make a new database's tables; refuse one whose schema is not current."""
    with engine.connect() as connection:
        status = schema_status(connection)
    if status.state is SchemaState.EMPTY:
        status = upgrade(engine)[1]  # (another process may have just done it: that is fine)
    if status.state is not SchemaState.CURRENT:
        raise SchemaError(status, _where(engine))


def _where(engine: Engine) -> str:
    return repr(engine.url.render_as_string(hide_password=True))
