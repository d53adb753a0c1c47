"""Storing and loading games, each row reachable only through its owner's key.

Every query that reads or writes a game filters by the owner as well as the id,
so a guessed or copied id alone reaches nothing.

The database is the truth: a game is its stored record. Re-playing a record
through the checked engine on every request cost more than the rest of the
request together, so the repository also keeps the games it stored lately, as
played, keyed by id *and* version: a row another process or tab has changed
since has a newer version, misses, and is re-played from its record.
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    Engine,
    Row,
    Select,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker
from sqlalchemy.pool import StaticPool

from spades.core import Game, game_from_record, game_to_record
from spades.core.seats import SEAT_LETTERS, SeatLetter, parse_seat

from .challenge import ChallengeStore
from .faults import BUSY, READ_ONLY, StorageFault, storage_fault
from .file_systems import refuse_network_file
from .models import Base, GameRow, TableSeatRow
from .rate_buckets import RateBuckets
from .reviews import ReviewStore
from .schema import ensure_current
from .table_changes import TableChangeLog
from .wal_index import WalIndexWatch, database_file, watched_connection_class

GAME_ID_BYTES = 12
SQLITE_CONNECTIONS = 40
KEPT_GAMES = 512
"""Games kept as played, most recently used first: each is tens of kilobytes,
and a player's next request finds its game unless this many others came between."""
BUSY_TIMEOUT = 2.0
"""Seconds a read or write waits for the database (SQLite's lock held by
another process, a pooled connection, a database server's answer to connect)
before it is given up as busy: a write takes a fraction of a millisecond, so
an honest wait is far shorter, and a player is better told to retry than
kept waiting half a minute."""


class StaleGameError(Exception):
    """The game was changed by another request since it was loaded."""


@dataclass(frozen=True, slots=True)
class PlayedRecord:
    """A game's record and the seat (a letter) a player played it from."""

    seat: SeatLetter
    record: dict[str, Any]


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
    seating: dict[str, Any] | None = None
    """A game with friends: its seats and settings (see ``server/tables/service.py``)."""


