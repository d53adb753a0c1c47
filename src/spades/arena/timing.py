"""Timing a bot's decisions: a wrapper that measures each ``bid`` and ``play``
call and nothing else (not the referee, not the other seats)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from spades.bots import Bot
from spades.core import Card, Event, PlayerView, Rules, Seat


@dataclass
class Timings:
    """Nanoseconds per decision, bids and cards apart."""

    bids: list[int] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)


class TimedBot(Bot):
    """Passes every call to ``inner``, timing its bids and cards into ``timings``."""

    def __init__(self, inner: Bot, timings: Timings) -> None:
        super().__init__()
        self.inner = inner
        self.timings = timings
        self.name = inner.name

    def bid(self, view: PlayerView) -> int:
        start = time.perf_counter_ns()
        bid = self.inner.bid(view)
        self.timings.bids.append(time.perf_counter_ns() - start)
        return bid

    def play(self, view: PlayerView) -> Card:
        start = time.perf_counter_ns()
        card = self.inner.play(view)
        self.timings.cards.append(time.perf_counter_ns() - start)
        return card

    def start_game(self, seat: Seat, rules: Rules) -> None:
        self.inner.start_game(seat, rules)

    def observe(self, event: Event, view: PlayerView) -> None:
        self.inner.observe(event, view)

    def close(self) -> None:
        self.inner.close()

    @property
    def wants_events(self) -> bool:
        # Only as hungry for events as the bot inside: the referee builds a view
        # per event for each listener, which would slow (and skew) the others.
        return self.inner.wants_events
