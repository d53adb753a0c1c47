"""How fast the double-dummy solver is. Run by hand (after ``make build/.compiled``):

    .venv/bin/python benchmarks/solver.py [--deals 100] [--games 20] [--skip-interpreted]

Part 1, solving: random deals are played with random legal cards to the start
of a trick with 13, 10, 7 and 5 tricks left, and ``Solver.tricks`` (a fresh
solver each time: nothing learnt is carried over) finds the exact count for
the side to lead. The same positions are solved by the compiled module and by
its source interpreted; the table gives the median and the worst time, and the
median number of cards tried. Targets: under 20 ms median at 7 tricks left,
under 0.5 s median for a whole deal (13 tricks).

Part 2, reviewing: ``analyze_hand`` (every play of a hand from trick 1, Nil
and contract questions included, within its default search limits) over the
hands of ``--games`` seeded games between built-in bots: the median time a
hand, as a web view calling it per hand would see it.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

import spades.solver
from spades.analysis import analyze_hand
from spades.arena import play_game, seat_bots
from spades.core import SEATS
from spades.core.hand import HandState
from spades.solver import dds as compiled_dds
from spades.solver.position import random_position

TRICKS_LEFT = (13, 10, 7, 5)


def load_source() -> ModuleType:
    """``spades.solver.dds`` loaded from its .py file, bypassing the compiled module."""
    path = Path(spades.solver.__file__).parent / "dds.py"
    spec = importlib.util.spec_from_file_location("spades.solver._bench_dds", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "spades.solver"
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def time_solves(module: ModuleType, positions: list[HandState]) -> tuple[float, float, float]:
    """Median seconds, worst seconds and median cards tried over ``positions``."""
    times = []
    nodes = []
    for state in positions:
        solver = module.Solver()
        start = time.perf_counter()
        solver.tricks(state, 0b0101 << (state.turn & 1))
        times.append(time.perf_counter() - start)
        nodes.append(solver.nodes)
    return statistics.median(times), max(times), statistics.median(nodes)


def solve_table(deals: int, interpreted: bool) -> None:
    compiled = not str(compiled_dds.__file__).endswith(".py")
    modules = [("compiled" if compiled else "interpreted", compiled_dds)]
    if compiled and interpreted:
        modules.append(("interpreted", load_source()))
    print(f"Solving from a trick start, {deals} random deals each (one fresh solver a deal):")
    print(f"  {'tricks left':>11}  {'module':12} {'median':>10} {'worst':>10} {'cards tried':>12}")
    for left in TRICKS_LEFT:
        rng = random.Random(1000 + left)
        positions = [random_position(rng, left) for _ in range(deals)]
        for name, module in modules:
            median, worst, nodes = time_solves(module, positions)
            print(
                f"  {left:>11}  {name:12} {median * 1000:8.1f} ms {worst * 1000:8.0f} ms "
                f"{nodes:>12,.0f}",
                flush=True,
            )


def review_times(games: int, bot: str) -> None:
    times = []
    unjudged = plays = nils = nils_from_start = 0
    for seed in range(games):
        game = play_game(seat_bots(dict.fromkeys(SEATS, bot), seed), seed=seed)
        for number, scored in enumerate(game.history, start=1):
            review = analyze_hand(scored.state, number=number)
            times.append(review.seconds)
            plays += len(review.plays)
            unjudged += review.unjudged
            nils += review.bids.count(0)
            nils_from_start += sum(1 for _, trick in review.nil_from if trick == 1)
    times.sort()
    print(
        f"  {bot:>7} bots: {len(times)} hands, median {statistics.median(times):.2f} s, "
        f"90th percentile {times[int(0.9 * len(times))]:.2f} s, worst {times[-1]:.2f} s; "
        f"{unjudged} of {plays} plays unjudged; "
        f"{nils_from_start} of {nils} Nil bids judged from trick 1",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=100, help="positions per row (0: skip)")
    parser.add_argument(
        "--games", type=int, default=20, help="games for the review timing (0: skip)"
    )
    parser.add_argument(
        "--skip-interpreted", action="store_true", help="time the compiled module only"
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}")
    if args.deals > 0:
        solve_table(args.deals, not args.skip_interpreted)
    if args.games:
        print(f"Reviewing whole hands (analyze_hand), {args.games} seeded games:")
        for bot in ("normal", "random"):
            review_times(args.games, bot)


if __name__ == "__main__":
    main()
