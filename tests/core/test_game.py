"""A whole game: seeded deals, the first dealer, rotation, totals and the end."""

import itertools
import random

import pytest

from spades.core import (
    EAST,
    NIL,
    NORTH,
    SOUTH,
    Game,
    GameOverError,
    HandDealt,
    HandScored,
    Phase,
    Rules,
    TrickWon,
    game_to_record,
)
from spades.core.seats import next_seat


def play_randomly(game: Game, rng: random.Random, hands: int | None = None) -> None:
    start = len(game.history)
    while not game.is_over and (hands is None or len(game.history) - start < hands):
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, rng.choice([2, 3, 4]))
        else:
            game.play(seat, rng.choice(game.legal_cards()))


def test_a_seed_reproduces_the_first_dealer_and_every_deal() -> None:
    first, second = Game(seed=99), Game(seed=99)
    assert first.hand.dealer == second.hand.dealer
    assert first.hand.deal == second.hand.deal
    play_randomly(first, random.Random(1), hands=2)
    play_randomly(second, random.Random(2), hands=2)  # different play, same deals
    assert [h.state.deal for h in first.history] == [h.state.deal for h in second.history]
    assert first.hand.deal == second.hand.deal


def test_the_first_dealer_is_drawn_at_random_from_the_seed() -> None:
    dealers = {Game(seed=seed).hand.dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_every_hand_deals_thirteen_cards_to_each_seat_from_one_deck() -> None:
    hand = Game(seed=5).hand
    assert [mask.bit_count() for mask in hand.deal] == [13] * 4
    assert hand.deal[0] | hand.deal[1] | hand.deal[2] | hand.deal[3] == (1 << 52) - 1


def test_the_deal_rotates_clockwise_each_hand() -> None:
    game = Game(seed=11)
    play_randomly(game, random.Random(3), hands=3)
    dealers = [h.state.dealer for h in game.history] + [game.hand.dealer]
    for before, after in itertools.pairwise(dealers):
        assert after == next_seat(before)


def test_totals_and_bags_accumulate_across_hands() -> None:
    game = Game(seed=4)
    play_randomly(game, random.Random(4), hands=3)
    totals = [0, 0]
    for scored in game.history:
        for team in (0, 1):
            totals[team] += scored.scores[team].delta
            assert scored.totals[team] == totals[team]
    assert list(game.totals) == totals
    assert game.bags == (game.history[-1].scores[0].bags, game.history[-1].scores[1].bags)


def test_events_tell_the_public_story() -> None:
    game = Game(seed=8)
    assert isinstance(game.log[0], HandDealt)
    play_randomly(game, random.Random(8), hands=1)
    kinds = [type(event).__name__ for event in game.log]
    assert kinds.count("BidMade") == 4 and kinds.count("CardPlayed") == 52
    assert kinds.count("TrickWon") == 13 and kinds.count("HandScored") == 1
    assert kinds[-1] == "HandDealt"
    scored = next(e for e in game.log if isinstance(e, HandScored))
    assert scored.to_dict()["score"]["NS"]["total"] == game.totals[0]
    won = next(e for e in game.log if isinstance(e, TrickWon)).to_dict()
    assert set(won) == {"type", "seat", "leader", "cards"}


def test_game_ends_at_the_target_and_refuses_further_actions() -> None:
    game = Game(Rules(target=50, floor=-1000), seed=21)
    play_randomly(game, random.Random(21))
    assert game.outcome is not None and max(game.totals) >= 50
    assert game.to_act is None and game.legal_cards() == []
    with pytest.raises(GameOverError, match="The game is over"):
        game.bid(SOUTH, 3)
    events_before = len(game.log)
    with pytest.raises(GameOverError):
        game.play(NORTH, 0)
    assert len(game.log) == events_before


def test_game_ends_at_the_floor() -> None:
    game = Game(seed=2)
    rng = random.Random(2)
    while not game.is_over:  # North-South bid 13 each: 26 tricks cannot be made
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, 13 if seat in (NORTH, SOUTH) else 1)
        else:
            game.play(seat, rng.choice(game.legal_cards()))
    assert len(game.history) == 1 and game.totals[0] == -260
    assert game.outcome is not None and game.outcome.winner == EAST % 2
    assert game.outcome.termination.value == "floor"


def test_illegal_actions_change_nothing_in_the_game() -> None:
    game = Game(seed=3)
    seat = game.to_act
    assert seat is not None
    wrong = next_seat(seat)
    log_length = len(game.log)
    with pytest.raises(ValueError, match="turn to bid"):
        game.bid(wrong, 3)
    with pytest.raises(ValueError, match="Nil or a number"):
        game.bid(seat, 14)
    assert len(game.log) == log_length and game.hand.bid_order == []
    game.bid(seat, NIL)
    assert game.hand.bids[seat] == NIL


def test_preset_deals_replace_the_first_hands_and_must_rotate() -> None:
    reference = Game(seed=6)
    dealer = EAST
    game = Game(seed=6, preset_deals=[(dealer, reference.hand.deal)])
    assert game.hand.dealer == EAST and game.hand.deal == reference.hand.deal


def test_a_bid_or_card_of_the_wrong_type_is_refused_not_crashed() -> None:
    game = Game(seed=3)
    seat = game.to_act
    assert seat is not None
    for bad in ("3", True, 3.0, None):
        with pytest.raises(ValueError, match="A bid is Nil or a number"):
            game.bid(seat, bad)  # type: ignore[arg-type]
    for _ in range(4):
        game.bid(game.to_act or 0, 3)
    for bad_card in ("2C", True, None):
        with pytest.raises(ValueError, match="is not a card"):
            game.play(game.to_act or 0, bad_card)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="is not a seat"):
        game.play(7, 0)


def test_a_clone_plays_on_alone_and_exactly_as_the_original_would() -> None:
    game = Game(seed=31)
    play_randomly(game, random.Random(1), hands=2)
    game.bid(game.to_act, 3)  # mid-hand: the clone must copy the hand in progress too
    before = game_to_record(game)
    clone = game.clone()
    assert game_to_record(clone) == before

    play_randomly(clone, random.Random(2))  # to the end, through further deals
    assert clone.is_over
    assert game_to_record(game) == before  # the original did not move
    assert not game.is_over
    play_randomly(game, random.Random(2))  # same choices: same deals (the RNG was copied)
    assert game_to_record(game) == game_to_record(clone)
    assert game.log == clone.log