def default_database_url() -> str:
    """An SQLite file in the user's data directory (``$XDG_DATA_HOME/spades`` or
    ``~/.local/share/spades``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return f"sqlite:///{Path(base) / 'spades' / 'spades.db'}"


def owner_key(token: str) -> str:
    """What is stored for an owner: a hash of the cookie token, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def database_engine(url: str, busy_timeout: float = BUSY_TIMEOUT) -> Engine:
    """An engine for ``url``, set up as the server uses it (driver, pool, SQLite
    pragmas), waiting at most ``busy_timeout`` seconds for a lock, a pooled
    connection or a database server to connect."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        if parsed.drivername == "postgresql":
            # psycopg 3 is the driver we depend on; SQLAlchemy's bare name means psycopg2.
            parsed = parsed.set(drivername="postgresql+psycopg")
        extra = (
            {"connect_args": {"connect_timeout": max(2, math.ceil(busy_timeout))}}
            if parsed.get_backend_name() == "postgresql"
            else {}
        )
        return create_engine(parsed, pool_pre_ping=True, pool_timeout=busy_timeout, **extra)
    database = parsed.database
    if not database or database == ":memory:":
        # One shared connection, or each thread would see its own empty database.
        return create_engine(
            parsed, connect_args={"check_same_thread": False}, poolclass=StaticPool
        )
    connect_args: dict[str, Any] = {"check_same_thread": False, "timeout": busy_timeout}
    watched = database_file(database)
    if watched is not None:
        # The file's own folder (a ``file:`` URI's path, not a folder named "file:").
        Path(watched).parent.mkdir(parents=True, exist_ok=True)
        refuse_network_file(watched)  # WAL there can corrupt the file (file_systems.py)
        # A cut -shm index: a 503, not a SIGBUS (wal_index.py).
        connect_args["factory"] = watched_connection_class(WalIndexWatch(watched))
    engine = create_engine(
        parsed,
        connect_args=connect_args,
        # A connection for each of the server's worker threads (anyio's default
        # limit is 40): fewer, and requests queue for one, or open and close a
        # spare each time.
        pool_size=SQLITE_CONNECTIONS,
        max_overflow=0,
        pool_timeout=busy_timeout,
    )

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for a writer
        # In WAL mode NORMAL syncs the log to disk at checkpoints instead of at
        # every commit (FULL's fsync was most of a move's time). A commit is in
        # the log before it is acknowledged, so a server killed at any moment
        # loses nothing it answered; only an OS crash or power cut can undo the
        # last moves, never corrupt the file.
        cursor.execute("PRAGMA synchronous=NORMAL")
        # The database file itself is read with read(2), never mapped: a mapped
        # file cut or failing under the process is a SIGBUS (wal_index.py).
        cursor.execute("PRAGMA mmap_size=0")
        cursor.close()

    return engine


class PlayedGames:
    """Games as the engine left them, by id and version, so loading one need not
    re-play its record.

    Each is a private copy: ``get`` hands out a clone and ``put`` keeps one, so
    a request acting on its game never changes what another request is given.
    Thread-safe: the server's routes run in a thread pool.
    """

    def __init__(self, size: int = KEPT_GAMES) -> None:
        self._size = size
        self._games: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> Game | None:
        """A copy of the game at ``version``, if it is kept."""
        with self._lock:
            kept = self._games.get(game_id)
            if kept is None or kept[0] != version:
                return None
            self._games.move_to_end(game_id)
            game = kept[1]
        return game.clone()  # outside the lock: the kept game is never changed

    def put(self, game_id: str, version: int, game: Game) -> None:
        copy = game.clone()
        with self._lock:
            self._games[game_id] = (version, copy)
            self._games.move_to_end(game_id)
            while len(self._games) > self._size:
                self._games.popitem(last=False)

    def __len__(self) -> int:
        return len(self._games)


class GameRepository:
    """The games of every owner, in one SQL database."""

    def __init__(self, url: str, *, busy_timeout: float = BUSY_TIMEOUT) -> None:
        self.url = url
        self.busy_timeout = busy_timeout
        self.engine = database_engine(url, busy_timeout)
        self.played = PlayedGames()
        self._write_lock: threading.Lock | None = (
            threading.Lock() if self.engine.dialect.name == "sqlite" else None
        )
        """SQLite lets one connection write at a time and makes the others poll
        for the lock, sleeping up to 100 ms between tries: under load most of a
        move's time was spent asleep there. Writes here take a fraction of a
        millisecond, so taking turns in the process first is far faster.
        (PostgreSQL locks rows, not the database: no need there.)"""
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        ensure_current(self.engine)  # a new database gets its tables; an old one is refused
        self.table_changes = TableChangeLog(self.engine, self._writing)
        self.reviews = ReviewStore(self.engine, self._writing)
        self.challenge = ChallengeStore(self.engine, self._writing)
        self.rate_buckets = RateBuckets(self.engine, self._writing)

    @property
    def alone(self) -> bool:
        """Whether no other process can open this database (SQLite in memory)."""
        database = self.engine.url.database
        return self.engine.dialect.name == "sqlite" and database_file(database or "") is None

    def close(self) -> None:
        self.engine.dispose()

    def check_writable(self) -> None:
        """Raise ``StorageFault`` (``storage-read-only``) if the database refuses
        writes: a read-only file or mount, or a server in read-only mode.

        An update that matches no row still asks for the write lock, so it
        fails as a real write would, and changes nothing. A database another
        process is writing to at that moment is busy, not read-only: it passes."""
        try:
            with self._writing(), self.engine.connect() as connection:
                connection.execute(update(_GAMES).where(_GAMES.c.id.is_(None)).values(version=0))
                connection.rollback()
        except Exception as error:
            fault = storage_fault(error)
            if fault is not None and fault.rule == BUSY:
                return
            if fault is not None and fault.rule == READ_ONLY:
                raise fault from None
            raise

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """This process's turn to write (SQLite), waited for at most ``busy_timeout``."""
        if self._write_lock is None:
            yield
            return
        if not self._write_lock.acquire(timeout=self.busy_timeout):
            raise StorageFault(BUSY, "another write of this server held the lock")
        try:
            yield
        finally:
            self._write_lock.release()

    # ------------------------------------------------------------------ writes

    def create(
        self,
        owner: str,
        game: Game,
        *,
        partner_level: str,
        opponent_level: str,
        undo: bool = True,
        seating: dict[str, Any] | None = None,
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
            seating=seating,
            record=game_to_record(game),
            hand_number=game.hand_number,
            finished=game.is_over,
            winner=_winner(game),
            version=1,
            created_at=now,
            updated_at=now,
        )
        with self._writing(), self._sessions.begin() as session:
            session.add(row)
        self.played.put(row.id, 1, game)
        return row.id

    def save(self, owner: str, stored: StoredGame) -> int:
        """Write ``stored.game`` back; returns the new version.

        Raises ``StaleGameError`` if the row changed since ``stored`` was loaded.
        """
        game = stored.game
        values = {
            "game_id": stored.id,
            "owner_key": owner,
            "loaded_version": stored.version,
            "new_record": game_to_record(game),
            "new_hand_number": game.hand_number,
            "new_finished": game.is_over,
            "new_winner": _winner(game),
            "new_updated_at": datetime.now(UTC),
            "new_seating": stored.seating,
        }
        with self._writing(), self.engine.begin() as connection:
            if connection.execute(_SAVE, values).rowcount != 1:
                raise StaleGameError(stored.id)
        self.played.put(stored.id, stored.version + 1, game)  # only once it is committed
        return stored.version + 1

    def link_seat(self, owner: str, game_id: str, seat: SeatLetter) -> None:
        """Note that ``owner`` took ``seat`` at the table ``game_id``, so their
        statistics count that game from it. Taking it again changes nothing;
        a player has one seat at a table, and the latest they took stands."""
        try:
            with self._writing(), self.engine.begin() as connection:
                updated = connection.execute(
                    update(_TABLE_SEATS)
                    .where(_TABLE_SEATS.c.owner == owner, _TABLE_SEATS.c.game_id == game_id)
                    .values(seat=seat)
                )
                if updated.rowcount == 0:
                    connection.execute(
                        insert(_TABLE_SEATS).values(
                            owner=owner, game_id=game_id, seat=seat, taken_at=datetime.now(UTC)
                        )
                    )
        except IntegrityError:
            pass  # another request of the same player's linked it a moment before

    def unlink_seat(self, game_id: str, seat: SeatLetter) -> None:
        """The seat ``seat`` of table ``game_id`` was freed: whoever had it no
        longer counts the game (the next to take it will)."""
        with self._writing(), self.engine.begin() as connection:
            connection.execute(
                delete(_TABLE_SEATS).where(
                    _TABLE_SEATS.c.game_id == game_id, _TABLE_SEATS.c.seat == seat
                )
            )

    # ------------------------------------------------------------------- reads

    def load(self, owner: str, game_id: str) -> StoredGame | None:
        """The game ``game_id`` if ``owner`` owns it, its record re-validated."""
        return self._read(_LOAD, {"game_id": game_id, "owner": owner})

    def latest(self, owner: str) -> StoredGame | None:
        """The game ``owner`` played most recently."""
        return self._read(_LATEST, {"owner": owner})

    def _read(self, query: Select[Any], params: dict[str, str]) -> StoredGame | None:
        """The game ``query`` finds: the copy kept at its version, else its record
        re-played (the record, most of the row, is read from the database only then)."""
        with self.engine.connect() as connection:
            while True:
                row = connection.execute(query, params).one_or_none()
                if row is None:
                    return None
                game = self.played.get(row.id, row.version)
                if game is None:
                    record = connection.scalar(_RECORD, {"game_id": row.id, "version": row.version})
                    if record is None:
                        continue  # saved again between the two reads: read it anew
                    game = game_from_record(record)
                    self.played.put(row.id, row.version, game)
                return _stored_game(row, game)

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

    def played_records(self, owner: str) -> list[PlayedRecord]:
        """Every game ``owner`` played, oldest first, each with the seat they
        played it from: their own games (South) and the finished games of the
        tables with friends where they took a seat (only finished ones: a game
        still going on is the table's, and its hands are still being played)."""
        own = select(GameRow.record, GameRow.created_at, GameRow.id).where(GameRow.owner == owner)
        seated = (
            select(GameRow.record, GameRow.created_at, GameRow.id, TableSeatRow.seat)
            .join(TableSeatRow, TableSeatRow.game_id == GameRow.id)
            .where(TableSeatRow.owner == owner, GameRow.finished.is_(True))
        )
        south: SeatLetter = "S"
        with self.engine.connect() as connection:
            rows: list[tuple[datetime, str, SeatLetter, dict[str, Any]]] = [
                (row.created_at, row.id, south, row.record) for row in connection.execute(own)
            ]
            rows += [
                (row.created_at, row.id, parse_seat_letter(row.seat), row.record)
                for row in connection.execute(seated)
            ]
        rows.sort(key=lambda row: (_aware(row[0]), row[1]))
        return [PlayedRecord(seat=seat, record=record) for _, _, seat, record in rows]


