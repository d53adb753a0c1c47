"""The gauntlet: one player against every stranger, in duplicate deals and in
full games, summed up in one table.

The strangers (``spades.bots.strangers``) share no code, tables or tuning with
the project's own bots, so they measure what self-play cannot: a bot tuned
only against its siblings can look strong and lose to the first outsider.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from .match import (
    SIDE_NAMES,
    DealResult,
    GameResult,
    MatchSetup,
    Runner,
    run_duplicate,
    run_games,
)
from .players import PlayerSpec
from .report import DuplicateReport, GamesReport
from .stats import SideTally

Feed = Callable[[Iterator[Any], Callable[[Any], None], str, int], None]
"""How a caller takes a match's results one by one (to show progress): it is
given the results, the function that counts one, a label and the count."""


@dataclass(frozen=True, slots=True)
class Gauntlet:
    """``setup.a`` against each of ``opponents``: ``deals`` duplicate deals and
    ``games`` full games each (either may be 0)."""

    setup: MatchSetup
    opponents: tuple[PlayerSpec, ...]
    deals: int
    games: int


def run_gauntlet(
    gauntlet: Gauntlet,
    *,
    workers: int = 1,
    feed: Feed | None = None,
    runner: Runner | None = None,
) -> dict[str, Any]:
    """Play the gauntlet and return its JSON-ready summary: one entry per
    opponent with its duplicate and games summaries (as ``spades arena`` gives them)."""
    take: Feed = feed or _take_all
    rows = []
    for opponent in gauntlet.opponents:
        setup = replace(gauntlet.setup, b=opponent)
        row: dict[str, Any] = {"opponent": opponent.text}
        # Each side's bidding record and decision times over every hand it
        # played against this opponent, duplicate tables and games alike.
        sides = (SideTally(), SideTally())
        if gauntlet.deals:
            duplicate = DuplicateReport(setup)
            results: Iterator[DealResult] = run_duplicate(
                setup, gauntlet.deals, workers=workers, runner=runner
            )
            take(results, duplicate.add, f"{opponent.text}: deals", gauntlet.deals)
            row["duplicate"] = duplicate.summary()
            _add_tallies(sides, duplicate.tallies)
        if gauntlet.games:
            games = GamesReport(setup)
            played: Iterator[GameResult] = run_games(
                setup, gauntlet.games, workers=workers, runner=runner
            )
            take(played, games.add, f"{opponent.text}: games", gauntlet.games)
            row["games"] = games.summary()
            _add_tallies(sides, games.tallies)
        row["sides"] = {
            name: tally.to_dict() for name, tally in zip(SIDE_NAMES, sides, strict=True)
        }
        rows.append(row)
    return {
        "mode": "gauntlet",
        "seed": gauntlet.setup.seed,
        "player": gauntlet.setup.a.text,
        "deals": gauntlet.deals,
        "games": gauntlet.games,
        "opponents": rows,
    }


def _add_tallies(sums: tuple[SideTally, SideTally], more: tuple[SideTally, SideTally]) -> None:
    for total, tally in zip(sums, more, strict=True):
        total.add(tally)


def _take_all(results: Iterator[Any], add: Callable[[Any], None], label: str, count: int) -> None:
    for result in results:
        add(result)
