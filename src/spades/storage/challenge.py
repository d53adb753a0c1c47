"""The daily challenge's rows: its days, players, plays and pars.

Each query that reads or writes a player's play filters by the owner (the hash
of their cookie token) as well as the day and deal: a play is reached only by
its player. A play's row carries a version that every save checks and bumps
in the same UPDATE, as a game's does, so two tabs (or two server processes)
acting on one deal keep one move and refuse the other.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Final

from sqlalchemy import Engine, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from .models import Base, ChallengeDayRow, ChallengeParRow, ChallengePlayerRow, ChallengePlayRow

PLAY_ID_BYTES: Final = 12


class PlayTaken(Exception):
    """The play was started already (another tab, another process)."""


class StalePlay(Exception):
    """The play was changed by another request since it was loaded."""


@dataclass(frozen=True, slots=True)
class KeptDay:
    day: date
    seed: int
    salt: str
    commitment: str
    deals: int
    level: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class KeptPlay:
    """A player's play of a deal, as stored (its record not yet re-played)."""

    id: str
    day: date
    owner: str
    deal: int
    record: dict[str, Any]
    finished: bool
    score: int | None
    bid: int | None
    tricks: int | None
    version: int


@dataclass(frozen=True, slots=True)
class FieldResult:
    """A finished result on a deal, with its player's display name."""

    day: date
    deal: int
    owner: str
    name: str
    score: int
    bid: int | None
    tricks: int | None


@dataclass(frozen=True, slots=True)
class KeptPar:
    deal: int
    record: dict[str, Any]
    score: int
    bid: int
    tricks: int


class ChallengeStore:
    """The challenge tables, over the repository's engine and write turns."""

    def __init__(self, engine: Engine, writing: Callable[[], AbstractContextManager[Any]]) -> None:
        self.engine = engine
        self._writing = writing

    # -------------------------------------------------------------------- days

    def day(self, day: date) -> KeptDay | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(_DAYS).where(_DAYS.c.day == day.isoformat())
            ).one_or_none()
        return None if row is None else _kept_day(row)

    def add_day(self, kept: KeptDay) -> KeptDay:
        """Keep a new day; if another process kept one first, that one stands."""
        values = {
            "day": kept.day.isoformat(),
            "seed": kept.seed,
            "salt": kept.salt,
            "commitment": kept.commitment,
            "deals": kept.deals,
            "level": kept.level,
            "created_at": kept.created_at,
        }
        try:
            with self._writing(), self.engine.begin() as connection:
                connection.execute(insert(_DAYS).values(values))
        except IntegrityError:
            pass
        stored = self.day(kept.day)
        assert stored is not None
        return stored

    # ----------------------------------------------------------------- players

    def name(self, owner: str) -> str | None:
        with self.engine.connect() as connection:
            found: str | None = connection.scalar(
                select(_PLAYERS.c.name).where(_PLAYERS.c.owner == owner)
            )
        return found

    def set_name(self, owner: str, name: str) -> None:
        now = datetime.now(UTC)
        with self._writing(), self.engine.begin() as connection:
            changed = connection.execute(
                update(_PLAYERS).where(_PLAYERS.c.owner == owner).values(name=name, updated_at=now)
            ).rowcount
            if changed == 0:
                connection.execute(
                    insert(_PLAYERS).values(owner=owner, name=name, created_at=now, updated_at=now)
                )

    # ------------------------------------------------------------------- plays

    def plays(self, day: date, owner: str) -> list[KeptPlay]:
        """``owner``'s plays of ``day``, by deal."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(_PLAYS)
                .where(_PLAYS.c.day == day.isoformat(), _PLAYS.c.owner == owner)
                .order_by(_PLAYS.c.deal)
            ).all()
        return [_kept_play(row) for row in rows]

    def play(self, day: date, owner: str, deal: int) -> KeptPlay | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(_PLAYS).where(
                    _PLAYS.c.day == day.isoformat(),
                    _PLAYS.c.owner == owner,
                    _PLAYS.c.deal == deal,
                )
            ).one_or_none()
        return None if row is None else _kept_play(row)

    def start_play(self, day: date, owner: str, deal: int, record: dict[str, Any]) -> KeptPlay:
        """Keep a new play; raises ``PlayTaken`` if the player has one of this deal."""
        now = datetime.now(UTC)
        values = {
            "day": day.isoformat(),
            "owner": owner,
            "deal": deal,
            "id": secrets.token_urlsafe(PLAY_ID_BYTES),
            "record": record,
            "finished": False,
            "version": 1,
            "started_at": now,
        }
        try:
            with self._writing(), self.engine.begin() as connection:
                connection.execute(insert(_PLAYS).values(values))
        except IntegrityError:
            raise PlayTaken(f"{owner} {day} {deal}") from None
        kept = self.play(day, owner, deal)
        assert kept is not None
        return kept

    def save_play(
        self,
        kept: KeptPlay,
        record: dict[str, Any],
        *,
        bid: int | None,
        result: tuple[int, int | None] | None,
    ) -> int:
        """Write the play back (``result``: the score and tricks once it is
        over); returns the new version. Raises ``StalePlay`` if the row changed
        since ``kept`` was read."""
        values = {
            "this_day": kept.day.isoformat(),
            "this_owner": kept.owner,
            "this_deal": kept.deal,
            "loaded_version": kept.version,
            "new_record": record,
            "new_bid": bid,
            "new_finished": result is not None,
            "new_score": None if result is None else result[0],
            "new_tricks": None if result is None else result[1],
            "new_finished_at": None if result is None else datetime.now(UTC),
        }
        with self._writing(), self.engine.begin() as connection:
            if connection.execute(_SAVE_PLAY, values).rowcount != 1:
                raise StalePlay(kept.id)
        return kept.version + 1

    def field(self, days: Iterable[date], deal: int | None = None) -> list[FieldResult]:
        """Every finished result of ``days`` (of one ``deal`` if given), with names."""
        texts = [day.isoformat() for day in days]
        query = (
            select(
                _PLAYS.c.day,
                _PLAYS.c.deal,
                _PLAYS.c.owner,
                _PLAYERS.c.name,
                _PLAYS.c.score,
                _PLAYS.c.bid,
                _PLAYS.c.tricks,
            )
            .join(_PLAYERS, _PLAYERS.c.owner == _PLAYS.c.owner)
            .where(_PLAYS.c.day.in_(texts), _PLAYS.c.finished.is_(True))
            .order_by(_PLAYS.c.day, _PLAYS.c.deal, _PLAYS.c.finished_at)
        )
        if deal is not None:
            query = query.where(_PLAYS.c.deal == deal)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            FieldResult(
                date.fromisoformat(row.day),
                row.deal,
                row.owner,
                row.name,
                row.score,
                row.bid,
                row.tricks,
            )
            for row in rows
        ]

    def days_played(self, owner: str) -> list[date]:
        """The days ``owner`` finished a deal of, newest first."""
        with self.engine.connect() as connection:
            texts = connection.scalars(
                select(_PLAYS.c.day)
                .where(_PLAYS.c.owner == owner, _PLAYS.c.finished.is_(True))
                .group_by(_PLAYS.c.day)
                .order_by(_PLAYS.c.day.desc())
            ).all()
        return [date.fromisoformat(text) for text in texts]

    # -------------------------------------------------------------------- pars

    def pars(self, day: date) -> dict[int, KeptPar]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(_PARS).where(_PARS.c.day == day.isoformat())).all()
        return {
            row.deal: KeptPar(row.deal, row.record, row.score, row.bid, row.tricks) for row in rows
        }

    def add_par(self, day: date, par: KeptPar) -> None:
        """Keep a deal's par; one kept already (by another process) stands."""
        values = {
            "day": day.isoformat(),
            "deal": par.deal,
            "record": par.record,
            "score": par.score,
            "bid": par.bid,
            "tricks": par.tricks,
            "created_at": datetime.now(UTC),
        }
        try:
            with self._writing(), self.engine.begin() as connection:
                connection.execute(insert(_PARS).values(values))
        except IntegrityError:
            pass


