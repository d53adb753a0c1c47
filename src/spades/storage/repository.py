"""Storing and loading games, each row reachable only through its owner's key.

Every query that reads or writes a game filters by the owner as well as the id,
so a guessed or copied id alone reaches nothing.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, select, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool
from sqlalchemy.schema import CreateColumn

from spades.core import Game, game_from_record, game_to_record

from .models import Base, GameRow

GAME_ID_BYTES = 12


class StaleGameError(Exception):
    """The game was changed by another request since it was loaded."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A loaded game with the settings kept beside its record."""

    id: str
    game: Game
    partner_level: str
    opponent_level: str
    version: int
    created_at: datetime
    updated_at: datetime
    undo: bool = True
    """Whether South may take back its last bid or card."""


def default_database_url() -> str:
    """An SQLite file in the user's data directory (``$XDG_DATA_HOME/spades`` or
    ``~/.local/share/spades``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'spades' / 'spades.db'}"


def owner_key(token: str) -> str:
    """What is stored for an owner: a hash of the cookie token, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        if parsed.drivername == "postgresql":
            # psycopg 3 is the driver we depend on; SQLAlchemy's bare name means psycopg2.
            parsed = parsed.set(drivername="postgresql+psycopg")
        return create_engine(parsed, pool_pre_ping=True)
    database = parsed.database
    if not database or database == ":memory:":
        # One shared connection, or each thread would see its own empty database.
        return create_engine(
            parsed, connect_args={"check_same_thread": False}, poolclass=StaticPool
        )
    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for a writer
        cursor.close()

    return engine


class GameRepository:
    """The games of every owner, in one SQL database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        Base.metadata.create_all(self.engine)
        _add_new_columns(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writes

    def create(
        self,
        owner: str,
        game: Game,
        *,
        partner_level: str,
        opponent_level: str,
        undo: bool = True,
    ) -> str:
        """Store a new game for ``owner`` (a key from ``owner_key``); returns its id."""
        now = datetime.now(UTC)
        row = GameRow(
            id=secrets.token_urlsafe(GAME_ID_BYTES),
            owner=owner,
            seed=game.seed if game.seed is not None else 0,
            partner_level=partner_level,
            opponent_level=opponent_level,
            undo=undo,
            record=game_to_record(game),
            hand_number=game.hand_number,
            finished=game.is_over,
            winner=_winner(game),
            version=1,
            created_at=now,
            updated_at=now,
        )
        with self._sessions.begin() as session:
            session.add(row)
        return row.id

    def save(self, owner: str, stored: StoredGame) -> int:
        """Write ``stored.game`` back; returns the new version.

        Raises ``StaleGameError`` if the row changed since ``stored`` was loaded.
        """
        game = stored.game
        statement = (
            update(GameRow)
            .where(
                GameRow.id == stored.id,
                GameRow.owner == owner,
                GameRow.version == stored.version,
            )
            .values(
                record=game_to_record(game),
                hand_number=game.hand_number,
                finished=game.is_over,
                winner=_winner(game),
                version=stored.version + 1,
                updated_at=datetime.now(UTC),
            )
        )
        with self._sessions.begin() as session:
            if session.execute(statement).rowcount != 1:  # type: ignore[attr-defined]
                raise StaleGameError(stored.id)
        return stored.version + 1

    # ------------------------------------------------------------------- reads

    def load(self, owner: str, game_id: str) -> StoredGame | None:
        """The game ``game_id`` if ``owner`` owns it, its record re-validated."""
        with self._sessions() as session:
            row = session.scalar(
                select(GameRow).where(GameRow.id == game_id, GameRow.owner == owner)
            )
            return None if row is None else _stored(row)

    def latest(self, owner: str) -> StoredGame | None:
        """The game ``owner`` played most recently."""
        with self._sessions() as session:
            row = session.scalar(
                select(GameRow)
                .where(GameRow.owner == owner)
                .order_by(GameRow.updated_at.desc(), GameRow.created_at.desc())
                .limit(1)
            )
            return None if row is None else _stored(row)

    def list_games(
        self, owner: str, limit: int = 20, *, unfinished_only: bool = False
    ) -> list[GameRow]:
        """``owner``'s games, most recent first (rows: summaries, records not replayed)."""
        query = select(GameRow).where(GameRow.owner == owner)
        if unfinished_only:
            query = query.where(GameRow.finished.is_(False))
        with self._sessions() as session:
            return list(
                session.scalars(
                    query.order_by(GameRow.updated_at.desc(), GameRow.created_at.desc()).limit(
                        limit
                    )
                )
            )

    def records(self, owner: str) -> list[dict[str, Any]]:
        """The records of all of ``owner``'s games, oldest first (as stored, not replayed)."""
        with self._sessions() as session:
            return list(
                session.scalars(
                    select(GameRow.record)
                    .where(GameRow.owner == owner)
                    .order_by(GameRow.created_at, GameRow.id)
                )
            )


def _stored(row: GameRow) -> StoredGame:
    return StoredGame(
        id=row.id,
        game=game_from_record(row.record),
        partner_level=row.partner_level,
        opponent_level=row.opponent_level,
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        undo=row.undo,
    )


def _add_new_columns(engine: Engine) -> None:
    """Add the columns a database made by an older version lacks.

    ``create_all`` makes missing tables but never changes one that exists, so a
    column added to a model since is added here, with its server default filling
    the rows already stored. (A migration tool would be the answer once a change
    needs more than new columns.)"""
    inspector = inspect(engine)
    for table in Base.metadata.sorted_tables:
        present = {column["name"] for column in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name not in present:
                spec = CreateColumn(column).compile(dialect=engine.dialect)
                with engine.begin() as connection:
                    connection.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {spec}"))


def _winner(game: Game) -> str | None:
    return None if game.outcome is None else ("NS", "EW")[game.outcome.winner]
