"""The unchecked fast path, undo and clone agree with the checked API."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.core import HandState, Phase, score_hand
from spades.core.hand import RandomBits, deal, nth_card
from tests.pure import load_source


def snapshot(hand: HandState) -> tuple[object, ...]:
    return (
        tuple(hand.hands), tuple(hand.bids), tuple(hand.bid_order), hand.turn, hand.phase,
        hand.leader, tuple(hand.trick), tuple(hand.tricks), tuple(hand.tricks_won),
        hand.spades_broken, hand.legal_mask(),
    )  # fmt: skip


@settings(max_examples=60)
@given(st.integers(0, 2**32), st.integers(0, 3))
def test_undo_restores_every_earlier_position(seed: int, dealer: int) -> None:
    rng = random.Random(seed)
    hand = HandState(dealer, deal(rng))
    history = [snapshot(hand)]
    while hand.phase is not Phase.OVER:
        if hand.phase is Phase.BIDDING:
            hand.apply_bid(rng.randrange(14))
        else:
            hand.apply_play(rng.choice(hand.legal_cards()))
        history.append(snapshot(hand))
    while len(history) > 1:
        history.pop()
        hand.undo()
        assert snapshot(hand) == history[-1]


def test_clone_is_independent() -> None:
    rng = random.Random(5)
    hand = HandState(0, deal(rng))
    copy = hand.clone()
    hand.random_playout(rng)
    assert copy.phase is Phase.BIDDING and copy.hands == list(copy.deal)
    copy.random_playout(rng)
    assert copy.phase is Phase.OVER


@settings(max_examples=40)
@given(st.integers(0, 2**32))
def test_random_playout_plays_only_legal_cards(seed: int) -> None:
    rng = random.Random(seed)
    hand = HandState.from_deal(seed % 4, deal(rng))
    hand.random_playout(rng)
    replay = HandState.from_deal(hand.dealer, hand.deal)
    for seat in hand.bid_order:
        bid = hand.bids[seat]
        assert bid is not None
        replay.bid(seat, bid)
    for trick in hand.tricks:
        for position, card in enumerate(trick.cards):
            replay.play((trick.leader + position) & 3, card)  # checked: raises if illegal
    assert replay.tricks == hand.tricks
    score_hand([b or 0 for b in hand.bids], hand.tricks_won)


def test_random_bits_are_uniform() -> None:
    bits = RandomBits(random.Random(1))
    counts = [0] * 13
    for _ in range(13000):
        counts[bits.below(13)] += 1
    assert all(850 < c < 1150 for c in counts)


def test_nth_card_walks_the_mask_upwards() -> None:
    assert [nth_card(0b101100, i) for i in range(3)] == [2, 3, 5]


def test_compiled_and_interpreted_engines_play_identical_hands() -> None:
    source = load_source("hand")
    for seed in range(30):
        compiled = HandState(seed % 4, deal(random.Random(seed)))
        interpreted = source.HandState(seed % 4, source.deal(random.Random(seed)))
        assert compiled.deal == interpreted.deal
        compiled.random_playout(random.Random(seed))
        interpreted.random_playout(random.Random(seed))
        assert compiled.tricks == interpreted.tricks
        assert compiled.bids == interpreted.bids
