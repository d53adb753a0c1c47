"""``analyze_hand``: each play judged against the solver, mistakes named in words."""

from __future__ import annotations

import random

from spades.analysis import HandReview, analyze_hand
from spades.core.cards import mask_of, parse_cards
from spades.core.hand import HandState, Phase, deal
from spades.core.naming import Naming
from spades.solver import Solver

# Two hands played by the built-in "normal" bots (kept as data, so the tests do
# not depend on how the bots play today).
CONTRACT_HAND = {
    "dealer": 2,
    "bids": [(3, 0), (0, 2), (1, 5), (2, 7)],
    "deal": [
        "2C 4C KC 3D 7D AD 4H 5H 8H 9H KH 2S QS",
        "3C 6C 8C TD QD KD 7H JH AH 7S 8S TS AS",
        "7C 9C JC QC TH QH 3S 4S 5S 6S 9S JS KS",
        "5C TC AC 2D 4D 5D 6D 8D 9D JD 2H 3H 6H",
    ],
    "cards": "2H 4H 7H TH 7C 5C 2C 3C 9C TC 4C 6C AC KC 8C JC 2D AD TD QH 3D QD 3S 4D QC "
    "3H 7D 7S AH 4S 6H 5H KS 5D 2S AS JH 5S 6D 8H JS 8D QS 8S KH TS 6S 9D KD 9S JD 9H",
}
NIL_HAND = {
    "dealer": 1,
    "bids": [(2, 5), (3, 2), (0, 0), (1, 2)],
    "deal": [
        "2C 4C TC 3D 5D 9D AD 3H 7H TH JH QH JS",
        "6C JC 4D 7D 8D 2H 4H 6H 9H 3S TS KS AS",
        "3C 5C KC 6D TD JD KD KH AH 2S 4S 6S QS",
        "7C 8C 9C QC AC 2D QD 5H 8H 5S 7S 8S 9S",
    ],
    "cards": "AH 5H QH 2H KH 8H JH 4H KD 2D 9D 4D JD QD 5D 7D 7C 4C 6C 3C 8C 2C JC 5C 6H 2S "
    "9C TH TD QC 3D 8D 6D AC AD 9H TC 3S KC 5S 7S JS TS 6S 3H KS 4S 8S AS QS 9S 7H",
}


def played(hand: dict[str, object], cards: int = 52) -> HandState:
    texts = hand["deal"]
    assert isinstance(texts, list)
    state = HandState.from_deal(int(str(hand["dealer"])), [mask_of(parse_cards(t)) for t in texts])
    bids = hand["bids"]
    assert isinstance(bids, list)
    for seat, bid in bids:
        state.bid(seat, bid)
    for card in parse_cards(str(hand["cards"]))[:cards]:
        state.play(state.turn, card)
    return state


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
