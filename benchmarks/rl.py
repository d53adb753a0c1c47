"""How fast the RL environments step with random legal actions. Run by hand:

    .venv/bin/python benchmarks/rl.py [--seconds 2] [--rounds 3] [--tables 1024] [--only vector]

A step is one action of one agent (a bid or a card). Every contender chooses
uniformly among the legal actions (``random.choice`` of the mask's nonzero
entries, as OpenSpiel's list of legal actions is driven below) and, as a
learner would, builds the acting agent's observation before each action:

* engine:      ``Game.bid``/``Game.play`` with ``random.choice`` of the legal moves
               and no observation at all (the floor under everything else);
* AEC raw:     ``raw_env()``, the usual ``agent_iter``/``last``/``step`` loop,
               flat observations, masks read with numpy; hand and game episodes;
* AEC env():   the same through PettingZoo's ``OrderEnforcingWrapper``;
* AEC dict:    ``observation_mode="dict"``;
* vector:      ``SpadesVectorEnv(tables)``, every table stepped at once; a
               random legal action a table drawn with numpy (the argmax of
               uniform noise on the mask), the observation and mask of the
               seat to act at every table returned by each step. Its steps
               are the actions applied (the step after an episode ends,
               which only starts the next one at that table, is not counted);
* single:      ``SpadesSingleAgentEnv`` against random and normal bots; its
               steps/s counts every action at the table (the learner's and the
               bots'), and ``learner steps/s`` the ``env.step`` calls;

and, when ``open_spiel`` is importable (``pip install open-spiel``), OpenSpiel's
``spades`` driven the same way from Python: ``observation_tensor`` of the player
to act, then a random legal action (the deal's 52 chance actions are applied but
not counted as steps). Its game is different (see docs/rl.md), so the numbers
compare cost, not rules.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from interleaved import best_of_interleaved  # benchmarks/ is on the path when run

from spades.core import Game, Phase
from spades.rl import SpadesSingleAgentEnv, env, raw_env
from spades.rl.vector import SpadesVectorEnv

Run = Callable[[int], int]
"""Plays one episode from a seed; returns the number of actions taken (steps)."""


def engine_run() -> Run:
    rng = random.Random(1)

    def run(seed: int) -> int:
        game = Game(seed=seed)
        steps = 0
        while len(game.history) < 1:
            seat = game.to_act
            assert seat is not None
            if game.phase is Phase.BIDDING:
                game.bid(seat, rng.choice(game.legal_bids()))
            else:
                game.play(seat, rng.choice(game.legal_cards()))
            steps += 1
        return steps

    return run


def aec_run(make: Callable[..., Any], **options: Any) -> Run:
    table = make(**options)
    rng = random.Random(1)

    def run(seed: int) -> int:
        table.reset(seed=seed)
        steps = 0
        for _ in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
            steps += 1
        return steps

    return run


def vector_run(tables: int, **options: Any) -> Run:
    import numpy as np

    vector = SpadesVectorEnv(tables, **options)
    rng = np.random.default_rng(1)
    observations, _ = vector.reset(seed=0)
    restarting = np.zeros(tables, dtype=bool)
    noise = np.empty((tables, vector.single_action_space.n), dtype=np.float32)

    def run(seed: int) -> int:
        nonlocal observations, restarting
        steps = 0
        for _ in range(14):  # a quarter of a hand at every table
            rng.random(out=noise, dtype=np.float32)
            np.multiply(noise, observations["action_mask"], out=noise)
            actions = noise.argmax(axis=1)
            observations, _, terminations, truncations, _ = vector.step(actions)
            steps += tables - int(restarting.sum())
            restarting = terminations | truncations
        return steps

    return run


def single_agent_run(opponents: str) -> Run:
    single = SpadesSingleAgentEnv(opponents=opponents)
    rng = random.Random(1)

    def run(seed: int) -> int:
        observation, _ = single.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            action = rng.choice(observation["action_mask"].nonzero()[0].tolist())
            observation, _, terminated, truncated, _ = single.step(action)
        return 56  # a hand: four bids and 52 cards (14 of them the learner's)

    return run


def open_spiel_run() -> Run | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    rng = random.Random(1)

    def run(seed: int) -> int:
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        state.returns()
        return steps

    return run


def steps_per_second(
    run: Run, seconds: float, clock: Callable[[], float] = time.perf_counter
) -> float:
    for seed in range(20):  # warm up
        run(seed)
    steps = 0
    seed = 1000
    start = clock()
    while (elapsed := clock() - start) < seconds:
        for _ in range(10):
            steps += run(seed)
            seed += 1
    return steps / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="measure every contender this many times, interleaved; keep the best",
    )
    parser.add_argument(
        "--tables", type=int, default=1024, help="tables of the vectorised environment"
    )
    parser.add_argument(
        "--only",
        choices=("vector", "aec"),
        help="measure only the vectorised (or only the AEC) contenders, with OpenSpiel",
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="steps per second of this process's CPU time, not of the wall clock "
        "(less sensitive to other work on a shared machine)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu_time else time.perf_counter

    vector_runs: list[tuple[str, Run]] = [
        (f"vector, {args.tables} tables, hand", vector_run(args.tables, episode="hand")),
        (f"vector, {args.tables} tables, game", vector_run(args.tables, episode="game")),
    ]
    runs: list[tuple[str, Run]] = [
        ("engine, checked Game API, no obs", engine_run()),
        ("AEC raw_env, hand, flat", aec_run(raw_env, episode="hand")),
        ("AEC raw_env, game, flat", aec_run(raw_env, episode="game")),
        ("AEC env() wrapper, hand, flat", aec_run(env, episode="hand")),
        ("AEC raw_env, hand, dict", aec_run(raw_env, episode="hand", observation_mode="dict")),
        ("single agent vs random bots", single_agent_run("random")),
        ("single agent vs normal bots", single_agent_run("normal")),
    ]
    if args.only == "vector":
        runs = vector_runs
    elif args.only == "aec":
        runs = runs[1:3]
    else:
        runs = runs[:1] + vector_runs + runs[1:]
    reference = open_spiel_run()
    if reference is not None:
        runs.append(("OpenSpiel spades (pyspiel)", reference))

    print(
        f"Python {sys.version.split()[0]}, best of {args.rounds} interleaved runs of "
        f"{args.seconds:g} s{' of CPU time' if args.cpu_time else ''}: random legal actions, "
        "an observation before each"
    )
    results = best_of_interleaved(
        runs, args.rounds, lambda run: steps_per_second(run, args.seconds, clock)
    )
    baseline = results.get("OpenSpiel spades (pyspiel)")
    for name, rate in results.items():
        ratio = f"  {rate / baseline:5.2f}x OpenSpiel" if baseline else ""
        print(f"  {name:34} {rate:10,.0f} steps/s  {1e6 / rate:7.1f} us/step{ratio}")
    for opponents in ("random", "normal"):
        rate = results.get(f"single agent vs {opponents} bots", 0.0)
        if rate:
            print(f"  (single agent vs {opponents} bots: {rate * 14 / 56:,.0f} learner steps/s)")
    if baseline is None:
        print("  (open_spiel not installed: `pip install open-spiel` to compare)")


if __name__ == "__main__":
    main()
