"""The leaderboards: a day's, and the week's running one.

A day's board ranks its players by their percentage (``scoring``: the mean of
their deals' matchpoint percentages), then by matchpoints; each line also
says how far above or below the par the player scored over their deals. The
week's board adds up each player's daily percentages over the ISO week
(Monday to Sunday, UTC), so a player who plays more days climbs it, and a
missed day counts nothing. Equal players share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from spades.storage.challenge import FieldResult

from .scoring import DealScore, deal_scores, matchpoints, mean_percent


@dataclass(frozen=True, slots=True)
class ScoredResult:
    """One player's result on one deal, scored against the field and the par."""

    result: FieldResult
    score: DealScore
    versus_par: int | None


def score_field(
    results: Iterable[FieldResult], pars: Mapping[tuple[date, int], int]
) -> list[ScoredResult]:
    """Every result scored against the others on its deal (the same day and
    deal) and against that deal's par, where it is known."""
    by_deal: dict[tuple[date, int], list[FieldResult]] = defaultdict(list)
    for result in results:
        by_deal[(result.day, result.deal)].append(result)
    scored: list[ScoredResult] = []
    for key, field in by_deal.items():
        scores = deal_scores({result.owner: result.score for result in field})
        par = pars.get(key)
        for result in field:
            versus = None if par is None else result.score - par
            scored.append(ScoredResult(result, scores[result.owner], versus))
    return scored


@dataclass(frozen=True, slots=True)
class DayLine:
    rank: int
    owner: str
    name: str
    deals: int
    matchpoints: float
    top: int
    percent: float | None
    versus_par: int
    """Points above (+) or below the par over the deals whose par is known."""


def day_board(scored: Sequence[ScoredResult]) -> list[DayLine]:
    """The players of one day, best first."""
    mine: dict[str, list[ScoredResult]] = defaultdict(list)
    for item in scored:
        mine[item.result.owner].append(item)
    lines = [
        (
            owner,
            items[-1].result.name,
            len(items),
            sum(item.score.matchpoints for item in items),
            sum(item.score.top for item in items),
            mean_percent(item.score.percent for item in items),
            sum(item.versus_par or 0 for item in items),
        )
        for owner, items in mine.items()
    ]
    lines.sort(key=lambda line: (-(line[5] if line[5] is not None else -1.0), -line[3], line[1]))
    return [
        DayLine(rank, *line)
        for rank, line in zip(_ranks([(line[5], line[3]) for line in lines]), lines, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class WeekLine:
    rank: int
    owner: str
    name: str
    days: int
    points: float
    """The sum of the player's daily percentages."""


def week_board(days: Iterable[Sequence[DayLine]]) -> list[WeekLine]:
    """The week's players, best first, from each day's board."""
    points: dict[str, float] = defaultdict(float)
    played: dict[str, int] = defaultdict(int)
    names: dict[str, str] = {}
    for board in days:
        for line in board:
            points[line.owner] += line.percent or 0.0
            played[line.owner] += 1
            names[line.owner] = line.name
    order = sorted(points, key=lambda owner: (-points[owner], names[owner]))
    ranks = _ranks([(round(points[owner], 9), 0) for owner in order])
    return [
        WeekLine(rank, owner, names[owner], played[owner], points[owner])
        for rank, owner in zip(ranks, order, strict=True)
    ]


def par_percent(field: Iterable[FieldResult], pars: Mapping[tuple[date, int], int]) -> float | None:
    """Where the par would stand among the players: its mean percentage on the
    deals, each scored as one more result against the players' results."""
    by_deal: dict[tuple[date, int], list[int]] = defaultdict(list)
    for result in field:
        by_deal[(result.day, result.deal)].append(result.score)
    percents = [
        100.0 * matchpoints(pars[key], scores) / len(scores)
        for key, scores in by_deal.items()
        if key in pars
    ]
    return mean_percent(percents)


def _ranks(keys: Sequence[tuple[float | None, float]]) -> list[int]:
    """Competition ranks (1, 1, 3) for keys already in order."""
    ranks: list[int] = []
    for index, key in enumerate(keys):
        ranks.append(ranks[-1] if index and keys[index - 1] == key else index + 1)
    return ranks
