"""The C kernel (``spades/solver/_kernel.c``) against its reference, the
Python search of ``dds.py``: the same answers after the same cards tried, on
every question, with tables carried over, under a search limit, mid-trick.

Equal counts of cards tried mean the two searched the same tree: the same move
order, cut-offs, quick-trick bounds and table hits, so the kernel inherits the
reference's exactness proofs (the brute-force and regression tests)."""

from __future__ import annotations

import os
import random
import threading

import pytest

from spades.core.hand import HandState
from spades.solver import SearchLimitError, Solver, dds
from spades.solver.position import random_position
from tests.solver.known_positions import KNOWN, tricks_left

pytestmark = pytest.mark.skipif(
    dds._new_kernel is None and os.environ.get("SPADES_PURE_PYTHON", "") not in ("", "0"),
    reason="installed without compiled modules (SPADES_PURE_PYTHON)",
)


def pair() -> tuple[Solver, Solver]:
    """A solver searching in C and one searching in Python."""
    return Solver(), Solver(native=False)


def test_the_kernel_is_built_and_used() -> None:
    """``make`` builds the kernel (CI's fresh machine too); a Solver uses it by default."""
    assert dds._new_kernel is not None
    assert Solver().kernel is not None
    assert Solver(native=False).kernel is None


def positions(seed: int, sizes: tuple[int, ...], count: int) -> list[HandState]:
    rng = random.Random(seed)
    return [random_position(rng, rng.choice(sizes)) for _ in range(count)]


def mid_trick(rng: random.Random, state: HandState) -> HandState:
    """``state`` after 1 to 3 random legal cards of the next trick."""
    for _ in range(rng.randint(1, 3)):
        state.apply_play(rng.choice(state.legal_cards()))
    return state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_card_and_every_nil_as_the_reference_does(seed: int) -> None:
    rng = random.Random(seed)
    for state in positions(seed, (3, 5, 7, 9), 40):
        if rng.random() < 0.4:
            state = mid_trick(rng, state)
        native, python = pair()
        seats = 0b0101 << (state.turn & 1)
        assert native.card_tricks(state, seats) == python.card_tricks(state, seats)
        assert native.nodes == python.nodes
        seat = rng.randrange(4)
        assert native.card_nil(state, seat) == python.card_nil(state, seat)
        assert native.nodes == python.nodes


def test_one_seats_tricks_and_reaches_as_the_reference_does() -> None:
    """A single seat counted (a Nil bidder's partner) takes the quick-trick
    rules for seats, not sides; ``reaches`` is one null-window search."""
    rng = random.Random(4)
    for state in positions(4, (4, 6, 8), 40):
        native, python = pair()
        seats = 1 << rng.randrange(4)
        assert native.tricks(state, seats) == python.tricks(state, seats)
        assert native.nodes == python.nodes
        target = rng.randint(0, tricks_left(state))
        assert native.reaches(state, seats, target) == python.reaches(state, seats, target)
        assert native.nodes == python.nodes


def test_tables_carried_over_a_played_hand_as_the_reference_does() -> None:
    """One solver for every position of a hand, each count a guess for the
    next, as ``spades analyze`` asks: the kernel's tables must fill and answer
    as the reference's do, across questions."""
    rng = random.Random(5)
    for _ in range(3):
        state = random_position(rng, 9)
        native, python = pair()
        guess = -1
        while tricks_left(state) > 0:
            seats = 0b0101 << (state.turn & 1)
            count = native.tricks(state, 0b0101, guess)
            assert count == python.tricks(state, 0b0101, guess)
            assert native.nodes == python.nodes
            guess = count
            seat = rng.randrange(4)
            assert native.nil_holds(state, seat) == python.nil_holds(state, seat)
            assert native.nodes == python.nodes
            assert native.tricks(state, seats & 0b0011) == python.tricks(state, seats & 0b0011)
            state.apply_play(rng.choice(state.legal_cards()))
        assert native.kernel is not None
        assert native.kernel.shapes(0b0101) > 0


