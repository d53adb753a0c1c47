"""Scoring against the field: matchpoints, as duplicate bridge does.

On a deal, each result scores one matchpoint for every other result it beats
and half a point for every one it ties: with ``n`` results on a deal the best
scores ``n - 1`` (the top), and the points of all of them add up to
``n (n - 1) / 2``. A player's share of the top is their percentage on the
deal; a day's percentage is the mean of the player's deals' percentages (over
the deals someone else has played too: a lone result beats no one and loses
to no one, and is not counted).

Against the par (the day's bots playing South's seat on the same deal) a
result is shown as the points it scored above or below the par's.

>>> matchpoints(50, [40, 50, 60])
1.5
>>> [round(s.percent, 1) for s in deal_scores({"ann": 50, "bob": 40, "cy": 50}).values()]
[75.0, 0.0, 75.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

Key = TypeVar("Key")


def matchpoints(score: int, others: Iterable[int]) -> float:
    """One point for each of ``others`` that ``score`` beats, half for each it ties."""
    return sum(1.0 if score > other else 0.5 if score == other else 0.0 for other in others)


@dataclass(frozen=True, slots=True)
class DealScore:
    """One result's matchpoints on a deal."""

    matchpoints: float
    top: int
    """The most a result could score: the number of other results."""

    @property
    def percent(self) -> float | None:
        """The share of the top, in percent; ``None`` for a lone result."""
        return None if self.top == 0 else 100.0 * self.matchpoints / self.top


def deal_scores(results: Mapping[Key, int]) -> dict[Key, DealScore]:
    """Every result on a deal, scored against all the others."""
    scores = list(results.values())
    counts: dict[int, int] = {}
    for score in scores:
        counts[score] = counts.get(score, 0) + 1
    top = len(scores) - 1
    # Beaten and tied from the counts: a deal's field may be thousands of results.
    below: dict[int, int] = {}
    seen = 0
    for score in sorted(counts):
        below[score] = seen
        seen += counts[score]
    return {
        key: DealScore(below[score] + 0.5 * (counts[score] - 1), top)
        for key, score in results.items()
    }


def mean_percent(percents: Iterable[float | None]) -> float | None:
    """The mean of the percentages that exist; ``None`` if none does."""
    counted = [percent for percent in percents if percent is not None]
    return sum(counted) / len(counted) if counted else None
