"""The solver agrees with plain minimax on many random small endgames, for
every question it answers, and never proposes an illegal card: both searches,
the C kernel and its reference in dds.py."""

from __future__ import annotations

import random

import pytest

from spades.core.hand import HandState
from spades.solver import Solver, can_hold_nil, card_values, dds, nil_card_values, solve_tricks
from tests.solver.brute import brute_nil, brute_tricks, memo_tricks, random_endgame

pytestmark = pytest.mark.slow  # every solver answer checked against exhaustive minimax

CASES = 250


@pytest.fixture(autouse=True, params=["kernel", "python"])
def search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with the C kernel (when built), then with dds.py's own search."""
    if request.param == "python":
        monkeypatch.setattr(dds, "_new_kernel", None)
    return str(request.param)


def snapshot(state: HandState) -> tuple[object, ...]:
    return (tuple(state.hands), tuple(state.trick), state.turn, state.leader, state.spades_broken)


def endgames(seed: int, count: int = CASES) -> list[HandState]:
    rng = random.Random(seed)
    return [
        random_endgame(rng, rng.randint(1, 4), mid_trick=rng.random() < 0.5) for _ in range(count)
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_partnership_tricks_match_minimax(seed: int) -> None:
    for state in endgames(seed):
        for team in (0, 1):
            before = snapshot(state)
            assert solve_tricks(state, team) == brute_tricks(state, 0b0101 << team)
            assert snapshot(state) == before  # the position is left as it was


def test_default_team_is_the_movers() -> None:
    for state in endgames(3, 60):
        assert solve_tricks(state) == solve_tricks(state, state.turn & 1)


def test_one_seats_own_tricks_match_minimax() -> None:
    """The question a Nil bidder's partner's bid asks: that seat's tricks alone."""
    rng = random.Random(4)
    for state in endgames(4):
        seat = rng.randrange(4)
        assert Solver().tricks(state, 1 << seat) == brute_tricks(state, 1 << seat)


@pytest.mark.parametrize("seed", [5, 6])
def test_nil_matches_minimax(seed: int) -> None:
    for state in endgames(seed):
        for seat in range(4):
            assert can_hold_nil(state, seat) == brute_nil(state, seat)


def test_card_values_cover_exactly_the_legal_cards_and_match_minimax() -> None:
    for state in endgames(7, 150):
        values = card_values(state)
        assert sorted(values) == state.legal_cards()
        seats = 0b0101 << (state.turn & 1)
        for card, value in values.items():
            finishing = len(state.trick) == 3
            state.apply_play(card)
            won = 1 if finishing and seats >> state.tricks[-1].winner & 1 else 0
            assert value == won + brute_tricks(state, seats)
            state.undo()
        assert max(values.values()) == solve_tricks(state)


def test_nil_card_values_cover_exactly_the_legal_cards_and_match_minimax() -> None:
    rng = random.Random(8)
    for state in endgames(8, 150):
        seat = rng.randrange(4)
        values = nil_card_values(state, seat)
        assert sorted(values) == state.legal_cards()
        for card, holds in values.items():
            finishing = len(state.trick) == 3
            state.apply_play(card)
            lost = finishing and state.tricks[-1].winner == seat
            assert holds == (not lost and brute_nil(state, seat))
            state.undo()


def test_one_solver_reused_over_many_positions_stays_exact() -> None:
    """The transposition table generalises over small cards; reusing it across
    positions (as ``spades analyze`` does) must never leak a wrong bound."""
    solver = Solver()
    for state in endgames(9, 400):
        team = state.turn & 1
        assert solver.tricks(state, 0b0101 << team) == brute_tricks(state, 0b0101 << team)
        seat = state.leader
        assert solver.nil_holds(state, seat) == brute_nil(state, seat)


def test_five_trick_deals_played_at_random_match_memoised_minimax() -> None:
    from spades.solver.position import random_position

    rng = random.Random(10)
    solver = Solver()
    for _ in range(6):
        state = random_position(rng, 5)
        for team in (0, 1):
            assert solver.tricks(state, 0b0101 << team) == memo_tricks(state, team)