# The hot path's statements, built once: building one costs more than running it.
_GAMES: Final = Base.metadata.tables[GameRow.__tablename__]
_TABLE_SEATS: Final = Base.metadata.tables[TableSeatRow.__tablename__]
_SETTINGS: Final = [column for column in _GAMES.c if column.name != "record"]
_LOAD: Final = select(*_SETTINGS).where(
    _GAMES.c.id == bindparam("game_id"), _GAMES.c.owner == bindparam("owner")
)
_LATEST: Final = (
    select(*_SETTINGS)
    .where(_GAMES.c.owner == bindparam("owner"))
    .order_by(_GAMES.c.updated_at.desc(), _GAMES.c.created_at.desc())
    .limit(1)
)
_RECORD: Final = select(_GAMES.c.record).where(
    _GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("version")
)
_SAVE: Final = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("game_id"),
        _GAMES.c.owner == bindparam("owner_key"),
        _GAMES.c.version == bindparam("loaded_version"),
    )
    .values(
        {
            **{
                name: bindparam(f"new_{name}", type_=_GAMES.c[name].type)
                for name in ("record", "hand_number", "finished", "winner", "updated_at", "seating")
            },
            "version": _GAMES.c.version + 1,
        }
    )
)


def _stored_game(row: Row[Any], game: Game) -> StoredGame:
    return StoredGame(
        id=row.id,
        game=game,
        partner_level=row.partner_level,
        opponent_level=row.opponent_level,
        version=row.version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        undo=row.undo,
        seating=row.seating,
    )


def parse_seat_letter(text: str) -> SeatLetter:
    """A seat's letter as the database keeps it, read back as one."""
    return SEAT_LETTERS[parse_seat(text)]


def _aware(moment: datetime) -> datetime:
    """``moment`` with its time zone (SQLite reads back naive times, all UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _winner(game: Game) -> str | None:
    return None if game.outcome is None else ("NS", "EW")[game.outcome.winner]
