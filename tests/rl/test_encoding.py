"""The observation layout and the action numbers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from spades.core import NIL, SEATS, Game, Phase, card_name
from spades.rl.encoding import (
    ACTION_COUNT,
    BIDS_OFFSET,
    OBSERVATION_PARTS,
    OBSERVATION_SIZE,
    PARTS,
    action_bid,
    action_card,
    action_mask,
    bid_action,
    card_action,
    encode_view,
    layout_table,
    observation_bounds,
    relative_seat,
    split_observation,
)
from tests.rl.helpers import card_mask

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def test_the_blocks_follow_each_other_without_gaps() -> None:
    offset = 0
    for part in OBSERVATION_PARTS:
        assert part.offset == offset, part.name
        offset = part.stop
    assert offset == OBSERVATION_SIZE == 549


def test_the_docs_show_the_layout_the_code_uses() -> None:
    assert layout_table() in DOCS.read_text(encoding="utf-8")


def test_every_action_is_a_card_or_a_bid() -> None:
    assert ACTION_COUNT == 66
    for card in range(52):
        assert action_card(card_action(card)) == card and action_bid(card) is None
    for bid in (NIL, *range(1, 14)):
        assert action_bid(bid_action(bid)) == bid and action_card(bid_action(bid)) is None
    assert bid_action(NIL) == 52


def test_the_mask_is_the_engines_legal_moves() -> None:
    game = Game(seed=5)
    rng = np.random.default_rng(5)
    while len(game.history) < 2 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        mask = action_mask(game.view(seat))
        expected = (
            {bid_action(bid) for bid in game.legal_bids()}
            if game.phase is Phase.BIDDING
            else {card_action(card) for card in game.legal_cards()}
        )
        assert set(np.flatnonzero(mask).tolist()) == expected
        for other in SEATS:
            if other != seat:
                assert not action_mask(game.view(other)).any()
        action = int(rng.choice(np.flatnonzero(mask)))
        if action >= 52:
            game.bid(seat, action - 52)
        else:
            game.play(seat, action)


def test_seats_are_relative_to_the_observer() -> None:
    game = Game(seed=9)
    while game.phase is Phase.BIDDING:
        seat = game.to_act
        assert seat is not None
        game.bid(seat, seat + 1)  # N bids 1, E 2, S 3, W 4
    lead = game.legal_cards()[0]
    leader = game.to_act
    assert leader is not None
    game.play(leader, lead)
    for observer in SEATS:
        parts = split_observation(encode_view(game.view(observer)))
        for seat in SEATS:
            row = relative_seat(observer, seat)
            assert parts["bids"][row].argmax() == 1 + seat + 1
            played = card_mask(parts["played"][row])
            assert played == (1 << lead if seat == leader else 0), card_name(lead)
        assert parts["dealer"][relative_seat(observer, game.hand.dealer)] == 1
        assert parts["phase"].tolist() == [0, 1]


def test_scores_and_bags_are_seen_from_the_observers_team() -> None:
    game = Game(seed=4)
    game.totals, game.bags = (120, -40), (3, 7)
    north, east = (split_observation(encode_view(game.view(seat))) for seat in (0, 1))
    assert north["scores"].tolist() == pytest.approx([0.24, -0.08])
    assert east["scores"].tolist() == pytest.approx([-0.08, 0.24])
    assert north["bags"].tolist() == pytest.approx([0.3, 0.7])
    assert east["bags"].tolist() == pytest.approx([0.7, 0.3])


def test_a_fresh_deal_is_inside_the_bounds() -> None:
    low, high = observation_bounds(Game(seed=1).rules)
    observation = encode_view(Game(seed=1).view(2))
    assert (low <= observation).all() and (observation <= high).all()
    assert observation[BIDS_OFFSET : PARTS["bids"].stop].reshape(4, 15)[:, 0].tolist() == [1] * 4
