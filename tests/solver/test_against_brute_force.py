"""The solver agrees with plain minimax on many random small endgames, for
every question it answers, and never proposes an illegal card: both searches,
the C kernel and its reference in dds.py.

Minimax's answers are stored (``reference.py``, like perft files in chess): the
exhaustive search was most of this module's time at every run.
``test_brute_force_reference.py`` checks the stored answers against minimax
itself, on a sample of the file at every run."""

from __future__ import annotations

import random

import pytest

from spades.core.hand import HandState
from spades.solver import Solver, can_hold_nil, card_values, dds, nil_card_values, solve_tricks
from tests.solver.brute import random_endgame

from .reference import read_file

STORED = read_file()


@pytest.fixture(autouse=True, params=["kernel", "python"])
def search(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test twice: with the C kernel (when built), then with dds.py's own search."""
    if request.param == "python":
        monkeypatch.setattr(dds, "_new_kernel", None)
    return str(request.param)


def tricks_left(state: HandState) -> int:
    return max(hand.bit_count() for hand in state.hands)  # the trick in progress too


def snapshot(state: HandState) -> tuple[object, ...]:
    return (tuple(state.hands), tuple(state.trick), state.turn, state.leader, state.spades_broken)


def endgames(seed: int, count: int) -> list[HandState]:
    rng = random.Random(seed)
    return [
        random_endgame(rng, rng.randint(1, 4), mid_trick=rng.random() < 0.5) for _ in range(count)
    ]


def test_the_reference_holds_endgames_of_every_kind() -> None:
    """What the checks below run on: endgames of 1 to 5 tricks, at a trick's start and
    in its middle, spades broken and not, with Nils that hold and Nils that fail."""
    left = {tricks_left(stored.state) for stored in STORED}
    assert left == {1, 2, 3, 4, 5}
    assert sum(1 for stored in STORED if stored.state.trick) >= 300
    assert sum(1 for stored in STORED if not stored.state.trick) >= 300
    assert {stored.state.spades_broken for stored in STORED} == {False, True}
    nils = [holds for stored in STORED for holds in stored.answers.nil]
    assert nils.count(True) >= 500 and nils.count(False) >= 500


def test_partnership_tricks_match_minimax() -> None:
    for stored in STORED:
        state = stored.state
        for team in (0, 1):
            before = snapshot(state)
            assert solve_tricks(state, team) == stored.answers.teams[team], stored.text
            assert snapshot(state) == before  # the position is left as it was


def test_default_team_is_the_movers() -> None:
    for state in endgames(3, 60):
        assert solve_tricks(state) == solve_tricks(state, state.turn & 1)


def test_one_seats_own_tricks_match_minimax() -> None:
    """The question a Nil bidder's partner's bid asks: that seat's tricks alone."""
    for stored in STORED:
        for seat in range(4):
            answer = stored.answers.seats[seat]
            assert Solver().tricks(stored.state, 1 << seat) == answer, (stored.text, seat)


def test_nil_matches_minimax() -> None:
    for stored in STORED:
        for seat in range(4):
            assert can_hold_nil(stored.state, seat) == stored.answers.nil[seat], (stored.text, seat)


def test_card_values_cover_exactly_the_legal_cards_and_match_minimax() -> None:
    for stored in STORED:
        state = stored.state
        values = card_values(state)
        assert sorted(values) == state.legal_cards()
        assert values == stored.answers.cards, stored.text
        assert max(values.values()) == solve_tricks(state)


def test_nil_card_values_cover_exactly_the_legal_cards_and_match_minimax() -> None:
    for stored in STORED:
        state = stored.state
        for seat in range(4):
            values = nil_card_values(state, seat)
            assert sorted(values) == state.legal_cards()
            expected = {card: holds[seat] for card, holds in stored.answers.nil_cards.items()}
            assert values == expected, (stored.text, seat)


def test_one_solver_reused_over_many_positions_stays_exact() -> None:
    """The transposition table generalises over small cards; reusing it across
    positions (as ``spades analyze`` does) must never leak a wrong bound."""
    solver = Solver()
    for stored in STORED:
        state, answers = stored.state, stored.answers
        mover = state.turn & 1
        assert solver.tricks(state, 0b0101 << mover) == answers.teams[mover], stored.text
        assert solver.nil_holds(state, state.leader) == answers.nil[state.leader], stored.text
        assert solver.tricks(state, 0b0101 << (1 - mover)) == answers.teams[1 - mover]


def test_five_trick_deals_played_at_random_match_minimax() -> None:
    deals = [stored for stored in STORED if tricks_left(stored.state) == 5]
    assert len(deals) >= 6
    solver = Solver()
    for stored in deals:
        for team in (0, 1):
            assert solver.tricks(stored.state, 0b0101 << team) == stored.answers.teams[team]
