"""Spades for reinforcement learning, with the real rules (``pip install -e '.[rl]'``).

* ``env(...)`` / ``raw_env(...)``: a PettingZoo AEC environment, four agents
  ``"N"``, ``"E"``, ``"S"``, ``"W"`` (``env`` adds PettingZoo's order checks);
* ``SpadesSingleAgentEnv(...)``: a Gymnasium environment, one learning seat
  against built-in bots;
* ``spades.rl.encoding``: the observation vector and the action numbers.

The engine (``spades.core``) decides every rule and score; docs/rl.md has the
observation layout, the actions, the rewards and measured speeds.
"""

from .aec import AGENTS, SpadesEnv, env, raw_env
from .encoding import (
    ACTION_COUNT,
    BLIND_NIL_ACTION,
    LOOK_ACTION,
    OBSERVATION_PARTS,
    OBSERVATION_SIZE,
    action_bid,
    action_card,
    action_count,
    action_mask,
    bid_action,
    card_action,
    describe_action,
    encode_view,
    split_observation,
)
from .single_agent import SpadesSingleAgentEnv

__all__ = [
    "ACTION_COUNT",
    "AGENTS",
    "BLIND_NIL_ACTION",
    "LOOK_ACTION",
    "OBSERVATION_PARTS",
    "OBSERVATION_SIZE",
    "SpadesEnv",
    "SpadesSingleAgentEnv",
    "action_bid",
    "action_card",
    "action_count",
    "action_mask",
    "bid_action",
    "card_action",
    "describe_action",
    "encode_view",
    "env",
    "raw_env",
    "split_observation",
]