@pytest.mark.slow
def test_the_regression_positions_as_the_reference_does() -> None:
    """Bigger searches than the random positions above: every position of 10
    tricks or fewer, two whole deals (of the six: the others take the Python
    search seconds) and a whole deal's Nil; the Nils up to 7 tricks."""
    for index, known in enumerate(KNOWN):
        state = known.state
        if tricks_left(state) > 10 and index not in (1, 4):
            continue
        native, python = pair()
        assert native.tricks(state, 0b0101) == python.tricks(state, 0b0101) == known.north_south
        assert native.nodes == python.nodes
        if tricks_left(state) <= 7:
            for seat in range(4):
                assert native.nil_holds(state, seat) == python.nil_holds(state, seat)
                assert native.nodes == python.nodes
    native, python = pair()
    assert native.nil_holds(KNOWN[0].state, 0) == python.nil_holds(KNOWN[0].state, 0)
    assert native.nodes == python.nodes > 10_000


def test_the_limit_stops_the_kernel_where_it_stops_the_reference() -> None:
    state = KNOWN[10].state  # 10 tricks
    for limit in (1, 50, 2_000):
        native, python = Solver(limit=limit), Solver(limit=limit, native=False)
        with pytest.raises(SearchLimitError, match=f"after trying {limit} cards"):
            native.tricks(state, 0b0101)
        with pytest.raises(SearchLimitError):
            python.tricks(state, 0b0101)
        assert native.nodes == python.nodes == limit + 1
        with pytest.raises(SearchLimitError):
            native.nil_holds(state, 0)
        # What was learnt is kept: without the limit, the answer is still right.
        native.limit = python.limit = 1 << 62
        assert native.tricks(state, 0b0101) == KNOWN[10].north_south
        assert python.tricks(state, 0b0101) == KNOWN[10].north_south


def test_bad_questions_are_refused_before_the_kernel() -> None:
    state = KNOWN[10].state
    kernel = Solver().kernel
    assert kernel is not None
    with pytest.raises(ValueError, match="seat mask"):
        kernel.tricks(*([0] * 14), 0, 0, True, 1, 0, 100)
    with pytest.raises(ValueError, match=r"seat 0\.\.3"):
        kernel.nil(*([0] * 14), 4, 0, 100)
    with pytest.raises(ValueError):
        kernel.shapes(20)
    assert Solver().tricks(state, 0b0101) == KNOWN[10].north_south


def test_a_search_lets_other_threads_run_and_refuses_a_second_search() -> None:
    """The kernel lets go of the GIL while it searches (the web server's
    other threads keep running). A Solver is not to be shared between threads
    (its position is Python fields), but if one is, its kernel refuses a
    second search at once rather than corrupt its tables."""
    whole_deal = KNOWN[0]  # about a million cards tried
    solver = Solver()
    kernel = solver.kernel
    assert kernel is not None
    answers: list[int] = []
    worker = threading.Thread(target=lambda: answers.append(solver.tricks(whole_deal.state, 5)))
    worker.start()
    refused = 0
    while worker.is_alive():
        try:  # a 1-card position: North's AS wins, if the kernel is free
            kernel.tricks(
                1 << 51, 1, 2, 4, 1 << 51 | 7, 0, 0, 0, 0, -1, -1, 0, True, 1, 5, 0, True, 1, 0, 100
            )
        except RuntimeError as error:
            assert "another thread" in str(error)
            refused += 1
    worker.join()
    assert answers == [whole_deal.north_south]
    assert refused > 0
    # Solvers of their own search side by side, and answer right.
    results: dict[int, int] = {}
    threads = [
        threading.Thread(target=lambda i=i: results.update({i: Solver().tricks(KNOWN[i].state, 5)}))
        for i in (1, 4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {1: KNOWN[1].north_south, 4: KNOWN[4].north_south}
