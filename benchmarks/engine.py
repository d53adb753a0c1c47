"""How fast the engine plays uniformly random full hands. Run by hand:

    .venv/bin/python benchmarks/engine.py [--seconds 3]

A hand is: deal, four bids, 52 cards, scoring. It is timed three ways:

* checked:  HandState.bid/play (every rule verified), legal moves listed and one
            chosen with random.choice, as a server or a simple bot does;
* fast:     the unchecked path search uses (deal, random_playout, score_hand);
* both again on the interpreted source (what the engine costs without mypyc);

and, when ``open_spiel`` is importable (``pip install open-spiel``), OpenSpiel's
``spades`` driven the same way from Python, for comparison.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from interleaved import best_of_interleaved  # benchmarks/ is on the path when run

import spades.core
from spades.core import hand as compiled_hand
from spades.core import scoring as compiled_scoring


def load_source(name: str) -> ModuleType:
    """``spades.core.<name>`` loaded from its .py file, bypassing the compiled module."""
    path = Path(spades.core.__file__).parent / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"spades.core._bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "spades.core"
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def checked_hand(hand_module: ModuleType, scoring: ModuleType) -> Callable[[random.Random], None]:
    def run(rng: random.Random) -> None:
        state = hand_module.HandState.from_deal(rng.randrange(4), hand_module.deal(rng))
        for _ in range(4):
            state.bid(state.turn, rng.choice(state.legal_bids()))
        for _ in range(52):
            state.play(state.turn, rng.choice(state.legal_cards()))
        scoring.score_hand(state.bids, state.tricks_won)

    return run


def fast_hand(hand_module: ModuleType, scoring: ModuleType) -> Callable[[random.Random], None]:
    def run(rng: random.Random) -> None:
        state = hand_module.HandState(rng.randrange(4), hand_module.deal(rng))
        state.random_playout(rng)
        scoring.score_hand(state.bids, state.tricks_won)

    return run


def open_spiel_hand() -> Callable[[random.Random], None] | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")

    def run(rng: random.Random) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        state.returns()

    return run


def hands_per_second(play_hand: Callable[[random.Random], None], seconds: float) -> float:
    rng = random.Random(2026)
    for _ in range(50):  # warm up
        play_hand(rng)
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            play_hand(rng)
        count += 100
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="measure every contender this many times, interleaved; keep the best",
    )
    args = parser.parse_args()

    compiled = not str(compiled_hand.__file__).endswith(".py")
    source_hand, source_scoring = load_source("hand"), load_source("scoring")
    runs: list[tuple[str, Callable[[random.Random], None]]] = [
        (
            f"checked API ({'compiled' if compiled else 'interpreted'})",
            checked_hand(compiled_hand, compiled_scoring),
        ),
        (
            f"fast path   ({'compiled' if compiled else 'interpreted'})",
            fast_hand(compiled_hand, compiled_scoring),
        ),
    ]
    if compiled:
        runs += [
            ("checked API (interpreted)", checked_hand(source_hand, source_scoring)),
            ("fast path   (interpreted)", fast_hand(source_hand, source_scoring)),
        ]
    reference = open_spiel_hand()
    if reference is not None:
        runs.append(("OpenSpiel spades (pyspiel)", reference))

    print(
        f"Python {sys.version.split()[0]}, best of {args.rounds} interleaved runs of "
        f"{args.seconds:g} s: random full hands per second"
    )
    results = best_of_interleaved(
        runs, args.rounds, lambda run: hands_per_second(run, args.seconds)
    )
    baseline = results.get("OpenSpiel spades (pyspiel)")
    for name, rate in results.items():
        ratio = f"  {rate / baseline:5.2f}x OpenSpiel" if baseline else ""
        print(f"  {name:28} {rate:10,.0f} hands/s  {1e6 / rate:8.1f} us/hand{ratio}")
    if baseline is None:
        print("  (open_spiel not installed: `pip install open-spiel` to compare)")


if __name__ == "__main__":
    main()
