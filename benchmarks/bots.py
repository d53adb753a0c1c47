"""How the built-in bots play, and how long they think. Run by hand:

    .venv/bin/python benchmarks/bots.py [--hands 10000] [--against random] [--seed 0]
                                        [--levels hard,expert --search-hands 12 --processes 2]

Every level in ``BOT_LEVELS`` is measured (a level added later is picked up
without touching this file; ``--levels`` picks some). Each plays seeded full
games through the referee, all four seats by default, or one partnership
against ``--against`` (seats swapping every game), until ``--hands`` hands are
done. For each level it prints:

* forfeits: illegal bids or cards (or failures), which must be 0;
* the time of each decision, measured around the bot's own ``bid``/``play``
  call only: median and 95th percentile, bids and cards apart;
* how it bids: set rate, Nil success, bags per hand, mean table bid.

Exits with status 1 when any level forfeited.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from spades.arena.match import a_team_of_game, derive_seed, tally_game
from spades.arena.referee import play_game
from spades.arena.stats import SideTally, share
from spades.arena.timing import TimedBot, Timings
from spades.bots import BOT_LEVELS, SEARCH_LEVELS, Bot, make_bot
from spades.core import SEATS, Seat, team_of


@dataclass
class LevelResult:
    level: str
    games: int = 0
    hands: int = 0
    forfeits: list[str] = field(default_factory=list)
    timings: Timings = field(default_factory=Timings)
    tally: SideTally = field(default_factory=SideTally)


def measure(
    level: str, hands: int, against: str | None, seed: int, processes: int = 1
) -> LevelResult:
    """Play games of ``level`` until ``hands`` hands are done (``processes``
    per search decision, see ``make_bot``)."""
    result = LevelResult(level)
    while result.hands < hands:
        game_seed = derive_seed(seed, level, "game", result.games)
        # The measured level sits at a_team; against itself that is every seat.
        a_team = a_team_of_game(result.games)
        bots: dict[Seat, Bot] = {}
        for seat in SEATS:
            measured = against is None or team_of(seat) == a_team
            bot = make_bot(
                level if measured else str(against),
                derive_seed(game_seed, seat),
                processes=processes,
            )
            bots[seat] = TimedBot(bot, result.timings) if measured else bot
        game = play_game(bots, seed=game_seed)
        for bot in bots.values():
            bot.close()
        result.games += 1
        result.hands += len(game.history)
        tallies = tally_game(game, a_team)
        result.tally.add(tallies[0])
        if against is None:
            result.tally.add(tallies[1])
        if game.forfeited_by is not None:
            result.forfeits.append(f"game seed {game_seed}: {game.forfeited_by[1]}")
    return result


def microseconds(samples: Sequence[int], quantile: float) -> str:
    """The ``quantile`` (0.5, 0.95) of ``samples`` in ns, shown in microseconds."""
    if not samples:
        return "-"
    if quantile == 0.5:
        value = statistics.median(samples)
    else:
        value = statistics.quantiles(samples, n=100, method="inclusive")[round(quantile * 100) - 1]
    return f"{value / 1e3:,.1f}"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def report(result: LevelResult) -> str:
    tally, timings = result.tally, result.timings
    return (
        f"{result.level:>10} {result.games:>6} {result.hands:>7} {len(result.forfeits):>8} "
        f"{microseconds(timings.bids, 0.5):>10} {microseconds(timings.bids, 0.95):>10} "
        f"{microseconds(timings.cards, 0.5):>10} {microseconds(timings.cards, 0.95):>10} "
        f"{percent(share(tally.sets, tally.contracts)):>8} "
        f"{percent(share(tally.nils_made, tally.nil_bids)):>8} "
        f"{(share(tally.bags, tally.hands) or 0):>9.2f} "
        f"{(share(tally.table_bid, tally.hands) or 0):>9.2f}"
    )


HEADER = (
    f"{'level':>10} {'games':>6} {'hands':>7} {'forfeits':>8} "
    f"{'bid p50':>10} {'bid p95':>10} {'card p50':>10} {'card p95':>10} "
    f"{'set rate':>8} {'Nil made':>8} {'bags/hand':>9} {'table bid':>9}"
)


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=10_000, help="hands per level")
    parser.add_argument(
        "--search-hands",
        type=int,
        default=100,
        help="hands for the search levels (hard, expert), which think for tenths of a second a move",
    )
    parser.add_argument("--seed", type=int, default=0, help="master seed")
    parser.add_argument(
        "--against",
        choices=list(BOT_LEVELS),
        default=None,
        help="opponents for each level (default: the level plays all four seats)",
    )
    parser.add_argument(
        "--levels",
        default=",".join(BOT_LEVELS),
        help=f"comma-separated levels to measure (default: all of {', '.join(BOT_LEVELS)})",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="processes each search decision is spread over (2: as in the web game on 2 cores)",
    )
    arguments = parser.parse_args()
    if arguments.processes < 1:
        parser.error("--processes must be at least 1")
    arguments.levels = [level.strip() for level in arguments.levels.split(",") if level.strip()]
    unknown = [level for level in arguments.levels if level not in BOT_LEVELS]
    if unknown:
        parser.error(f"unknown level(s) {', '.join(unknown)} (known: {', '.join(BOT_LEVELS)})")
    return arguments


def main() -> int:
    arguments = parse_arguments()
    opponents = "itself at all four seats" if arguments.against is None else arguments.against
    print(
        f"Python {sys.version.split()[0]}: each level against {opponents}, "
        f"{arguments.hands:,} hands ({arguments.search_hands:,} for search levels), "
        f"seed {arguments.seed}, {arguments.processes} process(es) a search decision; "
        "decision times in microseconds"
    )
    print(HEADER)
    failed = []
    for level in arguments.levels:
        hands = arguments.search_hands if level in SEARCH_LEVELS else arguments.hands
        result = measure(level, hands, arguments.against, arguments.seed, arguments.processes)
        print(report(result), flush=True)
        if result.forfeits:
            failed.append(result)
    for result in failed:
        print(f"\n{result.level} forfeited {len(result.forfeits)} time(s), e.g.:")
        for reason in result.forfeits[:5]:
            print(f"  {reason}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
