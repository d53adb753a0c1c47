"""The solver against a file of fixed positions with known values (like perft
in chess): whole deals and 10-, 7- and 5-trick positions, too big for the
brute-force tests. The values were computed by the solver as it stood before
its search was rewritten for speed (``tools/solver_regression.py``), so any
change to the search must keep every answer."""

from __future__ import annotations

import pytest

from spades.core.cards import CARD_NAMES
from spades.solver import Solver

from .known_positions import KNOWN, Known, tricks_left


def test_the_file_covers_every_size_and_mid_trick_positions() -> None:
    sizes = {tricks_left(k.state) for k in KNOWN}
    assert {5, 7, 10, 13} <= sizes
    assert sum(1 for k in KNOWN if k.state.trick) >= 15
    assert sum(1 for k in KNOWN if k.nil != "....") >= 40


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: f"line{KNOWN.index(k) + 6}")
def test_fresh_solvers_give_the_known_values(known: Known) -> None:
    state = known.state
    assert known.north_south + known.east_west == tricks_left(state)
    assert Solver().tricks(state, 0b0101) == known.north_south
    if tricks_left(state) < 13:  # a whole deal is slow to solve, and the sides add up to 13
        assert Solver().tricks(state, 0b1010) == known.east_west
    for seat, sign in enumerate(known.nil):
        if sign != ".":
            assert Solver().nil_holds(state, seat) == (sign == "+"), f"Nil of seat {seat}"
    if known.cards is not None:
        values = Solver().card_tricks(state, 0b0101 << (state.turn & 1))
        assert {CARD_NAMES[card]: n for card, n in values.items()} == known.cards


def test_one_solver_reused_over_the_whole_file_gives_the_known_values() -> None:
    """What one position's search files in the tables must never answer
    another wrongly (``spades analyze`` keeps one solver for a hand). The
    whole deals are left out: they are slow, and the fresh test has them."""
    solver = Solver()
    for known in KNOWN:
        if tricks_left(known.state) == 13:
            continue
        state = known.state
        guess = known.north_south  # a right guess must not change the answer either
        assert solver.tricks(state, 0b0101, guess) == known.north_south, known.text
        assert solver.tricks(state, 0b1010) == known.east_west, known.text
        for seat, sign in enumerate(known.nil):
            if sign != ".":
                assert solver.nil_holds(state, seat) == (sign == "+"), known.text
