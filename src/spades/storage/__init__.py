"""Where games are kept: SQLAlchemy tables and the repository the server uses.

A stored game is its ``spades-record/1`` record (every deal, bid and card) plus
the settings that record does not fix (the bot level of each seat group). The
record is re-validated by ``game_from_record`` on every load, so a row that
breaks a rule is refused rather than played on.
"""

from .faults import StorageFault, storage_fault
from .file_systems import NetworkDatabaseFile
from .repository import (
    BUSY_TIMEOUT,
    GameRepository,
    PlayedRecord,
    StaleGameError,
    StoredGame,
    database_engine,
    default_database_url,
    owner_key,
)
from .schema import SchemaError, SchemaState, SchemaStatus, schema_status, upgrade

__all__ = [
    "BUSY_TIMEOUT",
    "GameRepository",
    "NetworkDatabaseFile",
    "PlayedRecord",
    "SchemaError",
    "SchemaState",
    "SchemaStatus",
    "StaleGameError",
    "StorageFault",
    "StoredGame",
    "database_engine",
    "default_database_url",
    "owner_key",
    "schema_status",
    "storage_fault",
    "upgrade",
]
