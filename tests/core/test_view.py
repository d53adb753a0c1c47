"""A seat's view holds its own cards and public facts, never another hand."""

import random

from spades.core import SEATS, SOUTH, Game, Phase, PlayerView
from spades.core.cards import FULL_DECK, parse_cards
from tests.helpers import deal_with, hand_after_bids, play_names


def hidden_cards_in(view: PlayerView, game: Game) -> int:
    """Cards of other seats, not yet played, that appear anywhere in the view."""
    others = 0
    for seat in SEATS:
        if seat != view.seat:
            others |= game.hand.hands[seat]
    found = 0
    for name in PlayerView.FIELDS:
        value = getattr(view, name)
        if name == "hand":
            found |= value & others
    return found


def test_a_view_shows_only_the_seats_own_unplayed_cards() -> None:
    game = Game(seed=12)
    rng = random.Random(12)
    for _ in range(30):
        seat = game.to_act
        assert seat is not None
        for viewer in SEATS:
            view = game.view(viewer)
            assert view.hand == game.hand.hands[viewer]
            assert hidden_cards_in(view, game) == 0
            assert view.unseen & view.hand == 0
            assert view.unseen | view.hand | view.played == FULL_DECK
        if game.phase is Phase.BIDDING:
            game.bid(seat, 3)
        else:
            game.play(seat, rng.choice(game.legal_cards()))


def test_a_view_carries_no_reference_to_the_full_state() -> None:
    view = Game(seed=1).view(SOUTH)
    for name in PlayerView.FIELDS:
        assert not hasattr(getattr(view, name), "hands"), name


def test_legal_moves_from_the_view_match_the_engine() -> None:
    game = Game(seed=13)
    rng = random.Random(13)
    while not game.is_over and len(game.history) < 2:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        other = game.view((seat + 1) % 4)
        assert other.legal_cards() == [] and other.legal_bids() == []
        if game.phase is Phase.BIDDING:
            assert view.legal_bids() == game.legal_bids()
            game.bid(seat, rng.choice(view.legal_bids()))
        else:
            assert view.legal_cards() == game.legal_cards()
            game.play(seat, rng.choice(view.legal_cards()))


def test_voids_shown_by_failing_to_follow_are_public() -> None:
    deal = deal_with(
        E="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        S="2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )
    hand = hand_after_bids(0, deal)
    play_names(hand, "2H 2S")
    view = PlayerView.of(hand, 3)
    assert view.void_suits(SOUTH) == {2}  # hearts
    assert view.plays() == [(1, parse_cards("2H")[0]), (2, parse_cards("2S")[0])]
    assert view.spades_broken


def test_voids_of_all_seats_agree_with_each_seats_plays() -> None:
    """The one-pass answer for all seats is exactly "led suit not followed"."""
    from spades.core.cards import SUIT_OF

    rng = random.Random(5)
    for seed in range(20):
        game = Game(seed=seed)
        for _ in range(4 + 52):  # one hand: four bids, then every card
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if view.phase is Phase.BIDDING:
                game.bid(seat, rng.choice(view.legal_bids()))
                continue
            by_seat = view.voids_by_seat()
            for each in SEATS:
                expected = set()
                for trick in (
                    *((t.leader, t.cards) for t in view.tricks),
                    (view.leader, view.trick),
                ):
                    leader, cards = trick
                    expected |= {
                        SUIT_OF[cards[0]]
                        for position, card in enumerate(cards)
                        if (leader + position) % 4 == each and SUIT_OF[card] != SUIT_OF[cards[0]]
                    }
                assert by_seat[each] == expected == view.void_suits(each)
            game.play(seat, rng.choice(view.legal_cards()))


def test_a_state_rebuilt_from_a_view_and_the_true_hands_is_the_same_position() -> None:
    from spades.core import state_from_view

    game = Game(seed=31)
    rng = random.Random(31)
    for _ in range(27):
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, 3)
        else:
            game.play(seat, rng.choice(game.legal_cards()))
        view = game.view(SOUTH)
        rebuilt = state_from_view(view, game.hand.hands)
        assert rebuilt.deal == game.hand.deal
        assert rebuilt.tricks == game.hand.tricks and rebuilt.trick == game.hand.trick
        assert rebuilt.turn == game.hand.turn and rebuilt.legal_mask() == game.hand.legal_mask()
