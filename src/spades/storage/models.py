"""The tables. Portable column types only, so SQLite and PostgreSQL behave alike.

A change here needs a migration beside it (``migrations/versions``): existing
databases are upgraded by ``spades db upgrade``, and a test checks that the
migrations build exactly these tables."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, Index, Integer, String, true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One game played in the browser: who owns it and the record that reproduces it."""

    __tablename__ = "games"
    __table_args__ = (
        # A player's games, newest first: the game to resume and Your games.
        Index("ix_games_owner_updated_at", "owner", "updated_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the owner's cookie token: a leaked database gives no one a cookie."""
    seed: Mapped[int] = mapped_column(BigInteger)
    partner_level: Mapped[str] = mapped_column(String(32))
    opponent_level: Mapped[str] = mapped_column(String(32))
    """West's and East's level: one name, or "west/east" when they differ (the
    record's players name each seat's level)."""
    undo: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether South may take back its last bid or card (on unless turned off)."""
    seating: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A game played with friends: its seats (a person's display name and the hash
    of the seat's secret, or a bot level), the host's hash and the table's
    settings; null for a game one person plays against bots."""
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The ``spades-record/1`` record: rules, seed, players, every deal, bid and card."""
    hand_number: Mapped[int] = mapped_column(Integer)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    winner: Mapped[str | None] = mapped_column(String(2), nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Bumped on every save; a save from a stale copy (another tab) is refused."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableSeatRow(Base):
    """A seat at a table with friends that a player (an owner cookie) took: the
    link from the player, known by their owner cookie, to the seat, known at the
    table by its own secret. Their statistics count the table's game from this
    seat. One row a player and table: a player holds one seat at a table."""

    __tablename__ = "table_seats"
    __table_args__ = (
        # A player's seats, for their statistics.
        Index("ix_table_seats_owner", "owner"),
    )

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the player's owner cookie, as ``games.owner`` keeps it."""
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The table's game (its ``games`` row, owned by ``table``)."""
    seat: Mapped[str] = mapped_column(String(1))
    """The seat's letter: N, E, S or W."""
    taken_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


CHANGE_ID: Final = BigInteger().with_variant(Integer, "sqlite")
"""64 bits on PostgreSQL (a busy site writes billions of changes over the
years); SQLite's rowid is 64 bits already, and numbers only an INTEGER key."""


class TableChangeRow(Base):
    """One change to a table with friends, for the other server processes: each
    pushes it to the sockets it holds (``server/tables/table_feed.py``). A short log:
    the oldest rows are pruned as new ones come."""

    __tablename__ = "table_changes"

    id: Mapped[int] = mapped_column(CHANGE_ID, primary_key=True, autoincrement=True)
    """Rising: a process reads the rows after the last one it has heard."""
    game_id: Mapped[str] = mapped_column(String(32))
    """The table's game; empty in a row that only says its origin is alive."""
    origin: Mapped[str] = mapped_column(String(32))
    """The process that made the change (it has pushed it to its own sockets)."""
    log_length: Mapped[int] = mapped_column(Integer)
    """The game's log count once the change was saved."""
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    """The public events the change made (the last ``len(events)`` of the log),
    as the sockets are sent them; empty for a seat joining, leaving or coming back."""
    connected: Mapped[list[str]] = mapped_column(JSON)
    """The seats (letters) whose sockets the origin process held just then."""
    reaction: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """A quick reaction to pass on to every socket as it was sent, or null."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class HandReviewRow(Base):
    """The review of a finished hand, computed once for every process that asks
    (``server/records/reviews.py``): claimed while one process computes it."""

    __tablename__ = "hand_reviews"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True)
    status: Mapped[str] = mapped_column(String(16))
    """``analysing`` while claimed, then ``ready`` or ``failed``."""
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    """The review as the API returns it, once there is one."""
    claimed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """When a process took the work: a claim far older than a review takes
    belongs to a process that died, and another may take it over."""


# ------------------------------------------------------------ the daily challenge


class ChallengeDayRow(Base):
    """One day of the daily challenge (``spades.challenge``): its secret seed,
    committed to before the day starts and revealed once it is over."""

    __tablename__ = "challenge_days"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    """The UTC date, ``YYYY-MM-DD``."""
    seed: Mapped[int] = mapped_column(BigInteger)
    salt: Mapped[str] = mapped_column(String(32))
    commitment: Mapped[str] = mapped_column(String(64))
    """SHA-256 of ``"<seed>:<salt>"``: shown from the day before; the seed and
    salt are shown once the day is over."""
    deals: Mapped[int] = mapped_column(Integer)
    level: Mapped[str] = mapped_column(String(32))
    """The level of the bots at the other seats, and of the par play at South."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengePlayerRow(Base):
    """A challenge player: no account, the owner cookie's hash and a display name."""

    __tablename__ = "challenge_players"

    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengePlayRow(Base):
    """One player's play of one deal of a day: one row per (day, owner, deal),
    so a player enters each deal once."""

    __tablename__ = "challenge_plays"
    __table_args__ = (
        # The field on a deal: every finished result of (day, deal).
        Index("ix_challenge_plays_day_deal", "day", "deal"),
        # A player's history, newest first.
        Index("ix_challenge_plays_owner_day", "owner", "day"),
        Index("ix_challenge_plays_id", "id", unique=True),
    )

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    id: Mapped[str] = mapped_column(String(32))
    """A random id: the hand review of the play is kept under it."""
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The ``spades-record/1`` record of the one-hand game."""
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    score: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """North-South's score for the hand, once it is over."""
    bid: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """South's bid (Nil is 0), once made."""
    tricks: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """North-South's tricks, once the hand is over."""
    version: Mapped[int] = mapped_column(Integer, default=1)
    """Bumped on every save; a save from a stale copy (another tab) is refused."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChallengeParRow(Base):
    """The par of a deal: the day's bots playing all four seats, South's too."""

    __tablename__ = "challenge_pars"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    score: Mapped[int] = mapped_column(Integer)
    bid: Mapped[int] = mapped_column(Integer)
    tricks: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RateBucketRow(Base):
    """One token bucket of the server's limits (``server/http/rates.py``), kept
    here so that every server process over the database counts one client's
    requests together (``rate_buckets.py``). A bucket idle for a minute is full
    again, as good as none: such rows are pruned."""

    __tablename__ = "rate_buckets"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    """What is counted: ``games`` (per player), ``games-from`` (per address)..."""
    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    """Whose: a player's owner key, or a client address (an IPv6 one by its /64)."""
    tokens: Mapped[float] = mapped_column(Float)
    """Requests the bucket still allows, as of ``counted_at``."""
    counted_at: Mapped[float] = mapped_column(Float)
    """When ``tokens`` was counted, in seconds since the epoch (every process's clock)."""
