"""Pushes across server processes: each hears the changes the others make.

A table's people may be served by different processes (``spades serve
--workers N`` on PostgreSQL, or several servers over one SQLite file on one
machine). Whichever process makes a change pushes it to the sockets it holds
and logs it in the database (``storage/table_changes.py``); every process
reads the log's new rows and pushes each change made elsewhere to its own.

How a process learns there are new rows:

- **PostgreSQL**: a connection of its own LISTENs on the log's channel, and
  each row's transaction NOTIFYs it on commit: a push crosses processes in
  about a millisecond, with no timer. The log is also read every
  ``SAFETY_SECONDS`` in case the listening connection dropped a notification
  while it reconnected.
- **SQLite**: no notifications, and no broker to run beside a file. The
  listener asks for rows after the last it heard every ``POLL_SECONDS``: an
  indexed read of a local file in WAL mode (readers never wait for the
  writer), about 0.1 ms of CPU, 20 times a second: 0.2% of a core. A socket or pipe
  between the processes would need each to know the others' addresses, which
  independent servers over one file do not have; the file they share is the
  one rendezvous there is.

A database in memory belongs to one process: nothing to hear, so no listener.

A store that fails (a PostgreSQL stopped, an SQLite file locked past the
wait) fails each of these tries: each task says so once, then once a minute
with the count, then once when it works again (``storage/outages.py``), and
tries again after a pause that doubles from 50 ms to 2 s, so that a store
away for an hour costs it a try every 2 s, and its return is heard within 2 s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

from sqlalchemy.engine import make_url

from spades.storage.faults import UNAVAILABLE, StorageFault
from spades.storage.outages import Backoff, Outage
from spades.storage.table_changes import ALIVE, CHANNEL, TableChange, TableChangeLog

POLL_SECONDS: Final = 0.05
"""How often an SQLite listener reads the log: half of it is the push's added delay."""
SAFETY_SECONDS: Final = 5.0
"""How often a PostgreSQL listener reads the log without being told to."""
STOP_SECONDS: Final = 2.0
"""The longest a stopping server waits for its listener tasks to end."""
ALIVE_SECONDS: Final = 20.0
"""How often a process logs that it is alive, so that the others keep counting
the sockets it holds as connected (``live.ORIGIN_SILENCE``)."""

log = logging.getLogger(__name__)

Hear = Callable[[list[TableChange]], Awaitable[None]]


def _in_memory(url: str) -> bool:
    parsed = make_url(url)
    return parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:")


class TableFeed:
    """This process's ear on the change log: ``hear`` is given, oldest first,
    each batch of changes that ``origin`` (this process) did not make. Its
    faults are said in the log on ``clock`` (seconds)."""

    def __init__(
        self,
        changes: TableChangeLog,
        url: str,
        origin: str,
        hear: Hear,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.changes = changes
        self.url = url
        self.origin = origin
        self.hear = hear
        self.last_id = 0
        self._wake = asyncio.Event()
        self._reading = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()
        """Set once a PostgreSQL listener LISTENs and has read what came before:
        from then on a notification is what brings each change."""
        self.reading = Outage(log, "reading the table change log", clock=clock)
        self.saying_alive = Outage(log, "logging that this process is alive", clock=clock)
        self.connecting = Outage(log, "the table change listener's connection", clock=clock)
        self._read_backoff = Backoff()

    @property
    def alone(self) -> bool:
        """Whether no other process can share this database (SQLite in memory)."""
        return _in_memory(self.url)

    async def start(self) -> None:
        """Start listening from the newest change on (what came before was pushed)."""
        if self.alone:
            return
        self.last_id = await asyncio.to_thread(self.changes.last_id)
        self._tasks.append(asyncio.create_task(self._read_when_woken()))
        self._tasks.append(asyncio.create_task(self._say_alive()))
        if self.changes.notifies:
            self._tasks.append(asyncio.create_task(self._listen()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # Bounded: a cancelled LISTEN was seen to hang in the driver (a test's
            # server shutdown waited for ever), and a stopping server must not
            # wait on its listener; what is still running is abandoned.
            await asyncio.wait(self._tasks, timeout=STOP_SECONDS)
        self._tasks.clear()

    @property
    def interval(self) -> float:
        """The pause between two timed reads of the log while it answers."""
        return SAFETY_SECONDS if self.changes.notifies else POLL_SECONDS

    async def _read_when_woken(self) -> None:
        pause = self.interval
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)
            self._wake.clear()  # notifications meanwhile are answered by this one read
            pause = await self.read_once()

    async def read_once(self) -> float:
        """One timed read of the log; returns the pause before the next: the
        interval, or while the store fails a pause that grows (``Backoff``)."""
        try:
            await self.read()
        except Exception as error:  # the database away for a moment: the next read catches up
            self.reading.failed(error)
            return self._read_backoff.failed()
        self.reading.recovered()
        self._read_backoff.worked()
        return self.interval

    async def _say_alive(self) -> None:
        while True:
            await self.say_alive_once()
            await asyncio.sleep(ALIVE_SECONDS)

    async def say_alive_once(self) -> None:
        """Log that this process is alive (once every ``ALIVE_SECONDS``: a
        failure waits for the next time, well within ``live.ORIGIN_SILENCE``)."""
        try:
            await asyncio.to_thread(
                self.changes.add,
                ALIVE,
                origin=self.origin,
                log_length=0,
                events=[],
                connected=[],
            )
        except Exception as error:
            self.saying_alive.failed(error)
        else:
            self.saying_alive.recovered()

    async def read(self) -> None:
        """Hear the changes logged since the last read (one read at a time, or
        two could hear the same rows)."""
        async with self._reading:
            while True:
                changes = await asyncio.to_thread(self.changes.after, self.last_id)
                if not changes:
                    return
                self.last_id = changes[-1].id
                elsewhere = [change for change in changes if change.origin != self.origin]
                if elsewhere:
                    await self.hear(elsewhere)

    async def _listen(self) -> None:
        import psycopg  # the PostgreSQL driver: imported only where it is used

        conninfo = make_url(self.url).set(drivername="postgresql")
        backoff = Backoff()
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    conninfo.render_as_string(hide_password=False), autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    await self.read()  # what was logged while not listening
                    self.listening.set()
                    self.connecting.recovered()
                    backoff.worked()
                    async for _notice in connection.notifies():
                        self._wake.set()
            except Exception as error:  # the connection, or the catch-up read over the engine
                self.listening.clear()
                if isinstance(error, psycopg.OperationalError | OSError):  # the server away
                    error = StorageFault(UNAVAILABLE, next(iter(str(error).splitlines()), ""))
                self.connecting.failed(error)
                await asyncio.sleep(backoff.failed())
