"""Claims checked double dummy: the verdict against plain minimax, and the line
of defence given when a claim fails."""

from __future__ import annotations

import random

import pytest

from spades.core import NIL, IllegalClaimError, claim_terms
from spades.core.claims import tricks_left
from spades.core.hand import HandState
from spades.solver import SearchLimitError, Solver
from spades.solver.claims import check_claim
from spades.solver.position import random_position

from .brute import brute_tricks, random_endgame


def with_bids(state: HandState, bids: tuple[int, int, int, int]) -> HandState:
    """``state`` with each seat's bid replaced (``make_position`` bids 1 all round)."""
    for seat, bid in enumerate(bids):
        state.bids[seat] = bid
    return state


def endgame(seed: int) -> HandState:
    rng = random.Random(seed)
    state = random_endgame(rng, rng.randrange(1, 4), mid_trick=rng.random() < 0.4)
    nil_seat = rng.choice([None, None, 0, 1, 2, 3])
    return with_bids(state, tuple(NIL if seat == nil_seat else 2 for seat in range(4)))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(4))
def test_the_verdict_matches_minimax_and_the_defence_beats_the_claim(seed: int) -> None:
    checked = 0
    for case in range(50):
        state = endgame(seed * 1000 + case)
        seat = state.turn
        for tricks in range(1, tricks_left(state) + 1):
            try:
                terms = claim_terms(state, seat, tricks)
            except IllegalClaimError:
                continue
            check = check_claim(state, seat, tricks)
            assert check.holds == (brute_tricks(state, terms.counted) >= tricks)
            if check.holds:
                assert check.defence == ()
                continue
            checked += 1
            # The line is legal play, in whole tricks from the trick in progress,
            # that leaves the claim out of reach and stops at the trick that does it.
            position = state.clone()
            cards = [card for trick in check.defence for card in trick.cards]
            assert cards[: len(state.trick)] == list(state.trick)
            won = 0
            reachable_before_last = True
            for index, card in enumerate(cards[len(state.trick) :], start=len(state.trick)):
                assert card in position.legal_cards()
                finished = len(position.tricks)
                position.apply_play(card)
                if len(position.tricks) > finished:
                    won += terms.counted >> position.tricks[-1].winner & 1
                if index == len(cards) - 5:
                    reachable_before_last = won + tricks_left(position) >= tricks
            assert tuple(position.tricks[len(state.tricks) :]) == check.defence
            assert won + tricks_left(position) < tricks
            assert reachable_before_last
    assert checked > 15


def test_the_check_leaves_the_position_unchanged() -> None:
    state = endgame(3)
    before = (list(state.hands), list(state.trick), state.turn)
    check_claim(state, state.turn, tricks_left(state))
    assert (list(state.hands), list(state.trick), state.turn) == before


def test_a_claim_the_rules_refuse_is_refused_before_any_search() -> None:
    state = with_bids(endgame(4), (NIL, NIL, NIL, NIL))
    with pytest.raises(IllegalClaimError, match="both bid Nil"):
        check_claim(state, state.turn, 1)


def test_a_verdict_too_long_for_the_limit_gives_up() -> None:
    state = random_position(random.Random(1), 13)
    gave_up = 0
    for tricks in range(1, 14):
        try:
            check_claim(state, state.turn, tricks, limit=50)
        except SearchLimitError:
            gave_up += 1
    assert gave_up


def test_a_line_too_long_for_the_limit_leaves_the_verdict_without_it() -> None:
    rng = random.Random(5)
    for _ in range(100):
        state = random_position(rng, 8)
        terms = claim_terms(state, state.turn, 8)
        solver = Solver()
        if solver.reaches(state, terms.counted, 8):
            continue
        verdict_cost = max(1, solver.nodes)
        check = check_claim(state, state.turn, 8, limit=verdict_cost + 1)
        assert not check.holds
        if check.defence == ():
            return  # the verdict came within the limit, the line did not
    raise AssertionError("no line ran past the limit")  # pragma: no cover
