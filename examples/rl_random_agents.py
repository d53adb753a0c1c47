#!/usr/bin/env python3
"""Four random agents through the PettingZoo environment, using the action masks.

    pip install -e '.[rl]'
    python examples/rl_random_agents.py [--episodes 3] [--episode hand|game] [--seed 1]

Each agent picks uniformly among the actions its observation's ``action_mask``
allows (actions 0..51 are cards, 52 + bid are bids, 52 = Nil). Replace
``choose`` with a policy to train or evaluate one.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from spades.rl import describe_action, env


def choose(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random legal action."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--episode", choices=("hand", "game"), default="hand")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    table = env(episode=args.episode)
    rng = np.random.default_rng(args.seed)
    table.reset(seed=args.seed)
    for number in range(1, args.episodes + 1):
        if number > 1:
            table.reset()  # the next game seed comes from --seed: the run repeats
        returns = dict.fromkeys(table.agents, 0.0)
        steps = 0
        first_actions: list[str] = []
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            returns[agent] += reward
            if terminated or truncated:
                table.step(None)  # a finished agent steps with None and leaves
                continue
            action = choose(observation, rng)
            if len(first_actions) < 6:
                first_actions.append(f"{agent} {describe_action(action)}")
            table.step(action)
            steps += 1
        game = table.unwrapped.game
        shown = ", ".join(f"{agent} {value:+.2f}" for agent, value in returns.items())
        print(f"episode {number} (game seed {game.seed}): {steps} actions, returns {shown}")
        print(f"  first actions: {', '.join(first_actions)}, ...")
        print(f"  score after it: NS {game.totals[0]}, EW {game.totals[1]}")
    table.close()


if __name__ == "__main__":
    main()
