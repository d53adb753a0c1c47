"""Card notation: rank then suit, 2..9 T J Q K A and S H D C; 10 also accepted."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades.core import (
    card_long_name,
    card_name,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from spades.core.cards import CARD_NAMES, DECK_SIZE, SPADES, cards_in, sorted_for_display


def test_notation_is_rank_then_suit() -> None:
    assert card_name(parse_card("TD")) == "TD"
    assert card_long_name(parse_card("TD")) == "10 of diamonds"
    assert card_long_name(parse_card("AS")) == "Ace of spades"


def test_ten_may_be_written_10() -> None:
    assert parse_card("10D") == parse_card("TD")
    assert parse_card("10h") == parse_card("th")


def test_every_card_round_trips_through_its_name() -> None:
    assert len(set(CARD_NAMES)) == DECK_SIZE
    for card in range(DECK_SIZE):
        assert parse_card(card_name(card)) == card


@pytest.mark.parametrize("text", ["", "1S", "11H", "AX", "ZZ", "A", "ASS", "10"])
def test_malformed_card_is_refused_with_the_notation(text: str) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(text)


def test_spades_are_the_highest_suit_and_aces_high() -> None:
    assert suit_of(parse_card("2S")) == SPADES
    assert parse_card("AH") > parse_card("KH") > parse_card("2H")
    assert all(parse_card("2S") > parse_card(f"A{suit}") for suit in "HDC")
    assert rank_of(parse_card("AC")) == 12


@given(st.sets(st.integers(0, DECK_SIZE - 1)))
def test_masks_hold_exactly_their_cards(cards: set[int]) -> None:
    mask = mask_of(cards)
    assert sorted(cards) == list(cards_in(mask))
    assert mask.bit_count() == len(cards)


def test_display_order_groups_suits_high_to_low() -> None:
    shown = [card_name(c) for c in sorted_for_display(parse_cards("2D AD 3C KS 2S JH"))]
    assert shown == ["KS", "2S", "JH", "3C", "AD", "2D"]
