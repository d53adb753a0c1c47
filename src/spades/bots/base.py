"""The one interface every computer player implements.

A bot is handed its seat's ``PlayerView`` (never the full state) and answers
with a bid or a card. It owns its RNG, seeded at creation, so a seeded game
between bots is reproducible.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from spades.core import Card, PlayerView


class Bot(ABC):
    """A computer player. Subclasses implement ``bid`` and ``play``."""

    name: str = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def bid(self, view: PlayerView) -> int:
        """A bid for the seat of ``view``: ``NIL`` (0) or 1..13."""

    @abstractmethod
    def play(self, view: PlayerView) -> Card:
        """A legal card for the seat of ``view``."""