_DAYS: Final = Base.metadata.tables[ChallengeDayRow.__tablename__]
_PLAYERS: Final = Base.metadata.tables[ChallengePlayerRow.__tablename__]
_PLAYS: Final = Base.metadata.tables[ChallengePlayRow.__tablename__]
_PARS: Final = Base.metadata.tables[ChallengeParRow.__tablename__]
# The key's parameters are not named after its columns: an UPDATE reserves those names.
_SAVE_PLAY: Final = (
    update(_PLAYS)
    .where(
        _PLAYS.c.day == bindparam("this_day"),
        _PLAYS.c.owner == bindparam("this_owner"),
        _PLAYS.c.deal == bindparam("this_deal"),
        _PLAYS.c.version == bindparam("loaded_version"),
    )
    .values(
        {
            **{
                name: bindparam(f"new_{name}", type_=_PLAYS.c[name].type)
                for name in ("record", "bid", "finished", "score", "tricks", "finished_at")
            },
            "version": _PLAYS.c.version + 1,
        }
    )
)


def _kept_day(row: Any) -> KeptDay:
    created: datetime = row.created_at
    if created.tzinfo is None:  # SQLite keeps no time zone: it was written in UTC
        created = created.replace(tzinfo=UTC)
    return KeptDay(
        date.fromisoformat(row.day),
        row.seed,
        row.salt,
        row.commitment,
        row.deals,
        row.level,
        created,
    )


def _kept_play(row: Any) -> KeptPlay:
    return KeptPlay(
        row.id,
        date.fromisoformat(row.day),
        row.owner,
        row.deal,
        row.record,
        row.finished,
        row.score,
        row.bid,
        row.tricks,
        row.version,
    )
