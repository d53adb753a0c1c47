"""The table feed while the store fails (a PostgreSQL stopped, an SQLite file
locked): said once when it starts, then once a minute with the count, then
once when it works again; and the next read comes after a pause that doubles
from 50 ms to 2 s, back to the 50 ms poll once a read works. The store's fault
is injected into the change log, and the time is a clock the test turns: each
read's pause is added to it, as the feed would wait it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sqlite3
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine
from sqlalchemy.exc import OperationalError

from spades.server.tables import table_feed
from spades.server.tables.table_feed import TableFeed
from spades.storage.outages import Outage
from spades.storage.table_changes import TableChange, TableChangeLog

LOGGER = table_feed.__name__


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class FailingChangeLog(TableChangeLog):
    """A change log (of an SQLite file: read on a timer) whose every read and
    write fails while ``down``, as a locked database's do."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, contextlib.nullcontext)
        self.down = False
        self.reads = 0

    def _fail_if_down(self) -> None:
        if self.down:
            raise OperationalError("SELECT", {}, sqlite3.OperationalError("database is locked"))

    def after(self, last_id: int) -> list[TableChange]:
        self.reads += 1
        self._fail_if_down()
        return []

    def add(self, game_id: str, **_change: Any) -> int:
        self._fail_if_down()
        return 1


async def _hear_nothing(_changes: list[TableChange]) -> None:
    return None


def feed_on(clock: Clock) -> tuple[TableFeed, FailingChangeLog]:
    changes = FailingChangeLog(create_engine("sqlite://"))
    feed = TableFeed(changes, "sqlite:///games.db", "here", _hear_nothing, clock=clock)
    return feed, changes


def said(caplog: pytest.LogCaptureFixture) -> list[str]:
    lines = [record.getMessage() for record in caplog.records if record.name == LOGGER]
    caplog.clear()
    return lines


def test_a_store_down_for_ten_minutes_is_said_a_line_a_minute_and_read_every_2_s(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    feed, changes = feed_on(clock)
    caplog.set_level(logging.WARNING, LOGGER)

    async def reads_until(seconds: float) -> list[float]:
        pauses: list[float] = []
        end = clock.now + seconds
        while clock.now < end:
            pauses.append(await feed.read_once())
            clock.now += pauses[-1]
        return pauses

    async def reads(count: int) -> list[float]:
        return [await feed.read_once() for _ in range(count)]

    assert asyncio.run(reads(20)) == [table_feed.POLL_SECONDS] * 20  # the store answers
    assert said(caplog) == []

    changes.down = True
    pauses = asyncio.run(reads_until(600))
    assert pauses[:8] == [0.05, 0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0]
    assert set(pauses[6:]) == {2.0}
    assert len(pauses) < 310, "read every 2 s, not 12,000 times in 10 minutes"
    lines = said(caplog)
    assert lines[0].startswith("reading the table change log failed: storage-busy")
    assert len(lines) == 10, lines  # the first, then one a minute
    assert all(line.startswith("reading the table change log still fails: ") for line in lines[1:])
    counted = re.search(r"(\d+) failures in the last (\d+) s", lines[2])
    assert counted is not None and counted.groups() in (("30", "60"), ("31", "62")), lines[2]
    assert sum(int(line.split(": ")[1].split()[0]) for line in lines[1:]) + 1 < len(pauses)

    changes.down = False
    assert asyncio.run(feed.read_once()) == table_feed.POLL_SECONDS  # at once back to the poll
    (recovered,) = said(caplog)
    assert recovered.startswith("reading the table change log works again, after 601.")
    assert f"and {len(pauses)} failures" in recovered

    changes.down = True  # a new fault: said anew, and retried from 50 ms again
    assert asyncio.run(feed.read_once()) == 0.05
    assert [line.split(":")[0] for line in said(caplog)] == ["reading the table change log failed"]


def test_saying_alive_while_the_store_is_down_is_said_once_and_its_return_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    feed, changes = feed_on(clock)
    caplog.set_level(logging.WARNING, LOGGER)
    changes.down = True

    async def say_alive(times: int) -> None:
        for _ in range(times):
            await feed.say_alive_once()
            clock.now += table_feed.ALIVE_SECONDS

    asyncio.run(say_alive(3))  # a minute of it
    assert len(said(caplog)) == 1
    changes.down = False
    asyncio.run(say_alive(2))
    assert [line.split(",")[0] for line in said(caplog)] == [
        "logging that this process is alive works again"
    ]


def test_a_fault_that_is_no_storage_fault_is_said_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    outage = Outage(logging.getLogger(LOGGER), "hearing a change", clock=clock)
    caplog.set_level(logging.WARNING, LOGGER)
    for _ in range(3):
        try:
            raise KeyError("seats")
        except KeyError as error:
            outage.failed(error)
        clock.now += 1
    (record,) = (record for record in caplog.records if record.name == LOGGER)
    assert record.getMessage().startswith("hearing a change failed: KeyError: 'seats'")
    assert record.exc_info is not None and record.exc_info[0] is KeyError
