"""Properties of random games under random rule sets (hypothesis chooses both):
every action the engine offers is accepted, the hand keeps 52 cards, the
scores follow the options, and every record reads back to the same game."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.core import (
    BLIND_NIL,
    FULL_DECK,
    NIL,
    PRESETS,
    Game,
    Phase,
    Rules,
    game_from_record,
    game_to_record,
    parse_rules,
    rules_name,
)
from spades.core.cards import cards_in
from spades.core.record import record_to_json

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    """Any valid rule set: every option drawn within its range."""
    target = draw(st.integers(100, 600))
    double_nil = draw(st.booleans())
    blind_nil = draw(st.booleans())
    return Rules(
        target=target,
        floor=draw(st.none() | st.integers(-600, target - 1)),
        bag_limit=draw(st.none() | st.integers(1, 15)),
        bag_penalty=draw(st.integers(0, 200)),
        nil_bonus=draw(st.integers(0, 200)),
        double_nil=double_nil,
        double_nil_bonus=draw(st.none() | st.integers(0, 400)) if double_nil else None,
        blind_nil=blind_nil,
        blind_nil_bonus=draw(st.integers(0, 400)),
        blind_nil_behind=draw(st.integers(0, 300)),
        nil_pass=draw(st.integers(0, 3)),
        blind_nil_pass=draw(st.integers(0, 3)) if blind_nil else 0,
        first_lead=draw(st.sampled_from(["left", "two_of_clubs"])),
        spades_break=draw(st.booleans()),
        min_team_bid=draw(st.integers(0, 8)),
    )


def play_random_game(rules: Rules, seed: int, max_hands: int = 12) -> Game:
    """Random legal actions, bids leaning on 2..4 with Nils and blind Nils, so passes happen."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over and len(game.history) < max_hands:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if game.phase is Phase.BIDDING:
            legal = view.legal_bids() + view.without_cards().legal_bids()
            liked = [bid for bid in legal if bid in (BLIND_NIL, NIL, 2, 3, 4)]
            game.bid(seat, rng.choice(liked or legal))
        elif game.phase is Phase.PASSING:
            assert view.pass_count > 0
            game.pass_cards(seat, rng.sample(list(cards_in(view.hand)), view.pass_count))
        else:
            assert game.legal_cards(), "a seat to play always has a card it may play"
            game.play(seat, rng.choice(game.legal_cards()))
    return game


@settings(max_examples=60)
@given(rule_sets(), SEEDS)
def test_random_games_under_random_rules_follow_them_and_read_back(rules: Rules, seed: int) -> None:
    game = play_random_game(rules, seed)
    assert parse_rules(rules_name(rules)) == rules
    for scored in game.history:
        state = scored.state
        assert sum(state.tricks_won) == 13
        assert state.hands == [0, 0, 0, 0] and sum(state.deal) == FULL_DECK
        if rules.first_lead == "two_of_clubs":
            assert state.tricks[0].cards[0] == 0  # the two of clubs led
        for team in (0, 1):
            bids = [state.bids[team], state.bids[team + 2]]
            assert all(bid is not None for bid in bids)
            if not rules.double_nil:
                assert not all(bid is not None and bid <= NIL for bid in bids)
            numeric = sum(bid for bid in bids if bid is not None and bid > 0)
            if numeric or not all(bid is not None and bid <= NIL for bid in bids):
                assert numeric >= rules.min_team_bid
            if rules.bag_limit is None:
                assert scored.scores[team].bag_penalties == 0
        if not rules.blind_nil:
            assert BLIND_NIL not in state.bids
        passes = {giver: mask for giver, mask in state.passes}
        for giver, mask in passes.items():
            bid = (
                state.bids[giver]
                if state.bids[giver] is not None and state.bids[giver] <= NIL
                else None
            )
            count = mask.bit_count()
            nil_seat = giver if bid is not None else (giver + 2) & 3
            assert count == rules.passes_for(state.bids[nil_seat] == BLIND_NIL)
    record = game_to_record(game)
    assert game_to_record(game_from_record(json.loads(record_to_json(record)))) == record


@settings(max_examples=10)
@given(st.sampled_from(sorted(PRESETS)), SEEDS)
def test_records_of_every_preset_round_trip(name: str, seed: int) -> None:
    game = play_random_game(PRESETS[name].rules, seed, max_hands=6)
    record = game_to_record(game)
    assert Rules.from_dict(record["rules"]) == PRESETS[name].rules
    assert game_to_record(game_from_record(record)) == record
