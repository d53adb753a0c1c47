"""Playing a hand: follow suit, no spade lead until broken, the trick winner."""

import pytest

from spades.core import (
    EAST,
    NORTH,
    SOUTH,
    SUIT_MASKS,
    WEST,
    HandState,
    IllegalCardError,
    NotYourTurnError,
    Phase,
    beating_cards,
    beats,
    cards_above,
    cards_below,
    parse_card,
    trick_winner,
)
from spades.core.cards import parse_cards
from tests.helpers import deal_with, hand_after_bids, play_names

# North deals, so East bids first and leads the first trick.
SPADE_LEADER = deal_with(
    E="AS KS QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
    S="2S 3S 4S 5S 6S 7S 8S 9S TS JS QH KH AH",
)


def snapshot(hand: HandState) -> tuple[object, ...]:
    return (
        tuple(hand.hands), tuple(hand.trick), len(hand.tricks), hand.turn,
        hand.spades_broken, tuple(hand.tricks_won), hand.leader, hand.phase,
    )  # fmt: skip


def test_left_of_dealer_leads_first_trick() -> None:
    hand = hand_after_bids(NORTH, SPADE_LEADER)
    assert hand.turn == EAST == hand.leader


def test_first_lead_may_not_be_a_spade() -> None:
    hand = hand_after_bids(NORTH, SPADE_LEADER)
    before = snapshot(hand)
    with pytest.raises(IllegalCardError, match="may not lead a spade to the first trick") as error:
        hand.play(EAST, parse_card("AS"))
    assert error.value.rule == "first-lead"
    assert snapshot(hand) == before
    assert parse_card("AS") not in hand.legal_cards()


def test_first_lead_may_be_a_spade_from_a_hand_of_only_spades() -> None:
    deal = deal_with(E="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    hand = hand_after_bids(NORTH, deal)
    assert hand.legal_cards() == parse_cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    hand.play(EAST, parse_card("2S"))
    assert hand.spades_broken  # leading from an all-spade hand breaks spades


def test_must_follow_suit_when_able() -> None:
    hand = hand_after_bids(NORTH, SPADE_LEADER)
    hand.play(EAST, parse_card("2H"))
    before = snapshot(hand)
    with pytest.raises(IllegalCardError, match="You must follow suit: you hold a heart") as error:
        hand.play(SOUTH, parse_card("2S"))
    assert error.value.rule == "follow-suit"
    assert snapshot(hand) == before
    assert hand.legal_cards() == parse_cards("QH KH AH")


def test_a_void_player_may_play_any_card_including_a_spade() -> None:
    deal = deal_with(
        E="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        S="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )
    hand = hand_after_bids(NORTH, deal)
    hand.play(EAST, parse_card("2H"))
    assert len(hand.legal_cards()) == 13
    hand.play(SOUTH, parse_card("2S"))  # trumps in
    assert hand.spades_broken


def test_no_spade_lead_before_spades_are_broken_then_any_lead() -> None:
    deal = deal_with(
        E="AH KH QH JH TH 9H 8H 7H 6H 5H AS 2C 3C",
        S="2H 2S",
        W="3H 3S",
        N="4H 4S",
    )
    hand = hand_after_bids(NORTH, deal)
    play_names(hand, "AH 2H 3H 4H")  # East wins the first trick; no spade yet
    assert hand.turn == EAST and not hand.spades_broken
    before = snapshot(hand)
    with pytest.raises(IllegalCardError, match="Spades are not broken yet") as error:
        hand.play(EAST, parse_card("AS"))
    assert error.value.rule == "spades-broken"
    assert snapshot(hand) == before
    assert parse_card("AS") not in hand.legal_cards()
    play_names(hand, "KH 2S 3S 4S")  # South ruffs, West and North over-ruff
    assert hand.spades_broken and hand.turn == NORTH
    assert hand.legal_mask() == hand.hands[NORTH]  # now any card may be led


def test_trumping_breaks_spades_and_spades_may_then_be_led() -> None:
    deal = deal_with(
        E="2H 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        S="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2D",
        W="3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH 3D",
    )
    hand = hand_after_bids(NORTH, deal)
    play_names(hand, "2H")  # East leads the 2H
    play_names(hand, "2S")  # South is void in hearts and ruffs
    play_names(hand, "AH")  # West follows
    hand.play(NORTH, hand.legal_cards()[0])
    assert hand.spades_broken
    assert hand.tricks[0].winner == SOUTH and hand.turn == SOUTH
    hand.play(SOUTH, parse_card("3S"))  # spades are broken: a spade lead is fine


def test_highest_spade_wins_else_highest_of_led_suit() -> None:
    assert trick_winner(NORTH, parse_cards("4H KH 2S AH")) == SOUTH
    assert trick_winner(NORTH, parse_cards("4H KH 2D AH")) == WEST
    assert trick_winner(NORTH, parse_cards("AD 2S 3S KD")) == SOUTH
    assert trick_winner(EAST, parse_cards("5C AD AH 4C")) == EAST  # off-suit aces lose
    assert trick_winner(WEST, parse_cards("2S AS 3S 4S")) == NORTH


def test_trick_winner_leads_the_next_trick() -> None:
    deal = deal_with(E="2H", S="AH", W="3H", N="4H")
    hand = hand_after_bids(NORTH, deal)
    play_names(hand, "2H AH 3H 4H")
    assert hand.tricks[-1].winner == SOUTH
    assert hand.turn == SOUTH == hand.leader
    assert hand.tricks_won == [0, 0, 1, 0]


def test_playing_out_of_turn_names_whose_turn_it_is() -> None:
    hand = hand_after_bids(NORTH, SPADE_LEADER)
    before = snapshot(hand)
    with pytest.raises(NotYourTurnError, match="It is East's turn to play"):
        hand.play(SOUTH, parse_card("QH"))
    assert snapshot(hand) == before


def test_playing_during_bidding_is_refused() -> None:
    hand = HandState.from_deal(NORTH, SPADE_LEADER)
    with pytest.raises(NotYourTurnError, match="bidding is not over: it is East's turn to bid"):
        hand.play(EAST, parse_card("2H"))


def test_a_card_not_held_is_refused() -> None:
    hand = hand_after_bids(NORTH, SPADE_LEADER)
    with pytest.raises(IllegalCardError, match="You do not hold the Queen of hearts"):
        hand.play(EAST, parse_card("QH"))


def test_thirteen_tricks_end_the_hand() -> None:
    hand = hand_after_bids(NORTH, SPADE_LEADER)
    while hand.phase is Phase.PLAYING:
        hand.play(hand.turn, hand.legal_cards()[0])
    assert len(hand.tricks) == 13 and sum(hand.tricks_won) == 13
    assert hand.hands == [0, 0, 0, 0] and hand.to_act is None
    with pytest.raises(NotYourTurnError, match="hand is over"):
        hand.play(EAST, parse_card("2H"))


def test_the_cards_that_beat_a_card_are_the_ones_beats_names() -> None:
    # The mask form serves bots that ask of a whole hand; it must be the same rule.
    for best in range(52):
        expected = sum(1 << card for card in range(52) if beats(card, best))
        assert beating_cards(best) == expected, best
        assert cards_above(best) | cards_below(best) | 1 << best == SUIT_MASKS[best // 13]
