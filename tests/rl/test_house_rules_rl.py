"""The RL environments under house rules: the rules are the engine's, a Nil
pass is chosen a card a step, and blind Nil is decided on an observation
without the cards (bid it, action 66, or look at them, action 67)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from spades.core import BLIND_NIL, Phase, parse_rules
from spades.rl import BLIND_NIL_ACTION, LOOK_ACTION, SpadesEnv, SpadesSingleAgentEnv, env
from spades.rl.encoding import CARD_ACTIONS, PARTS, split_observation
from tests.rl.helpers import random_legal

pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:We recommend agents to be named",
    "ignore:Action mask numpy array is all zeros",
)

RULES = parse_rules("cardcouch,target=300,blind_nil=on,nil_pass=2")


def test_pettingzoo_api_test_passes_under_house_rules() -> None:
    api_test(env(episode="game", rules=RULES), num_cycles=300)


def test_random_games_pass_cards_a_step_at_a_time_and_end() -> None:
    rng = np.random.default_rng(3)
    passes = 0
    for seed in range(12):
        environment = SpadesEnv(episode="game", rules=RULES, max_hands=40)
        environment.reset(seed=seed)
        for _ in range(5000):
            agent = environment.agent_selection
            if environment.terminations[agent] or environment.truncations[agent]:
                break
            observation = environment.observe(agent)
            if environment.game.phase is Phase.PASSING:
                assert not observation["action_mask"][CARD_ACTIONS:].any()
                before = environment.game.hand.passes[:]
                environment.step(random_legal(observation, rng))
                passes += len(environment.game.hand.passes) - len(before)
            else:
                environment.step(random_legal(observation, rng))
        assert environment.game.rules == RULES
    assert passes > 0


def test_a_card_chosen_for_the_pass_cannot_be_chosen_again() -> None:
    rng = np.random.default_rng(0)
    for seed in range(60):
        environment = SpadesEnv(episode="hand", rules=RULES, illegal_action="raise")
        environment.reset(seed=seed)
        while environment.game.phase is Phase.BIDDING:
            agent = environment.agent_selection
            observation: dict[str, Any] = environment.observe(agent)
            if observation["action_mask"][LOOK_ACTION]:  # offered blind Nil: look first
                environment.step(LOOK_ACTION)
                continue
            nil = CARD_ACTIONS  # the first bidder bids Nil, the others a number: a pass follows
            if not environment.game.hand.bid_order:
                environment.step(nil)
                continue
            observation["action_mask"][nil] = 0
            environment.step(random_legal(observation, rng))
        if environment.game.phase is not Phase.PASSING:
            continue
        agent = environment.agent_selection
        first = random_legal(environment.observe(agent), rng)
        environment.step(first)
        assert environment.agent_selection == agent
        assert not environment.observe(agent)["action_mask"][first]
        with pytest.raises(ValueError, match="not a card you may still choose to pass"):
            environment.step(first)
        return
    raise AssertionError("no seed reached a pass")


# ------------------------------------------------------------------ blind Nil


def test_a_seat_offered_blind_nil_decides_without_seeing_its_cards() -> None:
    environment = SpadesEnv(episode="hand", rules=RULES, illegal_action="raise")
    environment.reset(seed=4)
    agent = environment.agent_selection
    assert environment.action_space(agent).n == 68
    blind = environment.observe(agent)
    parts = split_observation(blind["observation"])
    assert not parts["hand"].any() and parts["cards_hidden"][0] == 1
    assert np.flatnonzero(blind["action_mask"]).tolist() == [BLIND_NIL_ACTION, LOOK_ACTION]
    with pytest.raises(ValueError, match="look at your cards"):  # no bid on a peek
        environment.step(CARD_ACTIONS + 3)
    environment.step(LOOK_ACTION)
    assert environment.agent_selection == agent  # the look keeps the turn
    seen = environment.observe(agent)
    parts = split_observation(seen["observation"])
    assert int(parts["hand"].sum()) == 13 and parts["cards_hidden"][0] == 0
    legal = np.flatnonzero(seen["action_mask"]).tolist()
    assert legal == list(range(CARD_ACTIONS, CARD_ACTIONS + 14))  # Nil, 1..13: no blind Nil
    with pytest.raises(ValueError, match="not offered"):
        environment.step(BLIND_NIL_ACTION)


def test_a_blind_nil_is_bid_and_shown_to_every_seat_as_a_blind_nil() -> None:
    environment = SpadesEnv(episode="hand", rules=RULES, illegal_action="raise")
    environment.reset(seed=4)
    bidder = environment.agent_selection
    environment.step(BLIND_NIL_ACTION)
    seat = "NESW".index(bidder)
    assert environment.game.hand.bids[seat] == BLIND_NIL
    for relative in range(4):
        observer = "NESW"[(seat - relative) & 3]
        parts = split_observation(environment.observe(observer)["observation"])
        assert parts["blind_nil"].tolist() == [float(r == relative) for r in range(4)]
        assert parts["bids"][relative].argmax() == 1  # in the bids, a Nil
    # The partner is offered no second blind Nil where one Nil a partnership is allowed.
    assert environment.agent_selection != bidder


def test_the_passing_block_shows_the_pass() -> None:
    environment = SpadesEnv(episode="hand", rules=RULES, illegal_action="raise")
    environment.reset(seed=4)
    environment.step(BLIND_NIL_ACTION)
    rng = np.random.default_rng(1)
    while environment.game.phase is Phase.BIDDING:
        observation = environment.observe(environment.agent_selection)
        mask = observation["action_mask"]
        environment.step(LOOK_ACTION if mask[LOOK_ACTION] else random_legal(observation, rng))
    passing = PARTS["passing"].offset
    if environment.game.phase is Phase.PASSING:  # a number from the blind Nil's partner
        assert environment.observe(environment.agent_selection)["observation"][passing] == 1
        phase = PARTS["phase"]
        assert not environment.observe("N")["observation"][phase.offset : phase.stop].any()


def test_single_agent_bots_decide_blind_nil_through_the_same_two_actions() -> None:
    # Random bots bid blind Nil one time in 15: each must reach the engine as a
    # blind Nil (before, its action number was a card's, and the episode ended
    # on an illegal action).
    blind_nils = 0
    for seed in range(30):
        environment = SpadesSingleAgentEnv(
            episode="hand", rules=RULES, opponents="random", partner="random"
        )
        observation, _ = environment.reset(seed=seed)
        rng = np.random.default_rng(seed)
        over = False
        while not over:
            observation, _, terminated, truncated, info = environment.step(
                random_legal(observation, rng)
            )
            assert "illegal_action" not in info, info
            over = terminated or truncated
        hand = environment.game.history[0].state
        blind_nils += sum(
            hand.bids[seat] == BLIND_NIL for seat in range(4) if seat != environment.seat
        )
    assert blind_nils > 0
