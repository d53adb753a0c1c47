"""The one interface every computer player implements.

A bot is handed its seat's ``PlayerView`` (never the full state) and answers
with a bid or a card. It owns its RNG, seeded at creation, so a seeded game
between bots is reproducible. Bots that keep their own memory, or relay the
game to another process, may also follow the game's public events.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from spades.core import Card, Event, PlayerView, Rules, Seat


class BotFailure(Exception):
    """A bot could not give a move (a program that crashed, timed out or spoke
    nonsense). The referee records the reason and the bot's side forfeits."""


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

    def start_game(self, seat: Seat, rules: Rules) -> None:  # noqa: B027 (optional hook)
        """Called once before the game's first deal."""

    def observe(self, event: Event, view: PlayerView) -> None:  # noqa: B027 (optional hook)
        """Called after every public event (a deal, a bid, a card, a trick, a
        score, the end), in order, with this seat's view once the turn that
        caused it is over. Only bots that override
        it are called, so the built-in ones cost nothing here."""

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Called when the bot is no longer needed (stop a process, free memory)."""

    @property
    def wants_events(self) -> bool:
        return type(self).observe is not Bot.observe
