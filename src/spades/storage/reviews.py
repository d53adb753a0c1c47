"""Hand reviews kept in the database: computed once, whichever process is asked.

A review takes seconds of a process's work. The first server process asked for
a hand claims it (a row with status ``analysing``), computes it and writes the
result in the row; every process asked meanwhile sees the claim and answers
"analysing", and every one asked afterwards reads the result. A claim older
than ``stale_after`` seconds is a process that died on it: the next to ask
takes it over.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy import Engine, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from .models import Base, HandReviewRow

ANALYSING: Final = "analysing"


@dataclass(frozen=True, slots=True)
class KeptReview:
    status: str
    review: dict[str, Any] | None


class ReviewStore:
    """The ``hand_reviews`` rows, over the repository's engine."""

    def __init__(self, engine: Engine, writing: Callable[[], AbstractContextManager[Any]]) -> None:
        self.engine = engine
        self._writing = writing

    def get(self, game_id: str, hand: int) -> KeptReview | None:
        with self.engine.connect() as connection:
            row = connection.execute(_GET, {"this_game": game_id, "this_hand": hand}).one_or_none()
        return None if row is None else KeptReview(row.status, row.review)

    def claim(self, game_id: str, hand: int, *, stale_after: float, claimed: bool) -> bool:
        """Take the work of reviewing the hand: True for the one caller that gets
        it (no one had, or the claim went stale), False for the others.
        ``claimed``: the caller has read a claim already (only a stale one may be taken)."""
        now = datetime.now(UTC)
        if not claimed:
            try:
                with self._writing(), self.engine.begin() as connection:
                    values = {"game_id": game_id, "hand": hand, "claimed_at": now}
                    connection.execute(_CLAIM, values)
                return True
            except IntegrityError:  # claimed meanwhile, or done
                pass
        with self._writing(), self.engine.begin() as connection:
            taken = connection.execute(
                _TAKE_OVER,
                {
                    "this_game": game_id,
                    "this_hand": hand,
                    "new_claimed_at": now,
                    "stale_before": now - timedelta(seconds=stale_after),
                },
            )
            return taken.rowcount == 1

    def finish(self, game_id: str, hand: int, status: str, review: dict[str, Any]) -> None:
        """Write the claimed hand's review (``ready``) or why there is none (``failed``)."""
        values = {
            "this_game": game_id,
            "this_hand": hand,
            "new_status": status,
            "new_review": review,
        }
        with self._writing(), self.engine.begin() as connection:
            connection.execute(_FINISH, values)

    def release(self, game_id: str, hand: int) -> None:
        """Give a claim up unfinished (the work is to be started again)."""
        with self._writing(), self.engine.begin() as connection:
            connection.execute(_RELEASE, {"this_game": game_id, "this_hand": hand})


_REVIEWS: Final = Base.metadata.tables[HandReviewRow.__tablename__]
# The key's parameters are not named after its columns: an UPDATE reserves those names.
_THIS: Final = (_REVIEWS.c.game_id == bindparam("this_game")) & (
    _REVIEWS.c.hand == bindparam("this_hand")
)
_GET: Final = select(_REVIEWS.c.status, _REVIEWS.c.review).where(_THIS)
_CLAIM: Final = insert(_REVIEWS).values(status=ANALYSING, review=None)
_TAKE_OVER: Final = (
    update(_REVIEWS)
    .where(
        _THIS,
        _REVIEWS.c.status == ANALYSING,
        _REVIEWS.c.claimed_at < bindparam("stale_before"),
    )
    .values(claimed_at=bindparam("new_claimed_at"))
)
_FINISH: Final = (
    update(_REVIEWS)
    .where(_THIS)
    .values(
        status=bindparam("new_status"),
        review=bindparam("new_review", type_=_REVIEWS.c.review.type),
    )
)
_RELEASE: Final = delete(_REVIEWS).where(_THIS, _REVIEWS.c.status == ANALYSING)
