#!/usr/bin/env python3
"""One seat against built-in bots through the Gymnasium environment (no training).

    pip install -e '.[rl]'
    python examples/rl_single_agent.py [--episodes 5] [--opponents normal] [--seed 1]

The learner sits South; North, East and West are built-in bots that see only
their own seat's view. The observation is a dict: ``observation`` (the float32
vector laid out in docs/rl.md) and ``action_mask`` (1 for each legal action).
This loop plays uniformly random legal actions; a policy goes in ``choose``.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from spades.rl import SpadesSingleAgentEnv


def choose(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random action among those the mask allows."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--opponents", default="normal", help="random, easy or normal")
    parser.add_argument("--episode", choices=("hand", "game"), default="hand")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    env = SpadesSingleAgentEnv(seat="S", opponents=args.opponents, episode=args.episode)
    rng = np.random.default_rng(args.seed)
    returns = []
    for number in range(args.episodes):
        observation, _ = env.reset(seed=args.seed if number == 0 else None)
        episode_return, steps = 0.0, 0
        terminated = truncated = False
        while not (terminated or truncated):
            action = choose(observation, rng)
            observation, reward, terminated, truncated, _ = env.step(action)
            episode_return += reward
            steps += 1
        returns.append(episode_return)
        print(
            f"episode {number + 1}: {steps} learner actions, return {episode_return:+.2f}, "
            f"score NS {env.game.totals[0]} EW {env.game.totals[1]}"
        )
    print(f"mean return over {len(returns)} episodes: {np.mean(returns):+.3f}")
    env.close()


if __name__ == "__main__":
    main()
