"""A challenge service on a fresh database, its day read from a clock the test sets."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest

from spades.challenge import ChallengeService
from spades.session import InlineDecider
from spades.storage import GameRepository

LEVEL = "normal"
"""Quick and seeded: the same moves meet the same answers."""


@dataclass
class SetClock:
    """The challenge's clock: it reads ``now`` and moves only when a test moves it."""

    now: datetime

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> SetClock:
    return SetClock(datetime(2026, 12, 5, 9, 30, tzinfo=UTC))


@pytest.fixture
def repository(db_url: str) -> Iterator[GameRepository]:
    kept = GameRepository(db_url)
    yield kept
    kept.close()


@pytest.fixture
def service(repository: GameRepository, clock: SetClock) -> ChallengeService:
    return ChallengeService(
        repository.challenge,
        level=LEVEL,
        decide=InlineDecider(),
        clock=clock,
        run_in_background=lambda work: work(),  # the pars are played at once, here
    )
