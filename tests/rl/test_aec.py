"""The PettingZoo environment: its API, seeding, rewards, hidden cards and illegal actions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from spades.core import (
    FULL_DECK,
    NIL,
    SEATS,
    Game,
    IllegalActionError,
    IllegalCardError,
    NotYourTurnError,
    Phase,
    score_hand,
    team_of,
)
from spades.rl import AGENTS, SpadesEnv, env, raw_env
from spades.rl.encoding import PARTS, encode_view, split_observation
from tests.rl.helpers import card_mask, cards_shown, random_legal

# Expected: the observation is a dict (with its action mask), agents are named
# N, E, S, W rather than player_0.., and the mask is all 0 once the game is over.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
    "ignore:We recommend agents to be named",
    "ignore:Action mask numpy array is all zeros",
)

OPTIONS = [
    {"episode": "hand"},
    {"episode": "hand", "observation_mode": "dict"},
    {"episode": "game"},
    {"episode": "game", "observation_mode": "dict", "shaping": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_pettingzoo_api_test_passes(options: dict[str, Any]) -> None:
    api_test(env(**options), num_cycles=300)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_pettingzoo_seed_test_passes(options: dict[str, Any]) -> None:
    seed_test(lambda: env(**options), num_cycles=300)


def test_a_seed_deals_what_the_engine_deals_for_it() -> None:
    environment = raw_env()
    environment.reset(seed=2026)
    game = Game(seed=2026)
    assert environment.game.hand.deal == game.hand.deal
    assert environment.game.hand.dealer == game.hand.dealer
    assert environment.agent_selection == AGENTS[game.hand.dealer + 1 & 3]


def test_seeded_resets_repeat_and_differ() -> None:
    first, second = raw_env(), raw_env()
    first.reset(seed=11)
    second.reset(seed=11)
    deals = []
    for _ in range(3):
        first.reset()
        second.reset()
        assert first.game.hand.deal == second.game.hand.deal
        deals.append(first.game.hand.deal)
    assert len(set(deals)) == 3


def test_turns_follow_the_engine() -> None:
    environment = raw_env(episode="game")
    environment.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        assert agent == AGENTS[environment.game.to_act]
        environment.step(random_legal(observation, rng))
    assert environment.game.is_over


def play_hand_episode(environment: SpadesEnv, seed: int, rng: np.random.Generator) -> None:
    """One random hand; checks the rewards against score_hand on the bids the agents
    made and the tricks their final observations show."""
    environment.reset(seed=seed)
    bids: list[int | None] = [None] * 4
    final: dict[str, float] = {}
    tricks_seen: list[list[float]] = []
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            final[agent] = reward
            flat = observation["observation"]
            tricks_seen.append(flat[PARTS["tricks_won"].offset : PARTS["tricks_won"].stop])
            environment.step(None)
            continue
        action = random_legal(observation, rng)
        if action >= 52:
            bids[AGENTS.index(agent)] = action - 52
        environment.step(action)
    assert len(final) == 4
    # Relative seat 0 of each final observation is the observer itself.
    tricks = [round(float(seen[0]) * 13) for seen in tricks_seen]
    order = list(final)
    tricks_by_seat = [tricks[order.index(agent)] for agent in AGENTS]
    made = [NIL if bid is None else bid for bid in bids]
    assert None not in bids
    scores = score_hand(made, tricks_by_seat)
    for agent in AGENTS:
        expected = scores[team_of(AGENTS.index(agent))].delta * 0.01
        assert final[agent] == pytest.approx(expected)


@pytest.mark.slow
def test_hand_rewards_are_the_engines_hand_scores() -> None:
    environment = raw_env(episode="hand")
    rng = np.random.default_rng(1)
    for seed in range(400):
        play_hand_episode(environment, seed, rng)


def test_game_rewards_are_hand_scores_then_the_result() -> None:
    scale = 0.05
    environment = raw_env(episode="game", shaping=True, reward_scale=scale)
    rng = np.random.default_rng(2)
    for seed in range(60):
        environment.reset(seed=seed)
        bags = [0, 0]
        totals = [0, 0]
        earned = dict.fromkeys(AGENTS, 0.0)
        hands = 0
        for _ in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
                continue
            environment.step(random_legal(observation, rng))
            for name, reward in environment.rewards.items():
                earned[name] += reward
            if len(environment.game.history) > hands:  # a hand was just scored
                state = environment.game.history[-1].state
                bids = [NIL if bid is None else bid for bid in state.bids]
                scores = score_hand(bids, state.tricks_won, bags)
                bags = [scores[0].bags, scores[1].bags]
                totals = [totals[team] + scores[team].delta for team in (0, 1)]
                hands += 1
                for name in AGENTS:
                    team = team_of(AGENTS.index(name))
                    expected = scores[team].delta * scale
                    if environment.game.is_over:
                        won = environment.game.outcome is not None and (
                            environment.game.outcome.winner == team
                        )
                        expected += 1.0 if won else -1.0
                    assert environment.rewards[name] == pytest.approx(expected)
        assert environment.game.is_over
        assert tuple(totals) == environment.game.totals
        for name in AGENTS:
            team = team_of(AGENTS.index(name))
            assert earned[name] == pytest.approx(
                totals[team] * scale + (1.0 if team == environment.game.outcome.winner else -1.0)
            )


def test_no_observation_shows_a_card_its_seat_cannot_see() -> None:
    environment = raw_env(episode="game")
    rng = np.random.default_rng(4)
    for seed in range(20):
        environment.reset(seed=seed)
        for _ in environment.agent_iter():
            game = environment.game
            for seat in SEATS:
                name = AGENTS[seat]
                flat = environment.observe(name)["observation"]
                assert (flat == encode_view(game.view(seat))).all()
                own = card_mask(flat[PARTS["hand"].offset : PARTS["hand"].stop])
                assert own == game.hand.hands[seat]
                hidden = 0
                for other in SEATS:
                    if other != seat:
                        hidden |= game.hand.hands[other]
                assert cards_shown(flat) & hidden == 0
            observation, _, terminated, truncated, _ = environment.last()
            if terminated or truncated:
                environment.step(None)
            else:
                environment.step(random_legal(observation, rng))


def test_the_dict_observation_holds_the_flat_one_in_parts() -> None:
    flat_env, dict_env = raw_env(), raw_env(observation_mode="dict")
    flat_env.reset(seed=8)
    dict_env.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(30):
        agent = flat_env.agent_selection
        flat = flat_env.observe(agent)
        parts = dict_env.observe(agent)
        assert (flat["action_mask"] == parts["action_mask"]).all()
        expected = split_observation(flat["observation"])
        assert list(parts["observation"]) == list(expected)
        for name, block in expected.items():
            assert (parts["observation"][name] == block).all(), name
        assert dict_env.observation_space(agent).contains(parts)
        action = random_legal(flat, rng)
        flat_env.step(action)
        dict_env.step(action)


def test_the_final_observation_shows_the_finished_hand() -> None:
    environment = raw_env(episode="hand")
    environment.reset(seed=21)
    rng = np.random.default_rng(21)
    while not environment.terminations[environment.agent_selection]:
        environment.step(random_legal(environment.observe(environment.agent_selection), rng))
    for agent in AGENTS:
        observation = environment.observe(agent)
        parts = split_observation(observation["observation"])
        assert not observation["action_mask"].any()
        assert parts["phase"].tolist() == [0, 0]
        assert round(float(parts["tricks_won"].sum()) * 13) == 13
        played = 0
        for row in parts["played"]:
            played |= card_mask(row)
        assert played == FULL_DECK
        assert parts["scores"][0] * 500 == pytest.approx(
            environment.game.history[0].totals[team_of(AGENTS.index(agent))]
        )


# ----------------------------------------------------------------- illegal actions


def start(**options: Any) -> SpadesEnv:
    environment = raw_env(**options)
    environment.reset(seed=31)
    return environment


def to_first_lead(environment: SpadesEnv) -> None:
    while environment.game.phase is Phase.BIDDING:
        environment.step(52 + 3)


@pytest.mark.parametrize("action", [0, 99, -1, None, "AS", 2.5])
def test_penalize_ends_the_episode_with_a_penalty_for_the_offender(action: object) -> None:
    environment = start(illegal_action="penalize")
    offender = environment.agent_selection
    environment.step(action)  # a card while bidding, or not an action at all
    assert all(environment.terminations.values())
    assert not any(environment.truncations.values())
    assert environment.rewards == {a: (-1.0 if a == offender else 0.0) for a in AGENTS}
    assert "illegal_action" in environment.infos[offender]
    _, reward, terminated, _, _ = environment.last()
    assert terminated and reward == -1.0
    for agent in environment.agent_iter():  # the dead steps empty the table
        assert not environment.observe(agent)["action_mask"].any()
        environment.step(None)
    assert environment.agents == []


def test_penalize_during_play_names_the_broken_rule() -> None:
    environment = start(illegal_action="penalize", illegal_reward=-5.0)
    to_first_lead(environment)
    seat = environment.game.to_act
    assert seat is not None
    not_held = (FULL_DECK & ~environment.game.hand.hands[seat]).bit_length() - 1
    offender = environment.agent_selection
    environment.step(not_held)
    assert environment.rewards[offender] == -5.0
    assert environment.infos[offender]["illegal_action"].startswith("You do not hold")


@pytest.mark.parametrize(
    ("action", "error"),
    [(0, NotYourTurnError), (99, IllegalActionError), (None, IllegalActionError)],
)
def test_raise_mode_raises_the_engines_error_and_changes_nothing(
    action: object, error: type[Exception]
) -> None:
    environment = start(illegal_action="raise")
    before = (environment.agent_selection, len(environment.game.log))
    with pytest.raises(error):
        environment.step(action)
    assert (environment.agent_selection, len(environment.game.log)) == before
    assert not any(environment.terminations.values())
    environment.step(52 + 4)  # play goes on


def test_raise_mode_during_play() -> None:
    environment = start(illegal_action="raise")
    to_first_lead(environment)
    with pytest.raises(NotYourTurnError):
        environment.step(52 + 3)  # a bid during the play
    seat = environment.game.to_act
    assert seat is not None
    not_held = (FULL_DECK & ~environment.game.hand.hands[seat]).bit_length() - 1
    with pytest.raises(IllegalCardError) as raised:
        environment.step(not_held)
    assert raised.value.rule == "hold-card"


def test_bad_options_are_refused() -> None:
    for options in ({"episode": "rubber"}, {"illegal_action": "ignore"}, {"max_hands": 0}):
        with pytest.raises(ValueError):
            raw_env(**options)


def test_a_long_game_is_truncated_after_max_hands() -> None:
    environment = raw_env(episode="game", max_hands=1)
    environment.reset(seed=40)
    while environment.game.phase is Phase.BIDDING:  # modest bids: the game goes on
        environment.step(52 + 3)
    rng = np.random.default_rng(40)
    while not environment.truncations[environment.agent_selection]:
        assert not environment.terminations[environment.agent_selection]
        environment.step(random_legal(environment.observe(environment.agent_selection), rng))
    assert all(environment.truncations.values()) and not environment.game.is_over


def test_render_describes_the_public_table() -> None:
    environment = raw_env(render_mode="ansi")
    environment.reset(seed=5)
    text = environment.render()
    assert text is not None and text.startswith("Hand 1, dealer")
    assert raw_env().render() is None
