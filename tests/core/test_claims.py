"""Claims: what a claim means (who is credited with which tricks), how a held
claim ends and scores the hand, and how the record keeps claims."""

from __future__ import annotations

from typing import Any

import pytest

from spades.core import (
    NIL,
    Game,
    IllegalClaimError,
    RecordError,
    claim_terms,
    game_from_record,
    game_to_record,
)
from spades.core.hand import HandState
from spades.core.seats import EAST, NORTH, SOUTH, WEST
from tests.helpers import deal_with

# East deals, so South bids first and leads: bids below are in the order S, W, N, E.
DEAL = deal_with(S="AS KS QS JS", N="AH KH")


def hand(bids: tuple[int, int, int, int], cards: int = 0) -> HandState:
    state = HandState.from_deal(EAST, DEAL)
    for bid in bids:
        state.bid(state.turn, bid)
    for _ in range(cards):
        state.play(state.turn, state.legal_cards()[0])
    return state


def test_without_a_nil_the_claimer_is_credited_and_the_rest_is_conceded_to_the_next_seat() -> None:
    terms = claim_terms(hand((4, 3, 3, 3)), SOUTH, 9)
    assert terms.left == 13
    assert terms.counted == (1 << NORTH) | (1 << SOUTH)  # both partners' tricks count
    assert terms.awarded == (0, 0, 9, 4)  # N, E, S, W: West, after South, takes the rest


def test_the_trick_in_progress_counts_as_left() -> None:
    assert claim_terms(hand((4, 3, 3, 3), cards=6), SOUTH, 12).left == 12


def test_with_a_nil_on_the_side_only_every_trick_may_be_claimed_for_the_other_partner() -> None:
    state = hand((4, 3, NIL, 3))  # North bid Nil
    terms = claim_terms(state, SOUTH, 13)
    assert terms.counted == 1 << SOUTH and terms.awarded == (0, 0, 13, 0)
    with pytest.raises(IllegalClaimError, match="With North's Nil in play, claim all 13"):
        claim_terms(state, SOUTH, 12)
    # North may claim too: the tricks are South's all the same.
    assert claim_terms(state, NORTH, 13).awarded == (0, 0, 13, 0)


def test_no_claim_when_both_partners_bid_nil() -> None:
    with pytest.raises(IllegalClaimError, match="both bid Nil") as refused:
        claim_terms(hand((NIL, 3, NIL, 3)), SOUTH, 13)
    assert refused.value.rule == "claim"


def test_conceded_tricks_go_to_the_defender_who_did_not_bid_nil() -> None:
    assert claim_terms(hand((4, NIL, 3, 3)), SOUTH, 10).awarded == (0, 3, 10, 0)
    assert claim_terms(hand((4, NIL, 3, 3)), SOUTH, 13).awarded == (0, 0, 13, 0)
    with pytest.raises(IllegalClaimError, match="West and East both bid Nil"):
        claim_terms(hand((4, NIL, 3, NIL)), SOUTH, 12)


@pytest.mark.parametrize("tricks", [0, 14, -1])
def test_a_claim_names_one_to_all_of_the_tricks_left(tricks: int) -> None:
    with pytest.raises(IllegalClaimError, match="13 tricks are left: claim from 1 to 13"):
        claim_terms(hand((4, 3, 3, 3)), SOUTH, tricks)


def test_no_claim_during_the_bidding() -> None:
    state = HandState.from_deal(EAST, DEAL)
    with pytest.raises(IllegalClaimError, match="the bidding is not over"):
        claim_terms(state, SOUTH, 13)


# ------------------------------------------------------------------ in a game


def game_in_play(cards: int = 0) -> Game:
    game = Game(seed=5)
    while game.phase.value == "bidding":
        game.bid(game.to_act or 0, 3)
    for _ in range(cards):
        game.play(game.to_act or 0, game.legal_cards()[0])
    return game


def test_a_held_claim_ends_and_scores_the_hand_with_the_tricks_awarded() -> None:
    game = game_in_play(cards=30)  # seven tricks and two cards of the eighth
    before = list(game.hand.tricks_won)
    claimer = game.to_act
    assert claimer is not None
    terms = claim_terms(game.hand, claimer, 4)
    events = game.claim(claimer, 4)
    scored = game.history[-1]
    assert [type(e).__name__ for e in events] == ["HandScored", "HandDealt"]
    assert list(scored.state.tricks_won) == [
        b + a for b, a in zip(before, terms.awarded, strict=True)
    ]
    assert sum(scored.state.tricks_won) == 13
    assert game.hand_number == 2 and game.claims[-1].held and game.claims[-1].cards == 30


def test_a_claimed_hand_round_trips_through_the_record() -> None:
    game = game_in_play(cards=30)
    game.refuse_claim(game.to_act or 0, 6, defence=game.hand.tricks[:2])
    game.claim(game.to_act or 0, 4)
    record = game_to_record(game)
    claims = record["hands"][0]["claims"]
    assert [c["held"] for c in claims] == [False, True]
    assert claims[0]["defence"] and "defence" not in claims[1]
    assert len(record["hands"][0]["tricks"]) == 8  # the last one unfinished, winner null
    assert record["hands"][0]["tricks"][-1]["winner"] is None
    restored = game_from_record(record)
    assert game_to_record(restored) == record and restored.claims == game.claims


def test_a_refused_claim_changes_nothing_but_is_kept() -> None:
    game = game_in_play(cards=8)
    before = game_to_record(game)
    seat = game.to_act or 0
    game.refuse_claim(seat, 11)
    after = game_to_record(game)
    assert after["hands"][0].pop("claims") == [
        {"seat": "NESW"[seat], "tricks": 11, "cards": 8, "held": False}
    ]
    assert after == before
    game.play(game.to_act or 0, game.legal_cards()[0])  # the play goes on


def claimed_record() -> dict[str, Any]:
    game = game_in_play(cards=30)
    game.claim(game.to_act or 0, 4)
    return game_to_record(game)


def test_a_held_claim_must_come_after_the_hands_last_card() -> None:
    record = claimed_record()
    record["hands"][0]["claims"][0]["cards"] = 29
    with pytest.raises(RecordError, match="a claim that held ends the hand") as refused:
        game_from_record(record)
    assert refused.value.where == "hand 1, claim 1"


def test_a_claim_with_the_wrong_tricks_awarded_is_refused() -> None:
    record = claimed_record()
    record["hands"][0]["claims"][0]["tricks"] = 5
    with pytest.raises(RecordError) as refused:
        game_from_record(record)
    assert refused.value.rule in ("tricks-won", "score")


def test_a_malformed_claim_is_refused() -> None:
    record = claimed_record()
    record["hands"][0]["claims"][0]["held"] = "yes"
    with pytest.raises(RecordError, match="held must be true or false"):
        game_from_record(record)


def test_claims_outside_a_game_in_play_are_refused() -> None:
    game = game_in_play()
    game.forfeit(WEST, "gone")
    with pytest.raises(Exception, match="game is over"):
        game.claim(SOUTH, 13)


def test_a_refused_claims_defence_names_each_tricks_real_winner() -> None:
    game = game_in_play(cards=12)
    game.refuse_claim(game.to_act or 0, 10, defence=game.hand.tricks[:1])
    record = game_to_record(game)
    trick = record["hands"][0]["claims"][0]["defence"][0]
    assert set(trick) == {"leader", "cards", "winner"}
    trick["winner"] = "NESW"[("NESW".index(trick["winner"]) + 1) % 4]
    with pytest.raises(RecordError, match="wins it") as refused:
        game_from_record(record)
    assert refused.value.rule == "trick-winner"
