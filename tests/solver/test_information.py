"""The review by information: a card is judged over the deals its player could
picture, not against the one layout only the record knows.

The two hands below are written trick by trick (the deal is what each seat
plays), so every fact the tests rely on can be checked by eye:

* West, North and East follow suit to every trick, so none of them shows a void;
* before South's card to trick 12 the only cards South has not seen are the 2C,
  2D and 2H, one in each other hand; East wins trick 12 with the 7H and leads
  trick 13 with its last card.
"""

from __future__ import annotations

import random

from spades.analysis import analyze_hand, equivalent_choices, judge_play, review_by_information
from spades.core import PlayerView
from spades.core.cards import CARD_NAMES, mask_of, parse_card, parse_cards
from spades.core.hand import HandState, Phase, Trick
from spades.core.seats import SOUTH, parse_seat

from .hands import GUESS_ENDING, RUFF_ENDING, RUFF_TRICKS, TRICKS_1_TO_11, hand_from_tricks


def before_card(state: HandState, trick: int, index: int) -> HandState:
    """A copy of ``state``'s hand just before card ``index`` (0..3) of ``trick``."""
    fresh = HandState(state.dealer, state.deal)
    for seat in state.bid_order:
        fresh.apply_bid(state.bids[seat] or 0)
    cards = [card for t in state.tricks for card in t.cards]
    for card in cards[: 4 * (trick - 1) + index]:
        fresh.apply_play(card)
    return fresh


def test_the_deals_are_as_described() -> None:
    state = hand_from_tricks(TRICKS_1_TO_11 + GUESS_ENDING)
    position = before_card(state, 12, 3)
    view = PlayerView.of(position, SOUTH)
    assert {CARD_NAMES[c] for c in range(52) if view.unseen >> c & 1} == {"2C", "2D", "2H"}
    assert all(not view.void_suits(seat) for seat in (0, 1, 3))
    assert state.tricks[11].winner == parse_seat("E")
    assert state.tricks[12].winner == parse_seat("E")  # the QD fell to nothing


def test_a_guess_that_lost_is_a_double_dummy_mistake_but_not_a_mistake() -> None:
    state = hand_from_tricks(TRICKS_1_TO_11 + GUESS_ENDING)
    discard = before_card(state, 12, 3)

    # With every hand visible, keeping the QC wins trick 13: the QC "cost a trick".
    double_dummy = analyze_hand(state, from_trick=12)
    blamed = next(p for p in double_dummy.plays if p.card == parse_card("QC"))
    assert blamed.tricks_lost == 1 and blamed.best == (parse_card("QD"),)

    # From South's seat the two queens are alike: one time in three each.
    judged = judge_play(discard, parse_card("QC"), deals=48, rng=random.Random(1))
    assert judged.judged and judged.options == 2
    assert not judged.is_mistake and judged.explanation == ""

    review = review_by_information(state, from_trick=12, deals=48)
    play = next(p for p in review.plays if p.card == parse_card("QC"))
    assert not play.is_mistake and play.double_dummy_mistake
    assert play in review.only_double_dummy
    assert review.mistakes == ()


def test_throwing_away_a_sure_trick_is_a_mistake_both_ways() -> None:
    state = hand_from_tricks(RUFF_TRICKS + RUFF_ENDING)
    assert state.tricks_won[SOUTH] == 11  # all but tricks 11 and 12
    review = review_by_information(state, from_trick=12, deals=24)
    play = next(p for p in review.plays if p.card == parse_card("QD"))
    assert play.is_mistake and play.lost == ("tricks",)
    assert play.tricks_lost == 1.0 and play.best == parse_card("2S")
    assert play.worse_in == play.deals and play.better_in == 0
    assert play.explanation.startswith(
        "South's Queen of diamonds cost 1.0 trick on average: ruffing with the 2 of spades"
    )
    assert play.double_dummy_mistake  # the second opinion agrees
    assert review.tricks_lost[SOUTH] == 1.0


def test_forced_cards_and_touching_cards_are_not_choices() -> None:
    state = hand_from_tricks(TRICKS_1_TO_11 + GUESS_ENDING)
    # Trick 3, East leads the AC: South's 7C, 8C, TC, JC and QC touch once the 9C
    # is gone: whichever South follows with, nothing changes. One choice.
    follow = before_card(state, 3, 1)
    assert [len(c) for c in equivalent_choices(PlayerView.of(follow, SOUTH))] == [5]
    # Trick 13: one card left.
    last = before_card(state, 13, 1)
    assert judge_play(last, parse_card("QD")).options == 1
    review = review_by_information(state, from_trick=13, deals=4, double_dummy=False)
    assert all(not play.judged for play in review.plays)


def test_the_review_is_reproducible_from_its_seed() -> None:
    state = hand_from_tricks(TRICKS_1_TO_11 + GUESS_ENDING)
    first = review_by_information(state, from_trick=11, deals=12, seed=5)
    again = review_by_information(state, from_trick=11, deals=12, seed=5)
    assert first == again


def test_equivalence_is_split_by_a_card_on_the_table() -> None:
    """West holds the TH and 8H. With the 9H gone in an earlier trick they are
    one choice; with the 9H on the table now, one beats it and the other not."""
    west, south = parse_seat("W"), parse_seat("S")
    hand = mask_of(parse_cards("TH 8H 2C"))
    on_table = PlayerView(
        seat=west, hand=hand, dealer=0, phase=Phase.PLAYING, turn=west,
        bids=((1, 3), (2, 3), (3, 3), (0, 3)), leader=south, trick=(parse_card("9H"),),
        tricks=(), tricks_won=(0, 0, 0, 0), spades_broken=False,
    )  # fmt: skip
    assert equivalent_choices(on_table) == [(parse_card("8H"),), (parse_card("TH"),)]
    gone = on_table.replace(
        trick=(parse_card("3H"),),
        tricks=(Trick(0, tuple(parse_cards("9H 4H 5H 6H")), 0),),
    )
    assert equivalent_choices(gone) == [(parse_card("8H"), parse_card("TH"))]
