"""The solver agrees with plain minimax on many random small endgames, for
every question it answers, and never proposes an illegal card: both searches,
the C kernel and its reference in dds.py."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

import pytest

from spades.core.hand import HandState
from spades.solver import Solver, can_hold_nil, card_values, dds, nil_card_values, solve_tricks
from tests.solver.brute import brute_nil, brute_tricks, memo_tricks, random_endgame

pytestmark = pytest.mark.slow  # every solver answer checked against exhaustive minimax

CASES = 250

Answer = TypeVar("Answer")
_MINIMAX: dict[tuple[object, ...], list[object]] = {}


def minimax(key: tuple[object, ...], answers: Callable[[], list[Answer]]) -> list[Answer]:
    """Minimax's answers for the positions ``key`` names, worked out by a test's
    first run and reused by its second: both searches are checked on the same
    positions (made from the seed), and the exhaustive reference is most of the
    time, the same for both."""
    if key not in _MINIMAX:
        _MINIMAX[key] = list(answers())
    return _MINIMAX[key]  # type: ignore[return-value]


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
    expected = minimax(
        ("partnership", seed),
        lambda: [[brute_tricks(s, 0b0101 << team) for team in (0, 1)] for s in endgames(seed)],
    )
    for state, answers in zip(endgames(seed), expected, strict=True):
        for team in (0, 1):
            before = snapshot(state)
            assert solve_tricks(state, team) == answers[team]
            assert snapshot(state) == before  # the position is left as it was


def test_default_team_is_the_movers() -> None:
    for state in endgames(3, 60):
        assert solve_tricks(state) == solve_tricks(state, state.turn & 1)


def test_one_seats_own_tricks_match_minimax() -> None:
    """The question a Nil bidder's partner's bid asks: that seat's tricks alone."""
    rng = random.Random(4)
    seats = [rng.randrange(4) for _ in range(CASES)]
    expected = minimax(
        ("one seat", 4),
        lambda: [brute_tricks(s, 1 << seat) for s, seat in zip(endgames(4), seats, strict=True)],
    )
    for state, seat, answer in zip(endgames(4), seats, expected, strict=True):
        assert Solver().tricks(state, 1 << seat) == answer


@pytest.mark.parametrize("seed", [5, 6])
def test_nil_matches_minimax(seed: int) -> None:
    expected = minimax(
        ("nil", seed), lambda: [[brute_nil(s, seat) for seat in range(4)] for s in endgames(seed)]
    )
    for state, answers in zip(endgames(seed), expected, strict=True):
        for seat in range(4):
            assert can_hold_nil(state, seat) == answers[seat]


def cards_minimax(state: HandState, seats: int) -> dict[int, int]:
    """What each legal card leads to: the tricks ``seats`` then take, the one it finishes included."""
    values = {}
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        won = 1 if finishing and seats >> state.tricks[-1].winner & 1 else 0
        values[card] = won + brute_tricks(state, seats)
        state.undo()
    return values


def nil_cards_minimax(state: HandState, seat: int) -> dict[int, bool]:
    """Whether ``seat``'s Nil holds after each legal card."""
    holds = {}
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        lost = finishing and state.tricks[-1].winner == seat
        holds[card] = not lost and brute_nil(state, seat)
        state.undo()
    return holds


def test_card_values_cover_exactly_the_legal_cards_and_match_minimax() -> None:
    expected = minimax(
        ("card values", 7),
        lambda: [cards_minimax(s, 0b0101 << (s.turn & 1)) for s in endgames(7, 150)],
    )
    for state, answers in zip(endgames(7, 150), expected, strict=True):
        values = card_values(state)
        assert sorted(values) == state.legal_cards()
        assert values == answers
        assert max(values.values()) == solve_tricks(state)


def test_nil_card_values_cover_exactly_the_legal_cards_and_match_minimax() -> None:
    rng = random.Random(8)
    seats = [rng.randrange(4) for _ in range(150)]
    expected = minimax(
        ("nil card values", 8),
        lambda: [
            nil_cards_minimax(s, seat) for s, seat in zip(endgames(8, 150), seats, strict=True)
        ],
    )
    for state, seat, answers in zip(endgames(8, 150), seats, expected, strict=True):
        values = nil_card_values(state, seat)
        assert sorted(values) == state.legal_cards()
        assert values == answers


def test_one_solver_reused_over_many_positions_stays_exact() -> None:
    """The transposition table generalises over small cards; reusing it across
    positions (as ``spades analyze`` does) must never leak a wrong bound."""
    expected = minimax(
        ("one solver", 9),
        lambda: [
            (brute_tricks(s, 0b0101 << (s.turn & 1)), brute_nil(s, s.leader))
            for s in endgames(9, 400)
        ],
    )
    solver = Solver()
    for state, (tricks, nil_holds) in zip(endgames(9, 400), expected, strict=True):
        assert solver.tricks(state, 0b0101 << (state.turn & 1)) == tricks
        assert solver.nil_holds(state, state.leader) == nil_holds


def test_five_trick_deals_played_at_random_match_memoised_minimax() -> None:
    from spades.solver.position import random_position

    def deals() -> list[HandState]:
        rng = random.Random(10)
        return [random_position(rng, 5) for _ in range(6)]

    def both_teams(state: HandState) -> list[int]:
        # Every trick goes to one team or the other: the most East-West can take
        # against North-South's best is what North-South's best leaves them.
        left = max(hand.bit_count() for hand in state.hands)  # the trick in progress too
        north_south = memo_tricks(state, 0)
        return [north_south, left - north_south]

    expected = minimax(("five tricks", 10), lambda: [both_teams(s) for s in deals()])
    solver = Solver()
    for state, answers in zip(deals(), expected, strict=True):
        for team in (0, 1):
            assert solver.tricks(state, 0b0101 << team) == answers[team]
