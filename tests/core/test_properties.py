"""Properties over many random games (hypothesis chooses the seeds)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.core import (
    FULL_DECK,
    NIL,
    Game,
    HandState,
    Phase,
    game_from_record,
    game_to_record,
    score_hand,
)
from spades.core.record import record_to_json

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
# 13 tricks split among four seats: three cut points in 0..13.
TRICK_SPLITS = st.lists(st.integers(0, 13), min_size=3, max_size=3).map(
    lambda cuts: [b - a for a, b in zip([0, *sorted(cuts)], [*sorted(cuts), 13], strict=True)]
)


def play_random_game(seed: int, max_hands: int = 40) -> Game:
    """Bids weighted like real play (mostly 2..4, sometimes Nil) so games last."""
    rng = random.Random(seed)
    game = Game(seed=seed)
    while not game.is_over and len(game.history) < max_hands:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, rng.choice([NIL, 1, 2, 3, 3, 4, 4, 5]))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
    return game


def check_hand_is_legal(state: HandState) -> None:
    """Re-play a finished hand through the checked API, card by card."""
    assert state.deal[0] | state.deal[1] | state.deal[2] | state.deal[3] == FULL_DECK
    assert sum(mask.bit_count() for mask in state.deal) == 52
    replay = HandState.from_deal(state.dealer, state.deal)
    for seat in state.bid_order:
        bid = state.bids[seat]
        assert bid is not None
        replay.bid(seat, bid)
    assert len(state.tricks) == 13
    for trick in state.tricks:
        assert replay.turn == trick.leader
        for position, card in enumerate(trick.cards):
            replay.play((trick.leader + position) & 3, card)
        assert replay.tricks[-1].winner == trick.winner
    assert replay.tricks_won == state.tricks_won and sum(state.tricks_won) == 13


@settings(max_examples=30)
@given(SEEDS)
def test_random_games_are_legal_consistent_and_round_trip(seed: int) -> None:
    game = play_random_game(seed)
    totals, bags = [0, 0], [0, 0]
    for scored in game.history:
        check_hand_is_legal(scored.state)
        bids = [NIL if b is None else b for b in scored.state.bids]
        assert scored.scores == score_hand(bids, scored.state.tricks_won, tuple(bags))
        for team in (0, 1):
            totals[team] += scored.scores[team].delta
            bags[team] = scored.scores[team].bags
            assert 0 <= bags[team] < 10
        assert scored.totals == tuple(totals)
    record = game_to_record(game)
    assert game_to_record(game_from_record(record)) == record
    assert record_to_json(record) == record_to_json(game_to_record(game_from_record(record)))


@settings(max_examples=200)
@given(
    st.lists(st.sampled_from([NIL, *range(1, 14)]), min_size=4, max_size=4),
    TRICK_SPLITS,
    st.integers(0, 9),
    st.integers(0, 9),
)
def test_hand_score_adds_up(bids: list[int], tricks: list[int], ns_bags: int, ew_bags: int) -> None:
    for team, score in enumerate(score_hand(bids, tricks, (ns_bags, ew_bags))):
        before = (ns_bags, ew_bags)[team]
        assert score.delta == (
            score.bid_points + score.overtricks + score.nil_points - score.bag_penalty_points
        )
        assert before + score.bags_taken == score.bags + 10 * score.bag_penalties
        assert 0 <= score.bags < 10
        seats = (team, team + 2)
        assert score.bags_taken == score.overtricks + sum(
            tricks[s] for s in seats if bids[s] == NIL
        )
