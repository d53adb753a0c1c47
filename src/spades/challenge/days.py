"""The challenge's days: UTC dates, the clock they are read from, and each
day's committed seed.

A day is a UTC calendar date: it opens at 00:00 UTC and closes at the next
00:00 UTC, wherever the player is. Time is always asked of an injected clock
(``Clock``), never of the system directly, so a test says what day it is.

Each day deals from a secret seed drawn when the day is first needed, and
published from then on as a commitment (the SHA-256 of ``"<seed>:<salt>"``,
as the fair deals of ``core/seeding.py``); the server draws the next day's
too whenever it looks at one, so a day's commitment is shown before the day
starts. The seed and salt are revealed once the day has closed.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from spades.core import commitment
from spades.core.game import SEED_BITS
from spades.core.seeding import SALT_HEX_DIGITS

DEALS_PER_DAY: Final = 8
Clock = Callable[[], datetime]
"""The current instant, timezone-aware."""
_DAY_TEXT: Final = re.compile(r"\d{4}-\d{2}-\d{2}")


def utc_now() -> datetime:
    """The product's clock."""
    return datetime.now(UTC)


def day_of(instant: datetime) -> date:
    """The UTC date of ``instant`` (a naive instant is taken as UTC).

    >>> day_of(datetime(2026, 12, 5, 23, 59, tzinfo=UTC)).isoformat()
    '2026-12-05'
    >>> from datetime import timezone
    >>> day_of(datetime(2026, 12, 6, 1, 0, tzinfo=timezone(timedelta(hours=2)))).isoformat()
    '2026-12-05'
    """
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=UTC)
    return instant.astimezone(UTC).date()


def parse_day(text: str) -> date:
    """A day written ``YYYY-MM-DD``; raises ``ValueError`` saying what is wrong.

    >>> parse_day("2026-12-05")
    datetime.date(2026, 12, 5)
    >>> parse_day("2026-02-30")
    Traceback (most recent call last):
    ...
    ValueError: 2026-02-30 is not a date: day is out of range for month
    """
    if _DAY_TEXT.fullmatch(text) is None:
        raise ValueError("a day is written YYYY-MM-DD, like 2026-12-05")
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise ValueError(f"{text} is not a date: {error}") from None


def closes_at(day: date) -> datetime:
    """The instant ``day`` closes: the next midnight, UTC."""
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)


def week_of(day: date) -> list[date]:
    """The ISO week holding ``day``, Monday to Sunday.

    >>> [d.isoformat() for d in week_of(date(2026, 12, 5))][::6]
    ['2026-11-30', '2026-12-06']
    """
    monday = day - timedelta(days=day.weekday())
    return [monday + timedelta(days=offset) for offset in range(7)]


def draw_seed() -> tuple[int, str, str]:
    """A new secret seed, its salt, and the commitment to them."""
    seed = secrets.randbits(SEED_BITS)
    salt = secrets.token_hex(SALT_HEX_DIGITS // 2)
    return seed, salt, commitment(seed, salt)


def is_closed(day: date, now: datetime) -> bool:
    """Whether ``day`` is over at ``now``: no more play, and its seed is revealed."""
    return now >= closes_at(day)


def has_opened(day: date, now: datetime) -> bool:
    return day_of(now) >= day
