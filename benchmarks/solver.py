"""How fast the double-dummy solver is. Run by hand (after ``make build/.compiled``):

    .venv/bin/python benchmarks/solver.py [--deals 100] [--games 20] [--skip-interpreted]
        [--sizes 13,10] [--baseline /path/to/dds.so-or.py [--reference]] [--every-card] [--nil]

Part 1, solving: random deals are played with random legal cards to the start
of a trick with 13, 10, 7 and 5 tricks left, and ``Solver.tricks`` (a fresh
solver each time: nothing learnt is carried over) finds the exact count for
the side to lead ("best score"). ``--every-card`` also times
``Solver.card_tricks`` (the count after each legal card), ``--nil`` whether the
leader's Nil holds (``Solver.nil_holds``). Each row gives the median, 90th
percentile and worst time and the median number of cards tried. Times are the
process's CPU time: on a machine shared with other work, wall time would count
the others' too.

The same positions are solved by the C kernel (``_kernel.c``, when built), by
``dds.py``'s own search compiled by mypyc (``Solver(native=False)``, the
reference) and by that source interpreted; or, with ``--baseline``, by another
build of the solver (a copy of an older ``dds.py``, compiled or not, whose
``Solver`` has the same API) and the kernel, and with ``--reference`` the
mypyc build too. They take turns on each position, so they see the same
machine load, and the last column gives how many times faster than the first
one's median each median is.

Part 2, reviewing: ``analyze_hand`` (every play of a hand from trick 1, Nil
and contract questions included, within its default search limits) over the
hands of ``--games`` seeded games between built-in bots: the median CPU time
a hand, as a web view calling it per hand would see it on an idle machine.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
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


Maker = Callable[[], object]
"""A fresh solver of one of the builds compared."""


def load_source() -> ModuleType:
    """``spades.solver.dds`` loaded from its .py file, bypassing the compiled module."""
    return load_file(Path(spades.solver.__file__).parent / "dds.py", "spades.solver._bench_dds")


def load_file(path: Path, name: str | None = None) -> ModuleType:
    """A solver module from a file: a ``.py`` source, or an extension built from
    one (whose module name is the file's stem up to the first dot)."""
    if name is None:
        name = path.name.split(".")[0]
    loader: importlib.abc.Loader | None = None
    if path.suffix != ".py":
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    if path.suffix == ".py" and name.startswith("spades.solver."):
        module.__package__ = "spades.solver"
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


Question = Callable[[object, HandState], None]
"""One question asked of a fresh ``Solver`` about a position."""


def best_score(solver: object, state: HandState) -> None:
    solver.tricks(state, 0b0101 << (state.turn & 1))  # type: ignore[attr-defined]


def every_card(solver: object, state: HandState) -> None:
    solver.card_tricks(state, 0b0101 << (state.turn & 1))  # type: ignore[attr-defined]


def leaders_nil(solver: object, state: HandState) -> None:
    solver.nil_holds(state, state.turn)  # type: ignore[attr-defined]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def time_question(
    modules: list[tuple[str, Maker]], positions: list[HandState], question: Question
) -> list[tuple[list[float], list[int]]]:
    """Seconds and cards tried for each build on each position, the builds
    taking turns position by position (so they share the machine's load)."""
    results: list[tuple[list[float], list[int]]] = [([], []) for _ in modules]
    for state in positions:
        for (_, make), (times, nodes) in zip(modules, results, strict=True):
            solver = make()
            start = time.process_time()
            question(solver, state)
            times.append(time.process_time() - start)
            nodes.append(solver.nodes)
    return results


def milliseconds(seconds: float) -> str:
    if seconds < 0.001:
        return f"{seconds * 1000:9.2f} ms"
    return f"{seconds * 1000:9.1f} ms" if seconds < 10 else f"{seconds:10.1f} s"


def solve_table(
    deals: int,
    sizes: list[int],
    modules: list[tuple[str, Maker]],
    questions: list[tuple[str, Question]],
    nil_sizes: list[int],
) -> None:
    print(f"Solving from a trick start, {deals} random deals each (one fresh solver a question):")
    print(
        f"  {'tricks':>6} {'question':10} {'module':12} {'median':>12} {'p90':>12} "
        f"{'worst':>12} {'cards tried':>12} {'faster':>6}"
    )
    for left in sizes:
        rng = random.Random(1000 + left)
        positions = [random_position(rng, left) for _ in range(deals)]
        for label, question in questions:
            if question is leaders_nil and left not in nil_sizes:
                continue
            results = time_question(modules, positions, question)
            first = statistics.median(results[0][0])
            for (name, _), (times, nodes) in zip(modules, results, strict=True):
                median = statistics.median(times)
                print(
                    f"  {left:>6} {label:10} {name:12} {milliseconds(median)} "
                    f"{milliseconds(percentile(times, 0.9))} {milliseconds(max(times))} "
                    f"{statistics.median(nodes):>12,.0f} {first / median:5.1f}x",
                    flush=True,
                )


def review_times(games: int, bot: str) -> None:
    times = []
    unjudged = plays = nils = nils_from_start = 0
    for seed in range(games):
        game = play_game(seat_bots(dict.fromkeys(SEATS, bot), seed), seed=seed)
        for number, scored in enumerate(game.history, start=1):
            start = time.process_time()  # CPU time, as in part 1: the machine may be shared
            review = analyze_hand(scored.state, number=number)
            times.append(time.process_time() - start)
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
        "--sizes", default=",".join(map(str, TRICKS_LEFT)), help="tricks left, comma-separated"
    )
    parser.add_argument(
        "--games", type=int, default=20, help="games for the review timing (0: skip)"
    )
    parser.add_argument(
        "--skip-interpreted", action="store_true", help="time the compiled module only"
    )
    parser.add_argument(
        "--baseline", type=Path, help="another dds module file to compare with (first column)"
    )
    parser.add_argument(
        "--reference", action="store_true", help="with --baseline: also time dds.py's own search"
    )
    parser.add_argument("--every-card", action="store_true", help="also time card_tricks")
    parser.add_argument("--nil", action="store_true", help="also time nil_holds for the leader")
    parser.add_argument(
        "--nil-sizes", default="10,7,5", help="tricks left for --nil (from trick 1 it is slow)"
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f}")
    compiled = not str(compiled_dds.__file__).endswith(".py")
    python = "mypyc" if compiled else "interpreted"
    modules: list[tuple[str, Maker]] = []
    if args.baseline is not None:
        baseline = load_file(args.baseline)
        modules.append(("baseline", baseline.Solver))
    if compiled_dds.Solver().kernel is not None:
        modules.append(("C kernel", compiled_dds.Solver))
    if args.baseline is None or args.reference or not modules[1:]:
        modules.append((python, lambda: compiled_dds.Solver(native=False)))
    if args.baseline is None and compiled and not args.skip_interpreted:
        source = load_source()
        modules.append(("interpreted", lambda: source.Solver(native=False)))
    questions: list[tuple[str, Question]] = [("best", best_score)]
    if args.every_card:
        questions.append(("every card", every_card))
    if args.nil:
        questions.append(("Nil", leaders_nil))
    if args.deals > 0:
        sizes = [int(size) for size in args.sizes.split(",")]
        nil_sizes = [int(size) for size in args.nil_sizes.split(",")]
        solve_table(args.deals, sizes, modules, questions, nil_sizes)
    if args.games:
        print(f"Reviewing whole hands (analyze_hand), {args.games} seeded games:")
        for bot in ("normal", "random"):
            review_times(args.games, bot)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
