"""Bidding: one round from the dealer's left, everyone bids 1..13 or Nil."""

import pytest

from spades.core import (
    EAST,
    NIL,
    NORTH,
    SOUTH,
    WEST,
    HandState,
    IllegalBidError,
    NotYourTurnError,
    Phase,
)
from spades.core.hand import deal_from_seed


def new_hand(dealer: int = EAST) -> HandState:
    return HandState.from_deal(dealer, deal_from_seed(3))


@pytest.mark.parametrize(
    ("dealer", "first"), [(NORTH, EAST), (EAST, SOUTH), (SOUTH, WEST), (WEST, NORTH)]
)
def test_bidding_starts_left_of_the_dealer(dealer: int, first: int) -> None:
    assert new_hand(dealer).turn == first


def test_bidding_goes_once_around_clockwise_then_play_starts() -> None:
    hand = new_hand(EAST)
    order = []
    for bid in (3, NIL, 4, 2):
        order.append(hand.turn)
        hand.bid(hand.turn, bid)
    assert order == [SOUTH, WEST, NORTH, EAST]
    assert hand.phase is Phase.PLAYING
    assert hand.bids == [4, 2, 3, NIL]
    assert hand.legal_bids() == []


def test_legal_bids_are_nil_and_one_to_thirteen() -> None:
    assert new_hand().legal_bids() == [NIL, *range(1, 14)]


@pytest.mark.parametrize("bid", [-2, 14, 100])  # -1 is blind Nil: see test_house_rules.py
def test_bid_outside_one_to_thirteen_is_refused(bid: int) -> None:
    hand = new_hand()
    with pytest.raises(IllegalBidError, match="Nil or a number from 1 to 13"):
        hand.bid(hand.turn, bid)
    assert hand.bids == [None] * 4 and hand.turn == SOUTH


def test_there_is_no_pass_and_no_zero_bid_other_than_nil() -> None:
    # Nil is the only way to bid for no tricks: it is represented as 0.
    hand = new_hand()
    hand.bid(SOUTH, NIL)
    assert hand.bids[SOUTH] == NIL


def test_bid_out_of_turn_names_whose_turn_it_is() -> None:
    hand = new_hand(EAST)
    with pytest.raises(NotYourTurnError, match="It is South's turn to bid"):
        hand.bid(WEST, 3)
    assert hand.bid_order == []


def test_no_second_round_of_bidding() -> None:
    hand = new_hand()
    for _ in range(4):
        hand.bid(hand.turn, 3)
    with pytest.raises(NotYourTurnError, match="bidding is over"):
        hand.bid(hand.turn, 4)


def test_team_bids_have_no_limit() -> None:
    hand = new_hand()
    for _ in range(4):
        hand.bid(hand.turn, 13)
    assert hand.phase is Phase.PLAYING


def test_can_bid_mirrors_verify_bid() -> None:
    hand = new_hand(EAST)
    assert hand.can_bid(SOUTH, NIL)
    assert not hand.can_bid(SOUTH, 14)
    assert not hand.can_bid(NORTH, 3)
