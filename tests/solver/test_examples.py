"""Hand-checked positions: the counts can be worked out at the table."""

from __future__ import annotations

import pytest

from spades.core import IllegalActionError
from spades.core.cards import CARD_NAMES, mask_of, parse_cards
from spades.core.hand import HandState, deal_from_seed
from spades.solver import (
    SearchLimitError,
    Solver,
    SolverError,
    can_hold_nil,
    card_values,
    make_position,
    nil_card_values,
    parse_deal,
    solve_tricks,
)


def position(text: str, leader: str, *, broken: bool = False, trick: str = "") -> HandState:
    return make_position(parse_deal(text), "NESW".index(leader), parse_cards(trick), broken=broken)


def named(values: dict[int, int] | dict[int, bool]) -> dict[str, int | bool]:
    return {CARD_NAMES[card]: value for card, value in values.items()}


def test_three_top_hearts_and_no_trumps_out_take_every_trick() -> None:
    state = position("N:AH KH QH E:JH 2C 3C S:2D 3D 4D W:4C 5C 6C", "N")
    assert solve_tricks(state, 0) == 3
    assert solve_tricks(state, 1) == 0


def test_a_master_trump_always_scores_and_a_ruff_beats_an_ace() -> None:
    # South's lone AS wins a trick whatever happens; West ruffs North's AD.
    state = position("N:AD KD E:2C 3C S:AS 2H W:2S 3H", "N", broken=True)
    assert named(card_values(state)) == {"AD": 1, "KD": 1}
    assert solve_tricks(state, 1) == 1


def test_the_spade_lead_rule_changes_the_result() -> None:
    """North would cash AS then KC; with spades unbroken it must lead the KC,
    which East ruffs with the JS. (North's AS then ruffs East's diamond.)"""
    deal = "N:KC AS E:JD JS S:KD QH W:QC TD"
    assert solve_tricks(position(deal, "N", broken=True), 0) == 2
    unbroken = position(deal, "N")
    assert solve_tricks(unbroken, 0) == 1
    assert named(card_values(unbroken)) == {"KC": 1}  # AS is not even a legal lead


def test_a_leader_holding_only_spades_may_lead_them_before_they_are_broken() -> None:
    state = position("N:AS KS E:2H 3H S:2C 3C W:4H 5H", "N")
    assert named(card_values(state)) == {"KS": 2, "AS": 2}


def test_mid_trick_ducking_the_lead_gives_away_the_whole_hand() -> None:
    # West led the QH: North wins it with KH or AH, then cashes the other and
    # South's 8H takes the last heart; ducking lets West run its clubs.
    state = position("N:AH KH 2H E:3H 4H 5H S:6H 7H 8H W:QH JC TC", "W", trick="QH")
    assert named(card_values(state)) == {"2H": 0, "KH": 3, "AH": 3}


def test_a_nil_partner_covers_and_the_nil_holds() -> None:
    """East leads the QH into South's KH; North's AH covers it."""
    covered = position("N:AH 3C E:QH 4C S:KH 2C W:JH 5C", "E")
    assert can_hold_nil(covered, 2)
    assert named(nil_card_values(covered, 2)) == {"4C": True, "QH": True}
    # Without the AH over it, South's KH must win the trick.
    bare = position("N:3H 3C E:QH 4C S:KH 2C W:JH 5C", "E")
    assert not can_hold_nil(bare, 2)


def test_a_nil_bidder_holding_the_top_spade_cannot_be_held() -> None:
    state = position("N:2H 3H E:4H 5H S:AS 6H W:7H 8H", "N", broken=True)
    assert not can_hold_nil(state, 2)
    assert can_hold_nil(state, 0)  # North's low hearts always lose


def test_equivalent_cards_are_not_lumped_across_a_reused_table() -> None:
    """Regression: these two positions differ only in East's 9S / 5S, which the
    search may treat as the same small card; its table must not carry the
    first answer over to the second (East keeps the 5S to duck with)."""
    solver = Solver()
    first = position("N:5C 4S 8S QS E:9S TS JS KS S:4D 5D 6D AS W:8C JC 3S 6S", "S", broken=True)
    second = position("N:5C 4S 8S QS E:5S TS JS KS S:4D 5D 6D AS W:8C JC 3S 6S", "S", broken=True)
    assert solver.tricks(first, 0b0101) == 2
    assert solver.tricks(second, 0b0101) == 1


def test_a_full_deal_solves_and_the_sides_add_up_to_thirteen() -> None:
    state = HandState(0, deal_from_seed(11))
    for _ in range(4):
        state.apply_bid(3)
    solver = Solver()
    ns = solver.tricks(state, 0b0101)
    assert ns + solver.tricks(state, 0b1010) == 13
    assert max(solver.card_tricks(state, 0b0101 << (state.turn & 1)).values()) == (
        ns if state.turn & 1 == 0 else 13 - ns
    )


def test_a_guess_only_speeds_the_answer_up() -> None:
    state = HandState(2, deal_from_seed(5))
    for _ in range(4):
        state.apply_bid(3)
    exact = Solver().tricks(state, 0b0101)
    for guess in (0, exact, 13, 40):
        assert Solver().tricks(state, 0b0101, guess) == exact


def test_a_search_limit_gives_up_and_keeps_the_solver_usable() -> None:
    state = HandState(0, deal_from_seed(3))
    for _ in range(4):
        state.apply_bid(3)
    solver = Solver(limit=50)
    with pytest.raises(SearchLimitError):
        solver.tricks(state, 0b0101)
    small = position("N:AH KH QH E:JH 2C 3C S:2D 3D 4D W:4C 5C 6C", "N")
    assert solver.tricks(small, 0b0101) == 3


def test_bad_questions_are_refused() -> None:
    bidding = HandState(0, deal_from_seed(1))
    with pytest.raises(SolverError, match="bidding"):
        solve_tricks(bidding)
    state = position("N:AH E:2C S:2D W:4C", "N")
    with pytest.raises(SolverError, match="one partnership"):
        Solver().tricks(state, 0b0011)
    with pytest.raises(SolverError):
        Solver().nil_holds(state, 7)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("N:AS E:KS S:QS", "no hand for W"),
        ("N:AS E:KS S:QS W:AS", "AS given to two seats"),
        ("N:AS KS E:QS S:JS W:TS", "same number of cards"),
        ("X:AS E:KS S:QS W:JS", "'X' is not a seat"),
        ("AS N:KS E:QS S:JS W:TS", "before any seat"),
        ("N:AS 1S E:QS S:JS W:TS", "is not a card"),
    ],
)
def test_written_deals_are_checked(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_deal(text)


def test_the_trick_on_the_table_must_be_legal() -> None:
    with pytest.raises(IllegalActionError, match="follow suit"):
        position("N:AH 2C E:3H 4C S:2D 3D W:5C 6C", "N", trick="AH 4C")
    with pytest.raises(IllegalActionError, match="North cannot play"):
        position("N:AH 2C E:3H 4C S:2D 3D W:5C 6C", "N", trick="3H")


def test_hands_are_masks_and_positions_keep_the_given_cards() -> None:
    state = position("N:AS KH E:QS 2H S:3S AH W:2S 3H", "N", broken=True)
    assert state.hands[0] == mask_of(parse_cards("AS KH"))
    assert state.turn == 0 and state.spades_broken
