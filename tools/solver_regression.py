"""Write the solver's regression file: fixed positions with their known values.

    .venv/bin/python tools/solver_regression.py [--solver path/to/dds.so] > tests/solver/regression.txt

Like perft files in chess, the file pins the solver's answers on positions
too big for the brute-force tests: whole deals (13 tricks, spades unbroken),
and 10, 7 and 5 tricks left after random play, a third of them in the middle
of a trick. ``tests/solver/test_regression.py`` checks the solver against it.
The committed file was written by the solver as it stood before the search
was rewritten for speed (``--solver`` loads such a copy, compiled or not).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from spades.core.cards import CARD_NAMES
from spades.core.hand import HandState
from spades.solver import dds
from spades.solver.position import make_position, random_position

SIZES = ((13, 6), (10, 16), (7, 24), (5, 24))
"""Tricks left, and how many positions of that size."""
NIL_UP_TO = 7
"""Nil answers (all four seats) for positions of at most this many tricks."""

HEADER = """\
# Double-dummy regression positions (tools/solver_regression.py; checked by test_regression.py).
# deal: the hands at the start of the trick (N E S W); leader; spades broken; the cards of the
# trick in progress (- when none); tricks North-South and East-West take from here; for each of
# N E S W whether a Nil would hold (+) or not (-), or . when not asked; every legal card of the
# seat to play with the tricks its side then takes (- when not asked).
"""


def load_solver(path: Path) -> ModuleType:
    name = path.name.split(".")[0]
    loader = (
        None if path.suffix == ".py" else importlib.machinery.ExtensionFileLoader(name, str(path))
    )
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def names(mask: int) -> str:
    return " ".join(CARD_NAMES[card] for card in range(51, -1, -1) if mask >> card & 1)


def position(rng: random.Random, left: int, mid_trick: bool) -> tuple[HandState, str]:
    """A position after random play (in the middle of a trick if ``mid_trick``),
    and its first columns: the deal at the trick's start, leader, broken, trick."""
    played = random_position(rng, left)
    state = make_position(played.hands, played.leader, broken=played.spades_broken)
    deal = " ".join(f"{seat}:{names(hand)}" for seat, hand in zip("NESW", state.hands, strict=True))
    columns = [deal, "NESW"[state.leader], "yes" if state.spades_broken else "no"]
    trick = []
    if mid_trick:
        for _ in range(rng.randrange(1, 4)):
            card = rng.choice(state.legal_cards())
            trick.append(card)
            state.apply_play(card)
    columns.append(" ".join(CARD_NAMES[card] for card in trick) or "-")
    return state, "\t".join(columns)


def line(module: ModuleType, state: HandState, start: str) -> str:
    left = bin(state.hands[state.turn]).count("1")
    ns = module.Solver().tricks(state, 0b0101)
    ew = module.Solver().tricks(state, 0b1010)
    nil = "...."
    cards = "-"
    if left <= NIL_UP_TO:
        nil = "".join("+" if module.Solver().nil_holds(state, seat) else "-" for seat in range(4))
    if left <= 10:
        values = module.Solver().card_tricks(state, 0b0101 << (state.turn & 1))
        cards = " ".join(f"{CARD_NAMES[card]}={values[card]}" for card in sorted(values))
    return "\t".join((start, str(ns), str(ew), nil, cards))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--solver", type=Path, help="a dds module file to use instead")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    module = dds if args.solver is None else load_solver(args.solver)
    rng = random.Random(args.seed)
    sys.stdout.write(HEADER)
    for left, count in SIZES:
        for index in range(count):
            state, start = position(rng, left, mid_trick=left < 13 and index % 3 == 2)
            print(line(module, state, start), flush=True)


if __name__ == "__main__":
    main()
