"""What counting a limit in the database costs a request. Run by hand:

    .venv/bin/python benchmarks/shared_limits.py [--takes 2000] [--db postgresql://...]

For each way of counting, ``--takes`` takes of one limit, each as a request
makes it (``await Rates.take``: for the database, a worker thread and one
``UPDATE``), spread over 50 keys so that none is refused: in this process's
memory (as ``requests_per_address`` is, and every limit was), then in an
SQLite file (a fresh one in a temporary folder), then in ``--db`` if given.
Printed: the wall time of a take (p50, p95) and its CPU time (mean), with the
load average before and after. The machine's other work shows in the wall
times; the CPU time is the cost the server pays.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from spades.server.http.rates import Rates
from spades.storage import GameRepository

KEYS = 50
PER_MINUTE = 1_000_000
"""A limit no take here reaches: every take spends a token."""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def measure(counter: Rates, takes: int) -> tuple[list[float], float]:
    """The wall time of each take, and the CPU time of them all (seconds)."""
    walls: list[float] = []
    cpu_start = time.process_time()
    for number in range(takes):
        start = time.perf_counter()
        await counter.take("games", f"client-{number % KEYS}", PER_MINUTE, "new games")
        walls.append(time.perf_counter() - start)
    return walls, time.process_time() - cpu_start


def report(name: str, counter: Rates, takes: int) -> None:
    asyncio.run(measure(counter, min(takes, 200)))  # warm: connections, statements
    walls, cpu = asyncio.run(measure(counter, takes))
    print(
        f"{name:<12} p50 {percentile(walls, 0.5) * 1e6:7.0f} us   "
        f"p95 {percentile(walls, 0.95) * 1e6:7.0f} us   CPU {cpu / takes * 1e6:6.0f} us a take"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--takes", type=int, default=2000)
    parser.add_argument("--db", help="a database to count in besides (postgresql://...)")
    options = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    report("memory", Rates(), options.takes)
    with tempfile.TemporaryDirectory() as folder:
        repository = GameRepository(f"sqlite:///{Path(folder) / 'games.db'}")
        try:
            report("SQLite file", Rates(shared=repository.rate_buckets), options.takes)
        finally:
            repository.close()
    if options.db:
        repository = GameRepository(options.db)
        try:
            report("--db", Rates(shared=repository.rate_buckets), options.takes)
        finally:
            repository.close()
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
