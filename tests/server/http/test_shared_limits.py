"""The limits of the costly work are counted in the database, so that a client
whose requests land on several server processes gets each limit once, not
once a process. First two repositories over one database, as two processes
hold them, with a clock the test turns; then two real `spades serve` over one
database, the client's requests sent to each in turn.
``requests_per_address`` stays each process's own (``rates.LOCAL_KINDS``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine

from spades.server.deps import COOKIE
from spades.server.http import rates
from spades.server.http.rates import RateLimited, Rates
from spades.storage import GameRepository

from ..serving import serve_on_a_free_port

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0  # seconds since the epoch, as every process counts

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def two_processes(db_url: str) -> Iterator[tuple[GameRepository, GameRepository]]:
    one, two = GameRepository(db_url), GameRepository(db_url)
    yield one, two
    one.close()
    two.close()


def take(counter: Rates, kind: str = "games", per_minute: int = 12) -> bool:
    """Whether ``counter`` lets one more of ``kind`` through for the key "client"."""
    try:
        asyncio.run(counter.take(kind, "client", per_minute, "new games"))
    except RateLimited:
        return False
    return True


def test_two_processes_count_one_client_together(
    two_processes: tuple[GameRepository, GameRepository],
) -> None:
    clock = Clock()
    one, two = (Rates(clock, shared=repository.rate_buckets) for repository in two_processes)
    # 12 a minute: a burst of 2 (ten seconds' worth), then one every 5 s, for both together.
    assert [take(one), take(two), take(one), take(two)] == [True, True, False, False]
    clock.now += 5
    assert [take(two), take(one)] == [True, False]
    clock.now += 60  # a quiet minute: the burst again, not more
    assert [take(one), take(two), take(one)] == [True, True, False]
    assert take(one, kind="tables"), "each kind is a bucket of its own"
    # Counted in each process alone, each would have let its own burst through.
    alone = Rates(clock)
    assert [take(alone), take(alone), take(alone)] == [True, True, False]


def test_a_refusal_is_remembered_until_its_retry_after(
    two_processes: tuple[GameRepository, GameRepository], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    one = Rates(clock, shared=two_processes[0].rate_buckets)
    asked: list[str] = []
    database_take = two_processes[0].rate_buckets.take

    def counted_take(*args: Any, **kwargs: Any) -> float:
        asked.append(args[0])
        return database_take(*args, **kwargs)

    monkeypatch.setattr(two_processes[0].rate_buckets, "take", counted_take)
    assert [take(one) for _ in range(2)] == [True, True]
    assert [take(one) for _ in range(50)] == [False] * 50  # a flood past the limit
    assert len(asked) == 3, "one refusal from the database, the others from memory"
    clock.now += 5  # the Retry-After: asked again, and a token is there
    assert take(one)
    assert len(asked) == 4


def test_requests_of_any_kind_are_counted_in_each_process(
    two_processes: tuple[GameRepository, GameRepository], monkeypatch: pytest.MonkeyPatch
) -> None:
    repository = two_processes[0]

    def no_database(*_args: Any, **_kwargs: Any) -> float:
        raise AssertionError("every request would be a write")

    monkeypatch.setattr(repository.rate_buckets, "take", no_database)
    counter = Rates(Clock(), shared=repository.rate_buckets)
    assert "requests" in rates.LOCAL_KINDS
    assert [take(counter, kind="requests", per_minute=6) for _ in range(2)] == [True, False]


def test_a_database_that_fails_leaves_each_process_counting_alone(
    two_processes: tuple[GameRepository, GameRepository], caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    repository = two_processes[0]
    counter = Rates(clock, shared=repository.rate_buckets)
    working = repository.rate_buckets.engine
    repository.rate_buckets.engine = create_engine("postgresql+psycopg://spades@127.0.0.1:9/gone")
    caplog.set_level(logging.WARNING, rates.__name__)
    try:
        assert [take(counter) for _ in range(4)] == [True, True, False, False]
    finally:
        repository.rate_buckets.engine.dispose()
        repository.rate_buckets.engine = working
    clock.now += 60
    assert take(counter)
    lines = [record.getMessage() for record in caplog.records if record.name == rates.__name__]
    assert len(lines) == 2, lines
    assert lines[0].startswith("counting the limits in the database failed: storage-unavailable")
    assert lines[1].startswith("counting the limits in the database works again")


def test_a_clock_set_back_starts_the_bucket_afresh(
    two_processes: tuple[GameRepository, GameRepository],
) -> None:
    clock = Clock()
    one = Rates(clock, shared=two_processes[0].rate_buckets)
    two = Rates(clock, shared=two_processes[1].rate_buckets)
    assert [take(one), take(one), take(one)] == [True, True, False]
    clock.now -= 3600  # set back an hour: not refused until the clock catches up
    assert take(two)


@pytest.mark.slow  # starts two servers
def test_two_servers_over_one_database_hold_a_client_to_one_limit(db_url: str) -> None:
    """One new game a minute a player, one table a minute an address: the
    second of each is refused by the other server. (Counted by each server
    alone, each would make one.)"""
    arguments = [
        f"--db={db_url}",
        "--level=random",
        "--limits=off,games_per_owner=1,tables_per_address=1",
    ]
    servers = [serve_on_a_free_port(arguments, patience=120) for _ in range(2)]
    try:
        first, second = (httpx.Client(base_url=url, timeout=60) for _, url in servers)
        made = first.post("/api/games", json={"seed": 3})
        assert made.status_code == 201, made.text
        second.cookies.set(COOKIE, first.cookies[COOKIE])  # the same player, the other server
        refused = second.post("/api/games", json={"seed": 4})
        assert refused.status_code == 429 and refused.json()["rule"] == "rate-limit", refused.text
        assert int(refused.headers["Retry-After"]) >= 30

        table = {"seats": {"N": "person", "E": "random", "S": "person", "W": "random"}}
        assert first.post("/api/tables", json=table).status_code == 201
        refused = second.post("/api/tables", json=table)  # the same address, another cookie
        assert refused.status_code == 429 and refused.json()["rule"] == "rate-limit", refused.text
        assert first.post("/api/tables", json=table).status_code == 429
        first.close()
        second.close()
    finally:
        for server, _ in servers:
            server.stop()
