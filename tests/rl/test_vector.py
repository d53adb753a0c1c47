"""The vectorised tables against the reference: every table, every step, the
same deals, masks, observations, rewards and final scores as the AEC
environment (which plays through the engine) reset with the same seed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

from spades.core import IllegalActionError, Rules, parse_rules
from spades.rl import AGENTS, SpadesEnv
from spades.rl.vector import NATIVE, UNSUPPORTED_OPTIONS, SpadesVectorEnv, UnsupportedRulesError


def play_side_by_side(
    tables: int,
    episodes: int,
    seed: int,
    *,
    every_seat: bool = False,
    **options: Any,
) -> dict[str, int]:
    """Random legal actions at ``tables`` vectorised tables and as many AEC
    environments, until ``episodes`` episodes have ended; asserts they agree
    at every step. Returns how many hands and episodes were compared."""
    vector = SpadesVectorEnv(tables, **options)
    scalars = [SpadesEnv(**options) for _ in range(tables)]
    for table, scalar in enumerate(scalars):
        scalar.reset(seed=seed + table)
    observations, infos = vector.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = hands = 0
    restarting = np.zeros(tables, dtype=bool)
    while ended < episodes:
        for table, scalar in enumerate(scalars):
            seat = int(infos["seat"][table])
            assert seat == AGENTS.index(scalar.agent_selection), f"table {table}: turn"
            expected = scalar.observe(AGENTS[seat])
            assert np.array_equal(observations["observation"][table], expected["observation"]), (
                f"table {table}, seat {AGENTS[seat]}: observation"
            )
            assert np.array_equal(observations["action_mask"][table], expected["action_mask"]), (
                f"table {table}, seat {AGENTS[seat]}: mask"
            )
        if every_seat:
            for seat in range(4):
                seen = vector.observe(np.full(tables, seat))
                for table, scalar in enumerate(scalars):
                    want = scalar.observe(AGENTS[seat])["observation"]
                    assert np.array_equal(seen[table], want), f"table {table}, seat {seat}"
        masks = observations["action_mask"]
        actions = np.array(
            [rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in masks]
        )
        observations, rewards, terminations, truncations, infos = vector.step(actions)
        for table, scalar in enumerate(scalars):
            if restarting[table]:  # the vectorised table has started its next episode
                assert not rewards[table].any() and not terminations[table]
                scalar.reset()
                continue
            scalar.step(int(actions[table]))
            for seat, agent in enumerate(AGENTS):
                # pytest.approx(abs=1e-6) said the same, at a third of this loop's time.
                expected_reward = scalar.rewards[agent]
                assert abs(rewards[table, seat] - expected_reward) <= 1e-6, (
                    f"table {table}, seat {agent}: reward {rewards[table, seat]}, "
                    f"expected {expected_reward}"
                )
                assert terminations[table] == scalar.terminations[agent]
                assert truncations[table] == scalar.truncations[agent]
            if terminations[table] or truncations[table]:
                ended += 1
                game = scalar.game
                played = game.history if options.get("episode") == "game" else game.history[:1]
                hands += len(played)
                assert tuple(vector.totals[table]) == played[-1].totals
                assert tuple(vector.bags[table]) == (
                    played[-1].scores[0].bags,
                    played[-1].scores[1].bags,
                )
        restarting = terminations | truncations
    return {"hands": hands, "episodes": ended}


@pytest.mark.slow
def test_thousands_of_random_hands_match_the_aec_environment() -> None:
    played = play_side_by_side(64, 2000, seed=100, episode="hand")
    assert played["hands"] >= 2000


def test_every_seat_observes_what_the_aec_environment_shows_it() -> None:
    play_side_by_side(8, 40, seed=5, episode="hand", every_seat=True)


@pytest.mark.parametrize("shaping", [False, True])
def test_whole_games_match_the_aec_environment(shaping: bool) -> None:
    played = play_side_by_side(16, 24, seed=31, episode="game", shaping=shaping)
    assert played["hands"] > 24


HOUSE_RULES = [
    "cardcouch,target=250,floor=-100,bag_limit=5,bag_penalty=50,nil_bonus=50",
    "cardcouch,double_nil=off,min_team_bid=4,first_lead=two_of_clubs",
    "cardcouch,double_nil_bonus=300,spades_break=off,floor=none,bag_limit=none",
]


@pytest.mark.slow
@pytest.mark.parametrize("text", HOUSE_RULES)
def test_house_rules_match_the_aec_environment(text: str) -> None:
    rules = parse_rules(text)
    play_side_by_side(16, 300, seed=7, episode="hand", rules=rules)
    # Random bids sink both teams: without a floor a game would run to max_hands.
    play_side_by_side(8, 8, seed=8, episode="game", rules=rules, shaping=True, max_hands=30)


def test_truncated_games_match_the_aec_environment() -> None:
    played = play_side_by_side(8, 16, seed=3, episode="game", max_hands=2)
    assert played["hands"] <= 32


@pytest.mark.parametrize("option", UNSUPPORTED_OPTIONS)
def test_rules_with_a_step_of_their_own_are_refused(option: str) -> None:
    changes = {"blind_nil": "blind_nil=on", "nil_pass": "nil_pass=2"}
    text = changes.get(option, "blind_nil=on,blind_nil_pass=2")
    with pytest.raises(UnsupportedRulesError, match="only the scalar environments"):
        SpadesVectorEnv(2, rules=parse_rules(f"cardcouch,{text}"))


def test_an_illegal_action_ends_that_tables_episode_only() -> None:
    vector = SpadesVectorEnv(3)
    observations, infos = vector.reset(seed=1)
    actions = observations["action_mask"].argmax(axis=1)
    actions[1] = 0  # a card while bidding
    _, rewards, terminations, truncations, infos = vector.step(actions)
    assert terminations.tolist() == [False, True, False] and not truncations.any()
    assert rewards[1].tolist().count(-1.0) == 1 and rewards[[0, 2]].sum() == 0
    assert "may not take action 0 (2C)" in infos["illegal_action"][1]
    assert infos["_illegal_action"].tolist() == [False, True, False]


def test_raise_mode_refuses_before_any_table_moves() -> None:
    vector = SpadesVectorEnv(2, illegal_action="raise")
    observations, _ = vector.reset(seed=1)
    before = vector.observe(np.zeros(2, dtype=np.int64))
    with pytest.raises(IllegalActionError, match="table 1"):
        vector.step(np.array([int(observations["action_mask"][0].argmax()), 70]))
    assert np.array_equal(vector.observe(np.zeros(2, dtype=np.int64)), before)
    with pytest.raises(IllegalActionError, match="one int action a table"):
        vector.step([1.5, 2.5])


def test_the_step_after_an_episode_ends_starts_the_next_one() -> None:
    vector = SpadesVectorEnv(1)
    observations, _ = vector.reset(seed=4)
    rng = np.random.default_rng(4)
    terminated = False
    while not terminated:
        action = rng.choice(np.flatnonzero(observations["action_mask"][0]))
        observations, _, terminations, _, _ = vector.step(np.array([action]))
        terminated = bool(terminations[0])
    assert not observations["action_mask"].any()
    observations, rewards, terminations, _, _ = vector.step(np.array([12345]))  # ignored
    assert not rewards.any() and not terminations.any()
    assert observations["action_mask"][0, 52:66].all()  # a new hand's first bid


def test_seeded_runs_repeat_and_unseeded_ones_differ() -> None:
    def run(seed: int | None) -> list[Any]:
        vector = SpadesVectorEnv(4, episode="game")
        observations, _ = vector.reset(seed=seed)
        seen = []
        for _ in range(150):
            actions = observations["action_mask"].argmax(axis=1)
            observations, rewards, *_ = vector.step(actions)
            seen.append((observations["observation"].copy(), rewards.copy()))
        return seen

    first, again, other = run(9), run(9), run(None)
    assert all(data_equivalence(a, b) for a, b in zip(first, again, strict=True))
    assert not all(data_equivalence(a, b) for a, b in zip(first, other, strict=True))


def test_observations_lie_in_the_declared_spaces() -> None:
    vector = SpadesVectorEnv(6, episode="game", rules=Rules(target=200))
    observations, _ = vector.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(400):
        assert vector.observation_space.contains(observations)
        actions = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in observations["action_mask"]]
        )
        assert vector.action_space.contains(actions)
        observations, *_ = vector.step(actions)


def test_one_seed_a_table_and_bad_arguments() -> None:
    vector = SpadesVectorEnv(2)
    by_list, _ = vector.reset(seed=[5, 6])
    by_int, _ = vector.reset(seed=5)
    assert data_equivalence(by_list, by_int)
    with pytest.raises(ValueError, match="needs 2 seeds"):
        vector.reset(seed=[1])
    with pytest.raises(ValueError, match="num_envs"):
        SpadesVectorEnv(0)
    with pytest.raises(ValueError, match="episode"):
        SpadesVectorEnv(1, episode="match")  # type: ignore[arg-type]


@pytest.mark.skipif(not NATIVE, reason="the C observation encoder is not built")
@pytest.mark.parametrize("text", ["cardcouch", *HOUSE_RULES])
def test_the_c_encoder_writes_what_the_numpy_one_does(text: str) -> None:
    # Every seat, every step of whole games, both encoders on the same state.
    vector = SpadesVectorEnv(64, episode="game", rules=parse_rules(text), max_hands=8)
    observations, _ = vector.reset(seed=11)
    rng = np.random.default_rng(11)
    games = 0
    for _ in range(600):
        for seat in range(4):
            seats = np.full(64, seat)
            vector.native = True
            native = vector.observe(seats)
            vector.native = False
            assert np.array_equal(native, vector.observe(seats)), f"seat {seat}"
        masks = observations["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        observations, _, terminations, truncations, _ = vector.step(actions)
        games += int((terminations | truncations).sum())
    assert games > 20


def test_the_environment_encodes_in_c_when_it_is_built() -> None:
    assert SpadesVectorEnv(1).native == NATIVE
