"""A clock for the live tables that moves only when the test moves it.

``create_app(clock=clock, timer=clock.timer)`` gives the tables this clock and its
timer: a person away, a turn timer or a reaction's gap then lasts exactly as long
as the test says, however busy the machine is, and no test sleeps for a deadline."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spades.server.tables.live import Wake


@dataclass(eq=False)
class ManualWakeUp:
    """A wake-up set on the manual clock: due at ``at``, until it is called off."""

    at: float
    wake: Wake
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """``clock()`` is now; ``clock.timer`` is the server's ``Timer`` on this clock;
    ``advance`` moves time on and runs each wake-up it passes, in order."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._pending: list[ManualWakeUp] = []
        self._lock = threading.Lock()  # the server's event loops set wake-ups from their threads
        self._set = threading.Condition(self._lock)
        self.wake_ups_set = 0
        """How many wake-ups were ever set: a test waits for one more (``wait_for_wake_up``)."""

    def __call__(self) -> float:
        return self.now

    def timer(self, delay: float, wake: Wake) -> ManualWakeUp:
        wake_up = ManualWakeUp(self.now + max(0.0, delay), wake)
        with self._set:
            self._pending.append(wake_up)
            self.wake_ups_set += 1
            self._set.notify_all()
        return wake_up

    def wait_for_wake_up(self, after: int, within: float = 60.0) -> None:
        """Until more than ``after`` wake-ups were set: for one the server sets on
        an event loop the test does not run (a socket's, once the socket closes),
        so the test advances the clock past it only once it is there. ``within``
        is a deadline for a broken server, not a wait the test counts on."""
        with self._set:
            if not self._set.wait_for(lambda: self.wake_ups_set > after, within):
                raise AssertionError(f"the server set no wake-up within {within} s")

    def advance(self, seconds: float, run: Callable[[Wake], Any]) -> int:
        """Move time ``seconds`` on. Each wake-up that falls due is run by ``run``
        (given the coroutine function: a TestClient's ``portal.call`` runs it on that
        client's event loop, to its end) at its own time; returns how many ran."""
        target = self.now + seconds
        ran = 0
        while (wake_up := self._next_due(target)) is not None:
            self.now = max(self.now, wake_up.at)
            run(wake_up.wake)
            ran += 1
        self.now = target
        return ran

    def _next_due(self, target: float) -> ManualWakeUp | None:
        with self._lock:
            self._pending = [w for w in self._pending if not w.cancelled]
            due = [w for w in self._pending if w.at <= target]
            if not due:
                return None
            first = min(due, key=lambda w: w.at)
            self._pending.remove(first)
            return first
