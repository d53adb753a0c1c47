"""Live tables: who is connected, the WebSockets to push to, the clocks.

Everything here lives in the server process's memory and only there: the game
and its seats are in the database. What is kept is what a restart may forget
without harm: the open sockets, when each person was last seen, the recent
events of each table (so a seat that missed some, or polls, is sent just
those), and one wake-up per table for the next deadline (a person away past
the table's wait, or a turn timer running out).

A person is present while one of their sockets is open, here or in another
server process (which says so in the table change log, ``table_feed.py``), or
for a few seconds after each poll (the fallback when a socket cannot be opened).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from starlette.websockets import WebSocket

from spades.core.seats import Seat

POLL_GRACE: Final = 8.0
"""Seconds a poll keeps its person present: the page polls every two seconds."""
KEPT_EVENTS: Final = 600
"""Events kept a table: more than a hand's, so a page away for a hand catches up."""
REACTION_GAP: Final = 1.5
"""Seconds between two reactions of one seat: quick reactions, not a flood."""
ORIGIN_SILENCE: Final = 60.0
"""Seconds after which another process not heard from (each says it is alive
every ``table_feed.ALIVE_SECONDS``) is taken for dead, with its sockets."""


Wake = Callable[[], Coroutine[Any, Any, None]]
"""What a table does at its next deadline."""


class WakeUp(Protocol):
    """A wake-up that is set: it can be called off."""

    def cancel(self) -> None: ...


Timer = Callable[[float, Wake], WakeUp]
"""Runs a wake after a delay in seconds of the tables' clock; returns the wake-up."""


def event_loop_timer(delay: float, wake: Wake) -> WakeUp:
    """The server's timer: ``wake`` runs on the running event loop after ``delay`` seconds."""
    loop = asyncio.get_running_loop()
    return loop.call_later(max(0.0, delay), lambda: loop.create_task(wake()))


@dataclass(eq=False)
class Subscriber:
    """One open socket: its seat, whether it is the host's (with the secret that
    makes the invites), and how many of the game's events it has been sent."""

    socket: WebSocket
    seat: Seat
    seen: int
    host: bool = False
    token: str | None = None


@dataclass
class LiveTable:
    subscribers: list[Subscriber] = field(default_factory=list)
    last_seen: dict[Seat, float] = field(default_factory=dict)
    gone_since: dict[Seat, float] = field(default_factory=dict)
    events: deque[tuple[int, dict[str, Any]]] = field(
        default_factory=lambda: deque(maxlen=KEPT_EVENTS)
    )
    turn: tuple[int, float] | None = None
    """The game's event count when the turn last changed hands, and when."""
    wake: WakeUp | None = None
    last_reaction: dict[Seat, float] = field(default_factory=dict)
    elsewhere: dict[str, set[Seat]] = field(default_factory=dict)
    """The seats whose sockets other processes hold, by process (as last heard)."""
    known_length: int = 0
    """The game's log count as of the last change made here or heard of."""


