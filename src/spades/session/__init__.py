"""What a game with people in it needs, once, below the terminal and the web.

``turns`` makes a bot's move: the seed a decision is made with (so an undone
move made again meets the same answers), the question asked for the phase, and
the forfeit of a bot that fails or breaks a rule; the arena's referee makes its
moves with it too. ``deciders`` says where a built-in bot's decision is
computed: in this process, in a pool of processes using every core, or on a
Ray cluster, always within the decision budget. Nothing here knows of HTTP,
pydantic or the terminal.
"""

from __future__ import annotations

from .deciders import (
    BOT_SERVICES,
    FULL_EFFORT,
    Decider,
    Effort,
    InlineDecider,
    ProcessDecider,
    make_decider,
)
from .turns import Answer, answer_of, apply_answer, bot_move, bot_turn, decision_seed

__all__ = [
    "BOT_SERVICES",
    "FULL_EFFORT",
    "Answer",
    "Decider",
    "Effort",
    "InlineDecider",
    "ProcessDecider",
    "answer_of",
    "apply_answer",
    "bot_move",
    "bot_turn",
    "decision_seed",
    "make_decider",
]
