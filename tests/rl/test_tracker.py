"""The AEC environment's observations, kept up to date action by action, are
at every step what ``encode_view`` and ``action_mask`` make of each seat's view
from nothing (the reference): every seat, every step, under every rule set."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from spades.core import RULE_SETS, Phase, parse_rules
from spades.rl import AGENTS, SpadesEnv
from spades.rl.encoding import action_count, action_mask, encode_view, split_observation
from tests.rl.helpers import random_legal

RULES = [
    "cardcouch",
    "cardcouch,target=250,floor=-100,bag_limit=5,bag_penalty=50,nil_bonus=50",
    "cardcouch,double_nil=off,min_team_bid=4,first_lead=two_of_clubs",
    "cardcouch,double_nil_bonus=300,spades_break=off,floor=none,bag_limit=none",
    "cardcouch,target=300,blind_nil=on,nil_pass=2",
    *(f"{name}" for name in RULE_SETS if name != "cardcouch"),
]


def expected_observation(environment: SpadesEnv, agent: str) -> tuple[Any, Any]:
    """``agent``'s observation and mask built from nothing, as ``observe`` once did."""
    view = environment.view(agent)
    seat = AGENTS.index(agent)
    if not environment._done and environment._offered_blind_nil(seat):
        view = view.without_cards()
    if environment._done or agent != environment.agent_selection:
        mask = np.zeros(action_count(environment.rules), dtype=np.int8)
    else:
        mask = action_mask(view, environment._chosen)
    return encode_view(view), mask


def assert_every_seat_matches(environment: SpadesEnv, where: str) -> None:
    # The acting agent last, as agent_iter asks: the others first must not disturb it.
    acting = environment.agent_selection
    for agent in (*(a for a in AGENTS if a != acting), acting):
        observation = environment.observe(agent)
        flat, mask = expected_observation(environment, agent)
        assert observation["observation"].dtype == np.float32
        assert np.array_equal(observation["observation"], flat), f"{where}, {agent}: observation"
        assert observation["action_mask"].dtype == np.int8
        assert np.array_equal(observation["action_mask"], mask), f"{where}, {agent}: mask"


@pytest.mark.parametrize("text", RULES)
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_every_seat_sees_what_its_view_encodes_at_every_step(text: str, episode: str) -> None:
    rules = parse_rules(text)
    rng = np.random.default_rng(5)
    # Games cut at 6 hands: each game still crosses hands and ends (or is cut), and
    # the rule sets without a floor no longer play twelve hands of every game.
    environment = SpadesEnv(episode=episode, rules=rules, max_hands=6)  # type: ignore[arg-type]
    steps = 0
    for seed in range(40 if episode == "hand" else 20):
        environment.reset(seed=seed)
        for agent in environment.agent_iter():
            assert_every_seat_matches(environment, f"{text}, seed {seed}, step {steps}")
            observation, _, terminated, truncated, _ = environment.last()
            environment.step(None if terminated or truncated else random_legal(observation, rng))
            steps += 1
            assert agent in AGENTS
    assert steps > 1000


def test_an_observation_is_a_copy_the_caller_may_change() -> None:
    environment = SpadesEnv()
    environment.reset(seed=1)
    agent = environment.agent_selection
    first = environment.observe(agent)
    first["observation"][:] = 7.0
    first["action_mask"][:] = 1
    again = environment.observe(agent)
    flat, mask = expected_observation(environment, agent)
    assert np.array_equal(again["observation"], flat)
    assert np.array_equal(again["action_mask"], mask)


def test_a_referee_acting_on_the_game_directly_is_seen() -> None:
    environment = SpadesEnv(illegal_action="raise")
    environment.reset(seed=4)
    game = environment.game
    rng = np.random.default_rng(4)
    while game.phase is Phase.BIDDING:
        environment.step(random_legal(environment.observe(environment.agent_selection), rng))
    environment.step(random_legal(environment.observe(environment.agent_selection), rng))
    seat = game.to_act
    assert seat is not None
    game.play(seat, game.legal_cards()[0])  # behind the environment's back
    assert_every_seat_matches(environment, "after a card played on the game")
    game.undo(seat)  # and taken back
    assert_every_seat_matches(environment, "after an undo")
    game.play(seat, game.legal_cards()[-1])
    assert_every_seat_matches(environment, "after another card")


def test_dict_observations_split_the_followed_vector() -> None:
    environment = SpadesEnv(observation_mode="dict")
    environment.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(30):
        agent = environment.agent_selection
        observation = environment.observe(agent)
        flat, _ = expected_observation(environment, agent)
        for name, block in split_observation(flat).items():
            assert np.array_equal(observation["observation"][name], block), name
        environment.step(random_legal(observation, rng))