class LiveTables:
    """The live state of every table this process serves, on ``clock`` (seconds)
    with deadlines set on ``timer``: the server's own unless a test moves them."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, timer: Timer = event_loop_timer
    ) -> None:
        self.clock = clock
        self.timer = timer
        self.tables: dict[str, LiveTable] = {}
        self.origin = secrets.token_hex(8)
        """This process among those sharing the database: its changes say so."""
        self.heard_from: dict[str, float] = {}
        """When each other process last logged a change (or said it is alive)."""

    def table(self, game_id: str) -> LiveTable:
        return self.tables.setdefault(game_id, LiveTable())

    # ---------------------------------------------------------------- presence

    def connected(self, game_id: str, seat: Seat) -> bool:
        live = self.table(game_id)
        if any(sub.seat == seat for sub in live.subscribers):
            return True
        now = self.clock()
        return any(
            seat in seats and now - self.heard_from.get(origin, -ORIGIN_SILENCE) < ORIGIN_SILENCE
            for origin, seats in live.elsewhere.items()
        )

    def alive_elsewhere(self, origin: str) -> None:
        """Another process logged a change, or said it is alive."""
        self.heard_from[origin] = self.clock()

    def connected_here(self, game_id: str) -> list[Seat]:
        """The seats with a socket open in this process."""
        return sorted({sub.seat for sub in self.table(game_id).subscribers})

    def connected_elsewhere(self, game_id: str, origin: str, seats: set[Seat]) -> None:
        """What another process says it holds: the sockets of ``seats``."""
        live = self.table(game_id)
        held = live.elsewhere.get(origin, set())
        live.elsewhere[origin] = seats
        for seat in held - seats:
            if not self.connected(game_id, seat):  # the seat's wait starts now
                live.last_seen.pop(seat, None)
                live.gone_since.setdefault(seat, self.clock())

    def present(self, game_id: str, seat: Seat) -> bool:
        live = self.table(game_id)
        if self.connected(game_id, seat):
            return True
        seen = live.last_seen.get(seat)
        return seen is not None and self.clock() - seen < POLL_GRACE

    def away_left(self, game_id: str, seat: Seat, away_seconds: int) -> float | None:
        """Seconds before the stand-in plays the seat of a person who is away
        (0 once it does); None while they are here."""
        if self.present(game_id, seat):
            return None
        live = self.table(game_id)
        now = self.clock()
        last = live.last_seen.get(seat)
        gone = live.gone_since.setdefault(seat, now if last is None else last + POLL_GRACE)
        return max(0.0, away_seconds - (now - gone))

    def stood_in(self, game_id: str, seat: Seat, away_seconds: int) -> bool:
        left = self.away_left(game_id, seat, away_seconds)
        return left is not None and left <= 0

    def seen(self, game_id: str, seat: Seat) -> None:
        """A request from the seat's person: present now."""
        live = self.table(game_id)
        live.last_seen[seat] = self.clock()
        live.gone_since.pop(seat, None)

    def subscribe(
        self,
        game_id: str,
        socket: WebSocket,
        seat: Seat,
        seen: int,
        *,
        host: bool = False,
        token: str | None = None,
    ) -> Subscriber:
        subscriber = Subscriber(socket, seat, seen, host, token)
        self.table(game_id).subscribers.append(subscriber)
        self.seen(game_id, seat)
        return subscriber

    def unsubscribe(self, game_id: str, subscriber: Subscriber) -> None:
        live = self.table(game_id)
        with contextlib.suppress(ValueError):
            live.subscribers.remove(subscriber)
        if not self.connected(game_id, subscriber.seat):
            live.last_seen.pop(subscriber.seat, None)
            live.gone_since[subscriber.seat] = self.clock()

    # ------------------------------------------------------------------ events

    def record(self, game_id: str, log_length: int, events: list[dict[str, Any]]) -> None:
        """Keep the events a move made: the last ``len(events)`` of the game's log."""
        live = self.table(game_id)
        live.known_length = max(live.known_length, log_length)
        first = log_length - len(events)
        for offset, event in enumerate(events):
            if live.events and live.events[-1][0] >= first + offset:
                continue  # kept already (heard twice)
            live.events.append((first + offset, event))

    def pass_over(self, game_id: str, log_length: int) -> None:
        """A change made elsewhere to a table with no socket here: its events are
        not kept (each process would otherwise keep every table's), and so, to
        keep the kept ones without a gap, neither are the earlier ones."""
        live = self.table(game_id)
        live.known_length = max(live.known_length, log_length)
        live.events.clear()

    def events_since(
        self, game_id: str, since: int, log_length: int
    ) -> list[dict[str, Any]] | None:
        """The kept events from index ``since`` on; None if some were not kept."""
        if since >= log_length:
            return []
        kept = self.table(game_id).events
        if not kept or kept[0][0] > since:
            return None
        return [event for index, event in kept if index >= since]

    def turn_started(self, game_id: str, log_length: int, to_act: Seat | None) -> float:
        """When the seat to act got the turn (as this process saw it)."""
        live = self.table(game_id)
        if live.turn is None or live.turn[0] != log_length:
            live.turn = (log_length, self.clock())
        return live.turn[1]

    # ------------------------------------------------------------------ clocks

    def wake_at(self, game_id: str, delay: float | None, wake: Wake) -> None:
        """Run ``wake`` after ``delay`` seconds (None: cancel), replacing any earlier wake-up."""
        live = self.table(game_id)
        if live.wake is not None:
            live.wake.cancel()
            live.wake = None
        if delay is None:
            return
        live.wake = self.timer(delay, wake)

    def may_react(self, game_id: str, seat: Seat) -> bool:
        live = self.table(game_id)
        now = self.clock()
        if now - live.last_reaction.get(seat, -REACTION_GAP) < REACTION_GAP:
            return False
        live.last_reaction[seat] = now
        return True

    def close(self) -> None:
        for live in self.tables.values():
            if live.wake is not None:
                live.wake.cancel()
