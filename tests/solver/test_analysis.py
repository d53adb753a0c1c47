"""``analyze_hand``: each play judged against the solver, mistakes named in words."""

from __future__ import annotations

import random

from spades.analysis import HandReview, analyze_hand
from spades.core.hand import HandState, Phase, deal
from spades.core.naming import Naming
from spades.solver import Solver

from .hands import CONTRACT_HAND, NIL_HAND, played


def replay(state: HandState, count: int) -> HandState:
    fresh = HandState(state.dealer, state.deal)
    for seat in state.bid_order:
        fresh.apply_bid(state.bids[seat] or 0)
    for card in [c for trick in state.tricks for c in trick.cards][:count]:
        fresh.apply_play(card)
    return fresh


def check_against_solver(state: HandState, review: HandReview) -> None:
    """Every judged play's before/after totals are the solver's, mistakes are
    exactly the drops, and each better card named is legal and keeps the total."""
    first = 4 * (review.first_trick - 1)
    solver = Solver()
    for index, play in enumerate(review.plays):
        position = replay(state, first + index)
        assert position.turn == play.seat
        team = play.seat & 1
        if not play.judged:
            continue
        won = sum(1 for trick in position.tricks if trick.winner & 1 == team)
        assert play.before == won + solver.tricks(position, 0b0101 << team)
        assert play.after is not None and play.before >= play.after
        if play.tricks_lost:
            assert (
                play.is_mistake
                and play.best
                and play.explanation.startswith(
                    f"{['North', 'East', 'South', 'West'][play.seat]}'s "
                )
            )
            legal = position.legal_cards()
            assert all(card in legal and card != play.card for card in play.best)
    assert review.tricks_lost == tuple(
        sum(play.tricks_lost for play in review.plays if play.seat == seat) for seat in range(4)
    )
    for before, after in zip(review.plays, review.plays[1:], strict=False):
        if before.judged and after.judged:  # the same position seen from each side
            assert before.after == (
                after.before if before.seat & 1 == after.seat & 1 else 13 - (after.before or 0)
            )


def test_a_card_that_sinks_a_makeable_contract_is_named() -> None:
    state = played(CONTRACT_HAND)
    review = analyze_hand(state, from_trick=10)
    check_against_solver(state, review)
    (culprit,) = [play for play in review.plays if play.contract_lost]
    assert culprit.trick == 11 and culprit.seat == 2
    assert "cost a trick" in culprit.explanation
    assert "it also cost the contract: the 9 of spades still made 9" in culprit.explanation


def test_a_card_that_makes_a_nil_unholdable_is_named() -> None:
    state = played(NIL_HAND)
    review = analyze_hand(state, from_trick=8)
    (culprit,) = [play for play in review.plays if play.nil_lost is not None]
    assert culprit.nil_lost == 0 and culprit.seat == 2 and culprit.trick == 9
    assert (
        culprit.explanation
        == "South's 6 of diamonds cost North's Nil: the King of clubs kept it safe"
    )
    # The page says the same to its player, South, as "you".
    page = analyze_hand(state, from_trick=8, naming=Naming(reader=2))
    (yours,) = [play for play in page.plays if play.nil_lost is not None]
    assert (
        yours.explanation == "Your 6 of diamonds cost North's Nil: the King of clubs kept it safe"
    )
    # The solver agrees: holdable before the 6D, not after; the KC keeps it.
    before = replay(state, 4 * (review.first_trick - 1) + review.plays.index(culprit))
    solver = Solver()
    assert solver.nil_holds(before, 0)
    after = before.clone()
    after.apply_play(culprit.card)
    assert not solver.nil_holds(after, 0)
    keeper = before.clone()
    keeper.apply_play(culprit.best[0])
    assert solver.nil_holds(keeper, 0)
    assert dict(review.nil_from) == {0: 8}


def test_whole_hands_of_random_play_agree_with_the_solver() -> None:
    rng = random.Random(2)
    for _ in range(3):
        state = HandState(rng.randrange(4), deal(rng))
        for _ in range(4):
            state.apply_bid(rng.choice([0, 2, 3, 4]))
        while state.phase is Phase.PLAYING:
            state.apply_play(rng.choice(state.legal_cards()))
        review = analyze_hand(state, from_trick=4)
        assert len(review.plays) == 40 and review.first_trick == 4
        assert review.mistakes  # random play is never perfect
        check_against_solver(state, review)


def test_an_unfinished_hand_is_reviewed_as_far_as_it_went() -> None:
    state = played(CONTRACT_HAND, cards=45)
    review = analyze_hand(state, from_trick=10)
    assert len(review.plays) == 45 - 36
    check_against_solver(state, review)


def test_positions_too_hard_for_the_limit_are_left_unjudged() -> None:
    state = played(CONTRACT_HAND)
    review = analyze_hand(state, from_trick=1, limit=200, nil_limit=200)
    assert review.unjudged > 0
    assert all(play.tricks_lost == 0 for play in review.plays if not play.judged)
    late = [play for play in review.plays if play.trick >= 12]
    assert all(play.judged for play in late)  # small enough to solve within the limit


def test_the_review_is_plain_data() -> None:
    import dataclasses
    import json

    review = analyze_hand(played(NIL_HAND), from_trick=12)
    data = dataclasses.asdict(review)
    assert json.loads(json.dumps(data))["number"] == 1
    assert data["plays"][0]["seat"] == review.plays[0].seat
