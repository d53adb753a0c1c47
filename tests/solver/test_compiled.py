"""The compiled solver and its interpreted source give the same answers after
the same work (mypyc must not change the search). Both run dds.py's own search,
not the C kernel (test_kernel.py compares that with this one)."""

from __future__ import annotations

import random

import pytest

from spades.solver import dds
from spades.solver.position import random_position
from tests.pure import load_source


@pytest.mark.slow
def test_compiled_and_interpreted_solvers_agree_card_for_card() -> None:
    source = load_source("solver.dds")
    rng = random.Random(12)
    for left in (4, 6, 8):
        for _ in range(4):
            state = random_position(rng, left)
            compiled, interpreted = dds.Solver(native=False), source.Solver(native=False)
            mask = 0b0101 << (state.turn & 1)
            assert compiled.card_tricks(state, mask) == interpreted.card_tricks(state, mask)
            assert compiled.nodes == interpreted.nodes
            seat = rng.randrange(4)
            assert compiled.card_nil(state, seat) == interpreted.card_nil(state, seat)
