"""The vectorised tables against the reference: every table, every step, the
same deals, masks, observations, rewards and final scores as the AEC
environment (which plays through the engine) reset with the same seed."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.utils.env_checker import data_equivalence

from spades.core import NIL, IllegalActionError, Rules, ScoredHand, parse_rules
from spades.rl import AGENTS, SpadesEnv
from spades.rl.encoding import CARD_ACTIONS, bid_action
from spades.rl.vector import NATIVE, UNSUPPORTED_OPTIONS, SpadesVectorEnv, UnsupportedRulesError

NIL_ACTION = bid_action(NIL)


def nil_minded(
    mask: npt.NDArray[np.int8], scalar: SpadesEnv, rng: np.random.Generator, nil_share: float
) -> int:
    """An action for ``play_side_by_side``'s ``nil_share``: Nil that often when it
    may be bid, a Nil bidder's lowest card, else a uniformly random legal action."""
    legal = np.flatnonzero(mask)
    if not legal.size:
        return 0
    if mask[NIL_ACTION] and rng.random() < nil_share:
        return NIL_ACTION
    hand = scalar.game.hand
    if legal[0] < CARD_ACTIONS and hand.bids[hand.turn] == NIL:
        return int(min(legal, key=lambda card: (card % 13, card)))
    return int(rng.choice(legal))


def scoring_paths(scored: ScoredHand) -> set[str]:
    """The ways ``scored`` was scored that the vectorised scoring works out apart."""
    paths = set()
    for score in scored.scores:
        for nil in score.nil_contracts:
            paths.add(f"{nil.kind.value} {'made' if nil.contract_made else 'failed'}")
        if score.bid is None:
            paths.add("no numeric bid")
        else:
            paths.add("made" if score.made else "set")
            if score.nils:
                paths.add("a Nil beside a numeric bid")
        if score.bag_penalties:
            paths.add("bag penalty")
    return paths


def play_side_by_side(
    tables: int,
    episodes: int,
    seed: int,
    *,
    every_seat: bool = False,
    nil_share: float = 0.0,
    **options: Any,
) -> Counter[str]:
    """Random legal actions at ``tables`` vectorised tables and as many AEC
    environments, until ``episodes`` episodes have ended; asserts they agree
    at every step. Returns how many hands and episodes were compared, and how
    many times each way of scoring a hand came up (``scoring_paths``).

    With ``nil_share``, a seat bids Nil that often when it may, and a Nil bidder
    plays its lowest legal card (uniformly random play makes a Nil that holds
    rare: a few in a thousand hands); every other action stays uniformly random."""
    vector = SpadesVectorEnv(tables, **options)
    scalars = [SpadesEnv(**options) for _ in range(tables)]
    for table, scalar in enumerate(scalars):
        scalar.reset(seed=seed + table)
    observations, infos = vector.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended = hands = 0
    paths: Counter[str] = Counter()
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
        if nil_share:
            actions = np.array(
                [
                    nil_minded(mask, scalar, rng, nil_share)
                    for mask, scalar in zip(masks, scalars, strict=True)
                ]
            )
        else:
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
                for scored in played:
                    paths.update(scoring_paths(scored))
                assert tuple(vector.totals[table]) == played[-1].totals
                assert tuple(vector.bags[table]) == (
                    played[-1].scores[0].bags,
                    played[-1].scores[1].bags,
                )
        restarting = terminations | truncations
    return Counter({"hands": hands, "episodes": ended, **paths})


SCORING_PATHS = ("made", "set", "nil made", "nil failed", "a Nil beside a numeric bid")
"""What every rule set's hands must have come to (``scoring_paths``)."""


@pytest.mark.slow
def test_hundreds_of_random_hands_match_the_aec_environment() -> None:
    """Every way the vectorised scoring can work a hand out under these rules comes
    up, each several times. (Uniformly random play, over 2,000 hands, met the
    bag penalty 4 times, a team without a numeric bid 19 and a Nil that held
    15: Nil-minded play meets each as often in 320.)"""
    played = play_side_by_side(32, 320, seed=100, episode="hand", nil_share=0.3)
    assert played["hands"] >= 320
    for path in (*SCORING_PATHS, "no numeric bid", "bag penalty"):
        assert played[path] >= 2, (path, played)


def test_every_seat_observes_what_the_aec_environment_shows_it() -> None:
    play_side_by_side(8, 40, seed=5, episode="hand", every_seat=True)


@pytest.mark.parametrize("shaping", [False, True])
def test_whole_games_match_the_aec_environment(shaping: bool) -> None:
    played = play_side_by_side(16, 24, seed=31, episode="game", shaping=shaping)
    assert played["hands"] > 24


HOUSE_RULES = {
    "cardcouch,target=250,floor=-100,bag_limit=5,bag_penalty=50,nil_bonus=50": (
        "no numeric bid",
        "bag penalty",
    ),
    "cardcouch,double_nil=off,min_team_bid=4,first_lead=two_of_clubs": (),
    "cardcouch,double_nil_bonus=300,spades_break=off,floor=none,bag_limit=none": (
        "double_nil failed",
    ),
}
"""Each rule set, and the ways of scoring a hand its own rules add (``scoring_paths``)."""


@pytest.mark.slow
@pytest.mark.parametrize("text", HOUSE_RULES)
def test_house_rules_match_the_aec_environment(text: str) -> None:
    rules = parse_rules(text)
    played = play_side_by_side(16, 150, seed=7, episode="hand", rules=rules, nil_share=0.3)
    for path in (*SCORING_PATHS, *HOUSE_RULES[text]):
        assert played[path] >= 2, (path, played)
    if rules.bag_limit is None:
        assert played["bag penalty"] == 0
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
    # Every seat, every step of whole games, both encoders on the same state (32
    # tables: 64 compared twice as many states of the same kind, at twice the time).
    vector = SpadesVectorEnv(32, episode="game", rules=parse_rules(text), max_hands=8)
    observations, _ = vector.reset(seed=11)
    rng = np.random.default_rng(11)
    games = 0
    for _ in range(600):
        for seat in range(4):
            seats = np.full(32, seat)
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
