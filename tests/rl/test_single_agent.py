"""The Gymnasium environment: one learning seat against built-in bots."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from spades.core import NIL, IllegalCardError, NotYourTurnError, Phase, score_hand, team_of
from spades.rl import SpadesSingleAgentEnv
from tests.rl.helpers import random_legal

pytestmark = pytest.mark.filterwarnings(
    "ignore:.*Not able to test alternative render modes",
)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"observation_mode": "dict"},
        {"episode": "game", "opponents": "random", "shaping": True},
        {"seat": "E", "opponents": "easy", "partner": "random", "render_mode": "ansi"},
    ],
    ids=["hand", "dict", "game", "east"],
)
def test_gymnasium_check_env_passes(options: dict[str, Any]) -> None:
    check_env(SpadesSingleAgentEnv(**options))


@pytest.mark.parametrize("seat", ["N", "E", "S", "W"])
def test_reset_hands_over_at_the_learners_first_bid(seat: str) -> None:
    env = SpadesSingleAgentEnv(seat=seat, opponents="random")
    for seed in range(4):
        observation, _ = env.reset(seed=seed)
        game = env.game
        assert game.to_act == env.seat and game.phase is Phase.BIDDING
        assert observation["action_mask"][52:].all() and not observation["action_mask"][:52].any()
        assert len(game.hand.bid_order) == (env.seat - game.hand.dealer - 1) % 4


@pytest.mark.parametrize("opponents", ["random", "normal"])
def test_a_hand_episode_pays_the_learners_team_score(opponents: str) -> None:
    env = SpadesSingleAgentEnv(seat="S", opponents=opponents)
    rng = np.random.default_rng(0)
    for seed in range(30 if opponents == "random" else 8):
        observation, _ = env.reset(seed=seed)
        total, steps, terminated, truncated = 0.0, 0, False, False
        while not (terminated or truncated):
            observation, reward, terminated, truncated, _ = env.step(random_legal(observation, rng))
            total += reward
            steps += 1
            assert terminated or env.game.to_act == env.seat
        assert steps == 14 and not truncated  # a bid and 13 cards
        state = env.game.history[0].state
        bids = [NIL if bid is None else bid for bid in state.bids]
        expected = score_hand(bids, state.tricks_won)[team_of(env.seat)].delta * 0.01
        assert total == pytest.approx(expected)


def test_a_game_episode_ends_with_the_result() -> None:
    env = SpadesSingleAgentEnv(seat="W", opponents="random", episode="game")
    rng = np.random.default_rng(1)
    for seed in range(10):
        observation, _ = env.reset(seed=seed)
        rewards = []
        terminated = truncated = False
        while not (terminated or truncated):
            observation, reward, terminated, truncated, _ = env.step(random_legal(observation, rng))
            rewards.append(reward)
        outcome = env.game.outcome
        assert outcome is not None and terminated
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == (1.0 if outcome.winner == team_of(env.seat) else -1.0)


def test_same_seed_same_episode() -> None:
    def run() -> list[tuple[int, ...]]:
        env = SpadesSingleAgentEnv(opponents="normal")
        rng = np.random.default_rng(5)
        observation, _ = env.reset(seed=5)
        terminated = False
        while not terminated:
            observation, _, terminated, _, _ = env.step(random_legal(observation, rng))
        return [trick.cards for trick in env.game.history[0].state.tricks]

    assert run() == run()


def test_an_illegal_action_is_penalized() -> None:
    env = SpadesSingleAgentEnv(opponents="random")
    env.reset(seed=3)
    observation, reward, terminated, truncated, info = env.step(0)  # a card while bidding
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert "bidding is not over" in info["illegal_action"]
    assert not observation["action_mask"].any()
    with pytest.raises(RuntimeError):
        env.step(52)


def test_an_illegal_action_raises_in_raise_mode() -> None:
    env = SpadesSingleAgentEnv(opponents="random", illegal_action="raise")
    observation, _ = env.reset(seed=3)
    with pytest.raises(NotYourTurnError):
        env.step(0)
    observation, *_ = env.step(52 + 3)
    held = [card for card in range(52) if env.game.hand.hands[env.seat] >> card & 1]
    illegal = [card for card in held if not observation["action_mask"][card]]
    not_held = next(card for card in range(52) if card not in held)
    with pytest.raises(IllegalCardError):
        env.step(illegal[0] if illegal else not_held)
    env.step(random_legal(observation, np.random.default_rng(0)))


def test_unknown_levels_and_seats_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot level"):
        SpadesSingleAgentEnv(opponents="grandmaster")
    with pytest.raises(ValueError):
        SpadesSingleAgentEnv(seat="X")
