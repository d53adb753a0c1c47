"""The RL environments under house rules: the rules are the engine's, a Nil
pass is chosen a card a step, and blind Nil (bid without looking) is never an
action, since an observation always shows the hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from spades.core import Phase, parse_rules
from spades.rl import SpadesEnv, env
from spades.rl.encoding import CARD_ACTIONS
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
