"""Each event's ``after`` carries what the page used to work out for itself:
whether spades are broken and each team's contract, from the engine."""

from __future__ import annotations

import random

import pytest

from spades.core import CardPlayed, Game, HandDealt, HandScored, TrickWon, parse_rules
from spades.core.cards import SPADES, cards_in, suit_of
from spades.core.seats import TEAM_NAMES, TEAMS
from spades.core.view import PlayerView
from spades.server.play.moments import Moment, moments, state_now


def played_out(rules: str, seed: int) -> list[Moment]:
    """A whole game of random legal moves, each move's events with the table after them."""
    game = Game(parse_rules(rules), seed=seed)
    rng = random.Random(seed)
    events = moments(state_now(game), game, game.log)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        before = state_now(game)
        if game.phase.value == "bidding":
            made = game.bid(seat, rng.choice(game.legal_bids()))
        elif game.phase.value == "passing":
            view = game.view(seat)
            made = game.pass_cards(seat, rng.sample(list(cards_in(view.hand)), view.pass_count))
        else:
            made = game.play(seat, rng.choice(game.legal_cards()))
        events += moments(before, game, made)
    return events


@pytest.mark.parametrize("rules", ["cardcouch", "cardcouch,spades_break=off", "club"])
def test_after_each_event_the_contracts_and_spades_broken_are_the_engine_s(rules: str) -> None:
    breaks_spades = parse_rules(rules).spades_break
    spade_seen = after_broken = False
    for moment in played_out(rules, seed=7):
        event, after = moment.event, moment.after
        if isinstance(event, HandDealt):
            spade_seen = False
        if isinstance(event, CardPlayed):
            spade_seen |= suit_of(event.card) == SPADES
            assert event.broke_spades == (breaks_spades and spade_seen and not after_broken)
        after_broken = after.spades_broken
        # Broken once a spade is played, or from the start without the breaking rule.
        assert after.spades_broken == (spade_seen or not breaks_spades)
        if isinstance(event, TrickWon | HandScored):
            counted = sum(after.teams[team].tricks for team in TEAM_NAMES)
            assert counted == after.tricks_played  # every trick counted once, as it is won
        for team in TEAM_NAMES:
            contract = after.teams[team]
            assert contract.left >= 0
            assert contract.bid is None or contract.left <= contract.bid


def test_the_last_event_of_a_move_carries_the_contracts_of_the_hand_in_play() -> None:
    game = Game(seed=3)
    rng = random.Random(3)
    while game.hand_number == 1:
        seat = game.to_act
        assert seat is not None
        before = state_now(game)
        if game.phase.value == "bidding":
            made = game.bid(seat, rng.choice(game.legal_bids()))
        else:
            made = game.play(seat, rng.choice(game.legal_cards()))
        last = moments(before, game, made)[-1].after
        view = PlayerView.of(game.hand, seat)
        for team in TEAMS:
            contract = view.contract(team)
            shown = last.teams[TEAM_NAMES[team]]
            assert (shown.bid, shown.tricks, shown.left) == (
                contract.bid,
                contract.taken,
                contract.left,
            )
