"""Adding a match's results up into the summary the arena reports.

A summary is one JSON-ready dict: ``spades arena --json`` prints it as it is,
and the readable table is drawn from it, so the two never disagree.

>>> from .match import MatchSetup, run_games
>>> from .players import parse_player
>>> setup = MatchSetup(parse_player("random"), parse_player("random"), seed=3)
>>> report = GamesReport(setup)
>>> for result in run_games(setup, count=4):
...     report.add(result)
>>> summary = report.summary()
>>> summary["games"], sum(summary["wins"].values())
(4, 4)
"""

from __future__ import annotations

from typing import Any

from .match import SIDE_NAMES, DealResult, GameResult, MatchSetup
from .stats import Estimate, SideTally, mean_interval


class _Report:
    """What both kinds of match report: the players, the seed, each side's record."""

    mode = ""

    def __init__(self, setup: MatchSetup) -> None:
        self.setup = setup
        self.tallies = (SideTally(), SideTally())

    def _add_tallies(self, tallies: tuple[SideTally, SideTally]) -> None:
        for mine, theirs in zip(self.tallies, tallies, strict=True):
            mine.add(theirs)

    def _header(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "seed": self.setup.seed,
            "players": {"A": self.setup.a.text, "B": self.setup.b.text},
        }

    def _sides(self) -> dict[str, Any]:
        return {name: tally.to_dict() for name, tally in zip(SIDE_NAMES, self.tallies, strict=True)}


class GamesReport(_Report):
    """Full games: wins with Wilson intervals, and the mean final margin."""

    mode = "games"

    def __init__(self, setup: MatchSetup) -> None:
        super().__init__(setup)
        self.wins = [0, 0]
        self.margins: list[float] = []
        self.hands = 0

    def add(self, result: GameResult) -> None:
        self.wins[result.winner] += 1
        self.margins.append(result.margin)
        self.hands += result.hands
        self._add_tallies(result.tallies)

    def summary(self) -> dict[str, Any]:
        games = len(self.margins)
        return {
            **self._header(),
            "games": games,
            "hands": self.hands,
            "wins": dict(zip(SIDE_NAMES, self.wins, strict=True)),
            "win_rate": {
                name: Estimate.of_rate(wins, games).to_dict()
                for name, wins in zip(SIDE_NAMES, self.wins, strict=True)
            },
            "margin": mean_interval(self.margins).to_dict(),
            "sides": self._sides(),
        }


class DuplicateReport(_Report):
    """Duplicate deals: each side's points per deal, and A's edge over B, with t
    intervals over the deal pairs (each pair is one observation: the two tables
    of a deal share its cards, so they are not independent)."""

    mode = "duplicate"

    def __init__(self, setup: MatchSetup) -> None:
        super().__init__(setup)
        self.deals = 0
        self.a_points: list[float] = []
        self.b_points: list[float] = []
        self.a_adjusted: list[float] = []
        self.b_adjusted: list[float] = []

    def add(self, result: DealResult) -> None:
        self.deals += 1
        self._add_tallies(result.tallies)
        self.a_points.append(result.a_points)
        self.b_points.append(result.b_points)
        self.a_adjusted.append(result.a_adjusted)
        self.b_adjusted.append(result.b_adjusted)

    def summary(self) -> dict[str, Any]:
        differences = [a - b for a, b in zip(self.a_points, self.b_points, strict=True)]
        adjusted = [a - b for a, b in zip(self.a_adjusted, self.b_adjusted, strict=True)]
        return {
            **self._header(),
            "deals": self.deals,
            "points": {
                "A": mean_interval(self.a_points).to_dict(),
                "B": mean_interval(self.b_points).to_dict(),
            },
            "difference": mean_interval(differences).to_dict(),
            "points_bag_adjusted": {
                "A": mean_interval(self.a_adjusted).to_dict(),
                "B": mean_interval(self.b_adjusted).to_dict(),
            },
            "difference_bag_adjusted": mean_interval(adjusted).to_dict(),
            "sides": self._sides(),
        }
