"""A storage fault that lasts, as a background task meets it: said in the log
when it starts, at a bounded rate while it lasts, and when it ends; and the
pause before the next try, growing while the fault lasts.

A task that asks the database on a timer (the table feed reads the change log
every 50 ms) meets a stopped PostgreSQL or a locked SQLite file at each try:
logged each time, that filled the log with 20 lines a second. ``Outage`` says
it once, then once every ``REPEAT_SECONDS`` with the count of failures since,
then once when a try works again. ``Backoff`` is the retry's pause: short at
first (a fault of a moment costs the task little), doubling to a bound (a
long one costs the database a try every couple of seconds, and its recovery
is still noticed within that).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Final

from .faults import StorageFault, storage_fault

REPEAT_SECONDS: Final = 60.0
"""How often a fault that lasts is said again (with the count of failures since)."""
FIRST_RETRY_SECONDS: Final = 0.05
LAST_RETRY_SECONDS: Final = 2.0
"""The longest pause between two tries: a recovery is noticed within it."""


class Outage:
    """What ``logger`` says of the failures of one task (``what`` names it, as
    in "reading the table change log"), on ``clock`` (seconds)."""

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        *,
        repeat_seconds: float = REPEAT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.what = what
        self.repeat_seconds = repeat_seconds
        self.clock = clock
        self.started: float | None = None
        """When the failures began (None: the last try worked)."""
        self.failures = 0
        """Failures since the fault began."""
        self._unsaid = 0
        """Failures since the last line said of it."""
        self._said_at = 0.0

    def failed(self, error: Exception) -> None:
        """A try failed with ``error``: a storage fault (the store away, busy,
        read-only) is said in a line, by its rule and cause; anything else is
        unexpected, and is said with its traceback."""
        fault = storage_fault(error)
        if fault is None:
            cause, traceback = f"{type(error).__name__}: {error}".splitlines()[0], error
        else:
            cause, traceback = f"{fault.rule}: {fault}", None
        now = self.clock()
        self.failures += 1
        self._unsaid += 1
        if self.started is None:
            self.started = now
            self.logger.warning(
                "%s failed: %s (said again at most every %.0f s while it lasts)",
                self.what,
                cause,
                self.repeat_seconds,
                exc_info=traceback,
            )
        elif now - self._said_at >= self.repeat_seconds:
            self.logger.warning(
                "%s still fails: %d failures in the last %.0f s, %.0f s since it began; "
                "the latest: %s",
                self.what,
                self._unsaid,
                now - self._said_at,
                now - self.started,
                cause,
                exc_info=traceback,
            )
        else:
            return
        self._said_at = now
        self._unsaid = 0

    def recovered(self) -> None:
        """A try worked: said once if a fault was going on."""
        if self.started is None:
            return
        self.logger.warning(
            "%s works again, after %.1f s and %d failures",
            self.what,
            self.clock() - self.started,
            self.failures,
        )
        self.started = None
        self.failures = 0
        self._unsaid = 0


class Refusals:
    """What ``logger`` says of the requests a storage fault refuses (503): the
    first at once, then at most one line every ``repeat_seconds``, with how
    many were refused meanwhile. A crowd meeting a stopped database refused
    hundreds of requests a second, each said in a line of its own. (A request
    has no moment of working again to say, as a background task has: the
    counts say when the refusals stop.) Safe to call from any thread."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        repeat_seconds: float = REPEAT_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.repeat_seconds = repeat_seconds
        self.clock = clock
        self._said_at: float | None = None
        self._unsaid = 0
        self._lock = threading.Lock()

    def refused(self, where: str, fault: StorageFault) -> None:
        """A request (``where``: its method and path) was refused for ``fault``."""
        now = self.clock()
        with self._lock:
            if self._said_at is not None and now - self._said_at < self.repeat_seconds:
                self._unsaid += 1
                return
            unsaid, since = self._unsaid, self._said_at
            self._unsaid, self._said_at = 0, now
        if unsaid and since is not None:
            self.logger.warning(
                "storage fault on %s: %s (and %d more requests refused for storage faults "
                "in the %.0f s before, not said one by one)",
                where,
                fault,
                unsaid,
                now - since,
            )
        else:
            self.logger.warning("storage fault on %s: %s", where, fault)


class Backoff:
    """The pause before the next try: ``first`` seconds after a failure,
    doubled after each further one up to ``last``; back to ``first`` once a
    try works.

    >>> backoff = Backoff(0.05, 2.0)
    >>> [backoff.failed() for _ in range(8)]
    [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0]
    >>> backoff.worked(); backoff.failed()
    0.05
    """

    def __init__(
        self, first: float = FIRST_RETRY_SECONDS, last: float = LAST_RETRY_SECONDS
    ) -> None:
        self.first = first
        self.last = last
        self._next = first

    def failed(self) -> float:
        """A try failed: the pause before the next one."""
        pause = self._next
        self._next = min(self.last, pause * 2)
        return pause

    def worked(self) -> None:
        self._next = self.first
