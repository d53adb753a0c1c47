"""The limits' token buckets in the database, counted by every server process together.

Under ``spades serve --workers N``, or several servers over one SQLite file,
a client's connections land on whichever process accepts them: buckets kept in
each process's memory gave one client up to N times each limit. Here one row
a (kind, key) holds the tokens left and when they were counted, and a take is
one statement: an ``UPDATE`` that refills the bucket for the time since, and
spends a token only if it then holds one (a statement is atomic on both
databases, and on SQLite its write lock is taken before the row is read).

Every process counts time on its own clock, in seconds since the epoch (the
processes of one SQLite file share a machine; PostgreSQL's servers should keep
their clocks in step, as NTP does). A bucket never counts time backwards (a
row's ``counted_at`` only moves on), so a clock a little behind another's takes no
refill twice; one found more than ``CLOCK_SLACK`` ahead of the taker's clock
(a clock set back) is started afresh rather than left to refuse until the
clock catches up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Final

from sqlalchemy import (
    Engine,
    Float,
    Insert,
    String,
    and_,
    bindparam,
    case,
    delete,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from .models import Base, RateBucketRow

IDLE_SECONDS: Final = 60.0
"""A bucket untouched this long is full again (every limit refills its burst
within a minute): the same as no row, so such rows are pruned."""
CLOCK_SLACK: Final = 1.0
"""Seconds a row's time may be ahead of the taker's clock before the clock is
taken to have been set back."""
KEY_LENGTH: Final = 128
"""The longest key kept as it is; a longer one (a Unix socket's peer) by its hash."""
TRIES: Final = 3
"""Takes of one bucket tried in a row: a second only when another process
changed the row between two of this one's statements (PostgreSQL)."""


class RateBuckets:
    """The ``rate_buckets`` rows, over the repository's engine."""

    def __init__(self, engine: Engine, writing: Callable[[], AbstractContextManager[Any]]) -> None:
        self.engine = engine
        self._writing = writing
        self._create = _create_statement(engine.dialect.name)
        self._skip_disk_wait = engine.dialect.name == "postgresql"
        """A count lost in a crash costs nothing (a bucket full again), so on
        PostgreSQL a take does not wait for its commit to reach the disk: that
        wait was most of its time."""
        self._pruned_at = 0.0

    def take(self, kind: str, key: str, *, capacity: float, per_second: float, now: float) -> float:
        """Spend a token of ``key``'s ``kind`` bucket, which holds at most
        ``capacity`` (a new one is full) and gains ``per_second``, at ``now``
        (seconds since the epoch). Returns 0 if one was spent, else the seconds
        until the bucket holds one (and nothing is spent)."""
        values = {
            "bucket_kind": kind,
            "bucket_key": key
            if len(key) <= KEY_LENGTH
            else hashlib.sha256(key.encode()).hexdigest(),
            "capacity": capacity,
            "rate": per_second,
            "now": now,
        }
        with self._writing(), self.engine.begin() as connection:
            if self._skip_disk_wait:
                connection.execute(_NO_DISK_WAIT)
            if now - self._pruned_at > IDLE_SECONDS:
                self._pruned_at = now
                connection.execute(_PRUNE, {"oldest": now - IDLE_SECONDS})
            wait = 1 / per_second
            for _ in range(TRIES):
                if connection.execute(_SPEND, values).first() is not None:
                    return 0.0
                if connection.execute(self._create, values).first() is not None:
                    return 0.0  # a new bucket, full: the first token spent
                row = connection.execute(_READ, values).one_or_none()
                if row is None:
                    continue  # pruned between the two statements: make it anew
                tokens, counted_at = float(row.tokens), float(row.counted_at)
                if counted_at > now + CLOCK_SLACK:  # this clock was set back
                    connection.execute(_RESTART, values)
                    return 0.0
                tokens = min(capacity, tokens + max(0.0, now - counted_at) * per_second)
                wait = (1 - tokens) / per_second
                if wait > 0:
                    return wait
            return max(wait, 1 / per_second)  # changed under each try: refused this once


_BUCKETS: Final = Base.metadata.tables[RateBucketRow.__tablename__]
# Not named as the columns: SQLAlchemy keeps those names for an UPDATE's SET.
_KIND: Final = bindparam("bucket_kind", type_=String)
_KEY: Final = bindparam("bucket_key", type_=String)
_NOW: Final = bindparam("now", type_=Float)
_CAPACITY: Final = bindparam("capacity", type_=Float)
_RATE: Final = bindparam("rate", type_=Float)
_THIS: Final = and_(_BUCKETS.c.kind == _KIND, _BUCKETS.c.key == _KEY)
_ELAPSED: Final = case(
    (_BUCKETS.c.counted_at < _NOW, _NOW - _BUCKETS.c.counted_at), else_=literal(0.0)
)
_GROWN: Final = _BUCKETS.c.tokens + _ELAPSED * _RATE
_REFILLED: Final = case((_GROWN > _CAPACITY, _CAPACITY), else_=_GROWN)
_SPEND: Final = (
    update(_BUCKETS)
    .where(_THIS, _REFILLED >= 1)
    .values(
        tokens=_REFILLED - 1,
        counted_at=case((_BUCKETS.c.counted_at < _NOW, _NOW), else_=_BUCKETS.c.counted_at),
    )
    .returning(_BUCKETS.c.tokens)
)
_READ: Final = select(_BUCKETS.c.tokens, _BUCKETS.c.counted_at).where(_THIS)
_RESTART: Final = update(_BUCKETS).where(_THIS).values(tokens=_CAPACITY - 1, counted_at=_NOW)
_NO_DISK_WAIT: Final = text("SET LOCAL synchronous_commit TO OFF")
_PRUNE: Final = delete(_BUCKETS).where(_BUCKETS.c.counted_at < bindparam("oldest", type_=Float))


def _create_statement(dialect: str) -> Insert:
    """A new bucket, full but for the token it is made to spend, unless another
    process has just made it: each dialect says "unless" in its own words."""
    values = {"kind": _KIND, "key": _KEY, "tokens": _CAPACITY - 1, "counted_at": _NOW}
    made: Insert
    if dialect == "postgresql":
        made = postgresql.insert(_BUCKETS).values(values).on_conflict_do_nothing()
    else:
        made = sqlite.insert(_BUCKETS).values(values).on_conflict_do_nothing()
    # Its returned row says it was made (a row count is not reliable across drivers).
    return made.returning(_BUCKETS.c.tokens)
