"""The log of changes to tables with friends, which every server process reads.

A table's people may be served by different processes (``spades serve
--workers N``, or several servers over one database). The process that makes
a change pushes it to the sockets it holds and adds a row here; every other
process reads the rows after the last it has heard and pushes each to its
own. On PostgreSQL the row's transaction also sends a NOTIFY on ``CHANNEL``
(with the table's id), so listeners read at once instead of asking on a timer.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Engine, bindparam, delete, func, insert, select

from .models import Base, TableChangeRow

ALIVE: Final = ""
"""The game id of a row that only says its origin process is alive (and so
still holds the sockets it said it holds)."""
CHANNEL: Final = "spades_table_changes"
"""The PostgreSQL notification channel a change is announced on."""
ORDER_LOCK: Final = 0x5BADE5
"""The PostgreSQL advisory lock that makes the log's writers take turns."""
KEPT_CHANGES: Final = 10_000
"""Rows kept: minutes of play on a busy server, far more than a listener lags."""
PRUNE_EVERY: Final = 500
"""A change whose id is a multiple of this prunes the rows older than the kept ones."""
READ_AT_MOST: Final = 1_000
"""Rows read at once: a listener far behind catches up in several reads."""


@dataclass(frozen=True, slots=True)
class TableChange:
    """One row of the log, read."""

    id: int
    game_id: str
    origin: str
    log_length: int
    events: list[dict[str, Any]]
    connected: list[str]
    reaction: dict[str, Any] | None


class TableChangeLog:
    """The ``table_changes`` rows, written and read over the repository's engine."""

    def __init__(self, engine: Engine, writing: Callable[[], AbstractContextManager[Any]]) -> None:
        self.engine = engine
        self._writing = writing
        self.notifies = engine.dialect.name == "postgresql"

    def add(
        self,
        game_id: str,
        *,
        origin: str,
        log_length: int,
        events: list[dict[str, Any]],
        connected: list[str],
        reaction: dict[str, Any] | None = None,
    ) -> int:
        """Log a change (announcing it on PostgreSQL); returns its id."""
        values = {
            "game_id": game_id,
            "origin": origin,
            "log_length": log_length,
            "events": events,
            "connected": connected,
            "reaction": reaction,
            "created_at": datetime.now(UTC),
        }
        with self._writing(), self.engine.begin() as connection:
            if self.notifies:
                # Rows commit in the order of their ids, or a reader that had read
                # id 11 would never see an id 10 committed after it. (SQLite's one
                # writer at a time already gives that order.)
                connection.execute(select(func.pg_advisory_xact_lock(ORDER_LOCK)))
            key = connection.execute(_ADD, values).inserted_primary_key
            assert key is not None, "an insert gives its row's key"
            change_id = int(key[0])
            if self.notifies:  # delivered when the row commits, never before it
                connection.execute(select(func.pg_notify(CHANNEL, game_id)))
            if change_id % PRUNE_EVERY == 0:
                connection.execute(_PRUNE, {"oldest_kept": change_id - KEPT_CHANGES})
        return change_id

    def last_id(self) -> int:
        """The newest change's id (0 for none): where a new listener starts."""
        with self.engine.connect() as connection:
            return int(connection.scalar(_LAST) or 0)

    def after(self, last_id: int) -> list[TableChange]:
        """The changes after ``last_id``, oldest first (at most ``READ_AT_MOST``)."""
        with self.engine.connect() as connection:
            rows = connection.execute(_AFTER, {"last_id": last_id}).all()
        return [
            TableChange(
                id=row.id,
                game_id=row.game_id,
                origin=row.origin,
                log_length=row.log_length,
                events=row.events,
                connected=row.connected,
                reaction=row.reaction,
            )
            for row in rows
        ]


_CHANGES: Final = Base.metadata.tables[TableChangeRow.__tablename__]
_ADD: Final = insert(_CHANGES)
_PRUNE: Final = delete(_CHANGES).where(_CHANGES.c.id < bindparam("oldest_kept"))
_LAST: Final = select(func.max(_CHANGES.c.id))
_AFTER: Final = (
    select(_CHANGES).where(_CHANGES.c.id > bindparam("last_id")).order_by(_CHANGES.c.id)
).limit(READ_AT_MOST)
