"""The table change log's listener: a change another process logs reaches this
one's ``hear``, and this process's own changes do not. On PostgreSQL the
listener's timed read is put off for an hour and the changes are logged once
it LISTENs and has read what came before, so only a notification can bring
them within the test's patience; on SQLite the 50 ms read does."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Final

import pytest

from spades.server.tables import table_feed
from spades.server.tables.table_feed import TableFeed
from spades.storage import GameRepository
from spades.storage.table_changes import TableChange

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)

PATIENCE: Final = 30.0
"""Seconds the change may take: milliseconds when it works, and on PostgreSQL
far short of the hour the timed read is put off by."""


@pytest.fixture
def two_processes(db_url: str) -> Iterator[tuple[GameRepository, GameRepository]]:
    listening, writing = GameRepository(db_url), GameRepository(db_url)
    yield listening, writing
    listening.close()
    writing.close()


def test_a_change_another_process_logs_is_heard_and_ones_own_is_not(
    db_url: str,
    two_processes: tuple[GameRepository, GameRepository],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_feed, "SAFETY_SECONDS", 3600.0)
    listening, writing = two_processes

    async def listen() -> list[TableChange]:
        heard: asyncio.Queue[list[TableChange]] = asyncio.Queue()
        feed = TableFeed(listening.table_changes, db_url, "here", heard.put)
        await feed.start()
        if listening.table_changes.notifies:  # wait until only a notification can help
            await asyncio.wait_for(feed.listening.wait(), PATIENCE)
        try:
            for origin, game_id in (("here", "own"), ("there", "table-1")):
                await asyncio.to_thread(
                    writing.table_changes.add,
                    game_id,
                    origin=origin,
                    log_length=7,
                    events=[{"type": "bid_made", "seat": "N", "bid": 3}],
                    connected=["N"],
                )
            return await asyncio.wait_for(heard.get(), PATIENCE)
        finally:
            await feed.stop()

    changes = asyncio.run(listen())
    assert [(c.game_id, c.origin, c.log_length, c.connected) for c in changes] == [
        ("table-1", "there", 7, ["N"])
    ]
    assert changes[0].events == [{"type": "bid_made", "seat": "N", "bid": 3}]
    assert changes[0].reaction is None
