"""The daily challenge: everyone plays the same deals and is scored against
everyone else who played them, as in a duplicate tournament.

Below the web and the terminal, with no web or terminal types: ``days`` (UTC
dates on an injected clock, each day's committed seed), ``deals`` (a day's
deals from its seed, each a one-hand game from 0-0, and their check against
the commitment), ``play`` (the bots' turns through ``spades.session`` and the
par, the bots at South too), ``scoring`` (matchpoints), ``leaderboard`` (the
day's and the week's), ``names`` (display names) and ``service`` (what a
player may do and see, when). How scoring works: docs/challenge.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .days import DEALS_PER_DAY, Clock, day_of, parse_day, utc_now, week_of
from .deals import deal_mark, verify_deal, verify_deal_record
from .scoring import DealScore, deal_scores, matchpoints

if TYPE_CHECKING:
    from .service import ChallengeRefused, ChallengeService, DealPlay, Refusal

_FROM_SERVICE = frozenset({"ChallengeRefused", "ChallengeService", "DealPlay", "Refusal"})


def __getattr__(name: str) -> Any:
    # The service stands on the database layer (SQLAlchemy and Alembic: a second
    # of imports). It is imported when first asked for, so a command that only
    # checks a deal (`spades replay`) or never sees the challenge (`spades arena`)
    # starts without it.
    if name in _FROM_SERVICE:
        from . import service

        return getattr(service, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEALS_PER_DAY",
    "ChallengeRefused",
    "ChallengeService",
    "Clock",
    "DealPlay",
    "DealScore",
    "Refusal",
    "day_of",
    "deal_mark",
    "deal_scores",
    "matchpoints",
    "parse_day",
    "utc_now",
    "verify_deal",
    "verify_deal_record",
    "week_of",
]
