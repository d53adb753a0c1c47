"""Driving the RL environments with random legal actions."""

from __future__ import annotations

from typing import Any

import numpy as np

from spades.core import FULL_DECK
from spades.rl.encoding import PARTS, FloatArray


def random_legal(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random action among those the observation's mask allows."""
    legal = np.flatnonzero(observation["action_mask"])
    assert legal.size, "no legal action"
    return int(rng.choice(legal))


def card_mask(row: FloatArray) -> int:
    """The cards set in a 52-wide row of the observation, as a mask."""
    mask = 0
    for card in np.flatnonzero(row):
        mask |= 1 << int(card)
    return mask


def cards_shown(flat: FloatArray) -> int:
    """Every card that appears anywhere in a flat observation (hand, trick, played)."""
    shown = 0
    for name in ("hand", "trick", "played"):
        part = PARTS[name]
        for row in flat[part.offset : part.stop].reshape(-1, 52):
            shown |= card_mask(row)
    assert shown & ~FULL_DECK == 0
    return shown
