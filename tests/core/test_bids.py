"""Bids are read, written and named in one place (``spades.core.bids``)."""

from __future__ import annotations

import itertools

import pytest

from spades.core import (
    BLIND_NIL,
    NIL,
    Bid,
    BidProblem,
    BidReadError,
    BidSyntax,
    Rule,
    bid_name,
    bid_to_json,
    is_nil,
    parse_bid,
    read_bid,
)
from spades.core.cards import DECK_SIZE, SPADES, SUIT_OF
from spades.core.hand import beats, trick_winner, winning_position


@pytest.mark.parametrize(
    ("written", "bid"),
    [("nil", NIL), (" NIL ", NIL), ("blind nil", BLIND_NIL), ("Blind_Nil", BLIND_NIL),
     ("blind-nil", BLIND_NIL), ("7", 7), (13, 13), (1, 1)],
)  # fmt: skip
def test_a_bid_is_read_from_its_words_or_its_number(written: object, bid: int) -> None:
    assert parse_bid(written) == bid


@pytest.mark.parametrize("written", [0, "0", "zero", "", None, True, 2.0, [3]])
def test_anything_else_is_refused_saying_what_a_bid_is(written: object) -> None:
    with pytest.raises(ValueError, match="is not a bid"):
        parse_bid(written)


def test_every_bid_is_written_and_read_back_the_same() -> None:
    for bid in (NIL, BLIND_NIL, *range(1, 14)):
        assert parse_bid(bid_to_json(bid)) == bid
        assert Bid(bid).to_json() == bid_to_json(bid)
        assert Bid(bid).name == bid_name(bid)


def test_nil_and_blind_nil_are_both_promises_of_no_trick() -> None:
    assert is_nil(NIL) and is_nil(BLIND_NIL) and not any(is_nil(b) for b in range(1, 14))
    assert Bid(BLIND_NIL).is_blind and not Bid(NIL).is_blind
    assert Bid(BLIND_NIL).tricks == Bid(NIL).tricks == 0 and Bid(5).tricks == 5
    assert (repr(Bid(NIL)), repr(Bid(BLIND_NIL)), repr(Bid(4))) == (
        "Bid.NIL",
        "Bid.BLIND_NIL",
        "Bid(4)",
    )


@pytest.mark.parametrize("value", [14, -2, True])
def test_a_bid_value_outside_the_game_is_no_bid(value: int) -> None:
    with pytest.raises(ValueError, match="is not a bid"):
        Bid(value)


def test_rule_codes_are_an_enum_written_as_their_strings() -> None:
    assert Rule.FOLLOW_SUIT == "follow-suit"
    assert f"{Rule.SPADES_BROKEN}" == "spades-broken"
    assert len({rule.value for rule in Rule}) == len(Rule)


def _slow_beats(card: int, best: int) -> bool:
    """The rule as the rule page says it, independently of the card encoding."""
    if SUIT_OF[card] == SUIT_OF[best]:
        return card % 13 > best % 13
    return SUIT_OF[card] == SPADES


def test_beats_is_the_rule_page_s_rule_for_every_pair_of_cards() -> None:
    for card, best in itertools.permutations(range(DECK_SIZE), 2):
        assert beats(card, best) is _slow_beats(card, best), (card, best)


def test_the_trick_winner_is_the_card_nothing_after_it_beats() -> None:
    trick = [30, 31, 40, 12]  # 6H, 7H, 3S, AC
    assert winning_position(trick) == 2
    assert trick_winner(1, trick) == 3


# Each surface's reading is read_bid with its syntax: what each accepts, and the
# problem each refusal names (the surfaces word it; tests/server and tests/protocol
# pin their words).
READINGS = [
    # value,       TEXT,        JSON,                      TYPED
    ("nil",        NIL,         NIL,                       NIL),
    ("blind nil",  BLIND_NIL,   BLIND_NIL,                 BidProblem.NOT_A_BID),
    ("4",          4,           BidProblem.QUOTED_NUMBER,  4),
    (4,            4,           4,                         BidProblem.NOT_A_BID),
    (14,           14,          14,                        BidProblem.NOT_A_BID),
    ("0",          BidProblem.ZERO, BidProblem.QUOTED_NUMBER, BidProblem.ZERO),
    (0,            BidProblem.ZERO, BidProblem.ZERO,       BidProblem.NOT_A_BID),
    ("three",      BidProblem.NOT_A_BID, BidProblem.NOT_A_BID, BidProblem.NOT_A_BID),
    (True,         BidProblem.NOT_A_BID, BidProblem.NOT_A_BID, BidProblem.NOT_A_BID),
]  # fmt: skip


@pytest.mark.parametrize(("value", "text", "wire", "typed"), READINGS)
def test_one_reader_reads_bids_as_strictly_as_its_syntax_says(
    value: object, text: object, wire: object, typed: object
) -> None:
    for syntax, expected in (
        (BidSyntax.TEXT, text),
        (BidSyntax.JSON, wire),
        (BidSyntax.TYPED, typed),
    ):
        if isinstance(expected, BidProblem):
            with pytest.raises(BidReadError) as refused:
                read_bid(value, syntax)
            assert refused.value.problem is expected, (value, syntax)
        else:
            assert read_bid(value, syntax) == expected, (value, syntax)


def test_a_bid_out_of_range_is_refused_only_when_asked() -> None:
    assert read_bid(14, BidSyntax.TEXT) == 14  # the engine's to refuse, naming the rule
    with pytest.raises(BidReadError) as refused:
        read_bid(14, BidSyntax.TEXT, in_range=True)
    assert refused.value.problem is BidProblem.OUT_OF_RANGE
