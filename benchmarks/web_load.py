"""How the web game holds up under many players at once. Run by hand:

    .venv/bin/python benchmarks/web_load.py [--clients 50] [--seconds 30]
        [--db postgresql://user:password@host/db] [--workers 2]

It starts ``spades serve`` (a real uvicorn process) on a port it picks, with a fresh
SQLite file (or the database ``--db`` names, best empty; ``--workers`` server
processes over it) and ``--level random``, so the bots cost next to nothing and what is
measured is the server itself: routing, loading and storing games, South's view.
Then ``--clients`` async clients, each with its own cookie jar (so its own
player and games), play whole games as the page does: a new game, South's bid,
South's cards, a new game when one ends. After ``--warmup`` seconds (not
counted) it times every request for ``--seconds`` and prints requests per
second, the server's CPU time a request, and the p50 / p95 / p99 latency of
each route.

By default each client asks again as soon as it is answered: that finds the
most requests a second the server gives, and then, with 50 clients always
waiting, a request's latency is about 50 / (requests a second) whatever the
server does. ``--rate`` paces the clients instead (together that many requests
a second, as players who take a moment to choose): the latency a player sees
at that load.

The client runs on the same machine as the server, and takes its share of the
CPU: the figures are for the pair, and the client's CPU a request is printed
beside the server's. It is aiohttp's, whose C parts take about a third of the
CPU httpx took a request: what the client takes, the server cannot have.
``--url`` drives a server already running instead (to profile it, say, under
``py-spy``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import aiohttp
import httpx

from spades.cli.serve import ANNOUNCEMENT

STARTUP_SECONDS = 60
STOP_SECONDS = 10
"""How long a stopped server may finish the requests it holds before it is killed."""
REQUEST_TIMEOUT = 60.0


class Timings:
    """Each route's latencies and failures, of the requests sent while the clock
    runs (one sent during the warm-up belongs to it, even if answered later: the
    first new games, all sent at once on fresh connections, would otherwise be
    counted with the time they queued behind each other)."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.failures: dict[str, list[str]] = defaultdict(list)
        self.counting = False

    def add(self, route: str, seconds: float, failure: str | None, *, counted: bool) -> None:
        if not counted:
            return
        self.latencies[route].append(seconds)
        if failure is not None:
            self.failures[route].append(failure)


async def request(
    client: aiohttp.ClientSession, timings: Timings, route: str, method: str, path: str, body: Any
) -> dict[str, Any] | None:
    """One API call, timed; its JSON, or ``None`` when it failed."""
    start = time.perf_counter()
    counted = timings.counting
    failure = None
    try:
        async with client.request(method, path, json=body) as response:
            if response.ok:
                result: dict[str, Any] | None = await response.json()
            else:
                failure, result = f"{response.status} {(await response.text())[:200]}", None
    except (aiohttp.ClientError, TimeoutError) as error:  # no answer in REQUEST_TIMEOUT
        failure, result = f"{type(error).__name__}: {error}", None
    timings.add(route, time.perf_counter() - start, failure, counted=counted)
    return result


async def player(
    base_url: str, timings: Timings, stop: float, rng: random.Random, interval: float
) -> int:
    """Play whole games until ``stop``, as the page does, a request every
    ``interval`` seconds at most (0: each as soon as the last is answered);
    returns the games finished."""
    finished = 0
    async with aiohttp.ClientSession(
        base_url=base_url,
        timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT),
        cookie_jar=aiohttp.CookieJar(unsafe=True),
    ) as client:
        update = None
        next_request = time.monotonic() + rng.uniform(0, interval)  # not all in step
        while time.monotonic() < stop:
            await asyncio.sleep(max(0.0, next_request - time.monotonic()))
            next_request = max(next_request + interval, time.monotonic())
            game = None if update is None else update["game"]
            if game is None or game["phase"] == "over":
                finished += game is not None
                update = await request(client, timings, "new game", "POST", "/api/games", {})
            elif not game["your_turn"]:  # the bots always hand the turn back: a server fault
                raise RuntimeError(f"South is not to act in game {game['id']}")
            elif game["phase"] == "bidding":
                bid = rng.choice(game["legal_bids"])
                path = f"/api/games/{game['id']}/bid"
                update = await request(client, timings, "bid", "POST", path, {"bid": bid})
            else:
                card = rng.choice(game["legal_cards"])
                path = f"/api/games/{game['id']}/play"
                update = await request(client, timings, "play", "POST", path, {"card": card})
    return finished


def announced_url(server: subprocess.Popen[bytes], patience: float = STARTUP_SECONDS) -> str:
    """The URL ``spades serve --port 0`` names in its first line (the port it
    bound), read from its stdout; the rest of its output is read and dropped
    on a thread, so the server never waits on a full pipe."""
    assert server.stdout is not None
    stdout = server.stdout
    lines: queue.Queue[bytes] = queue.Queue()

    def read() -> None:
        lines.put(stdout.readline())  # b"" once it exits without a word
        for _ in stdout:
            pass

    threading.Thread(target=read, name="spades-serve-stdout", daemon=True).start()
    try:
        first = lines.get(timeout=patience).decode(errors="replace")
    except queue.Empty:
        raise SystemExit(f"spades serve printed nothing in {patience:.0f} s") from None
    announced = ANNOUNCEMENT.search(first)
    if announced is None:
        server.wait()
        raise SystemExit(f"spades serve exited with code {server.returncode}: {first}")
    return announced[1]


@contextmanager
def spades_server(
    database: str,
    workers: int = 1,
    *,
    level: str | None = "random",
    extra: Sequence[str] = (),
    limits: str = "off",
    log: Path | None = None,
) -> Iterator[tuple[str, int]]:
    """``spades serve`` on a port it picks (random bots unless ``level`` says
    otherwise; None: the server's own default), with ``extra`` arguments: its
    URL and process id.

    ``limits`` as ``spades serve --limits`` takes them: off by default, since
    every simulated player comes from 127.0.0.1 and starts game after game, far
    past what one address may (docs/security.md). With ``log``, the server's
    log (its stderr) goes to that file instead of this terminal."""
    command = [
        str(Path(sys.executable).with_name("spades")),
        "serve",
        "--port=0",  # a free port, bound by the server itself and named in its first line
        f"--db={database}",
        f"--workers={workers}",
        *([] if level is None else [f"--level={level}"]),
        f"--limits={limits}",
        *extra,
    ]
    log_file = None if log is None else log.open("ab")
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log_file)
    try:
        url = announced_url(server)
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:  # bound, but the app is still starting
            if server.poll() is not None:
                said = "" if log is None else "\n" + log.read_text(errors="replace")[-2000:]
                raise SystemExit(f"spades serve exited with code {server.returncode}{said}")
            try:
                httpx.get(f"{url}/api/levels", timeout=1).raise_for_status()
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline:
                    raise SystemExit("spades serve did not answer in time") from None
                time.sleep(0.2)
        yield url, server.pid
    finally:
        server.terminate()
        try:
            server.wait(timeout=STOP_SECONDS)
        except subprocess.TimeoutExpired:  # still answering requests its bots think about
            server.kill()
            server.wait()
        if log_file is not None:
            log_file.close()


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time the server, its worker processes included, has used so far (Linux only)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return None
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return own + sum(cpu_seconds(int(child)) or 0.0 for child in children)


def percentile(ordered: list[float], fraction: float) -> float:
    """Nearest-rank percentile of a sorted list."""
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def report(
    timings: Timings, seconds: float, games: int, server_cpu: float | None, client_cpu: float
) -> None:
    total = sum(len(values) for values in timings.latencies.values())
    every = sorted(value for values in timings.latencies.values() for value in values)
    print(
        f"{total:,} requests in {seconds:.1f} s: {total / seconds:,.0f} requests/s, "
        f"{games} games finished"
    )
    if server_cpu is not None and total:
        print(f"server CPU: {server_cpu:.1f} s, {1000 * server_cpu / total:.2f} ms a request")
    if total:  # the clients share the machine: what they take, the server cannot have
        print(f"client CPU: {client_cpu:.1f} s, {1000 * client_cpu / total:.2f} ms a request")
    print(
        f"  {'route':<10} {'count':>7} {'fail':>5} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'p99 ms':>8} {'max ms':>8}"
    )
    rows = [*sorted(timings.latencies.items()), ("all", every)]
    for route, values in rows:
        ordered = sorted(values)
        if not ordered:
            continue
        failed = (
            sum(len(f) for f in timings.failures.values())
            if route == "all"
            else len(timings.failures[route])
        )
        print(
            f"  {route:<10} {len(ordered):>7,} {failed:>5} "
            + " ".join(
                f"{1000 * value:>8.1f}"
                for value in (
                    statistics.median(ordered),
                    percentile(ordered, 0.95),
                    percentile(ordered, 0.99),
                    ordered[-1],
                )
            )
        )
    for route, failures in timings.failures.items():
        if failures:
            print(f"first failure of {route}: {failures[0]}")


async def load(
    url: str, pid: int | None, clients: int, seconds: float, warmup: float, rate: float
) -> None:
    timings = Timings()
    start = time.monotonic()
    stop = start + warmup + seconds
    interval = clients / rate if rate else 0.0
    rngs = [random.Random(index) for index in range(clients)]
    players = asyncio.gather(*(player(url, timings, stop, rng, interval) for rng in rngs))
    await asyncio.sleep(warmup)
    timings.counting = True
    cpu_before = cpu_seconds(pid)
    client_before = time.process_time()
    counted_from = time.monotonic()
    games = sum(await players)
    elapsed = time.monotonic() - counted_from
    client_cpu = time.process_time() - client_before
    cpu_after = cpu_seconds(pid)
    server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    report(timings, elapsed, games, server_cpu, client_cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50, help="players at once (default 50)")
    parser.add_argument("--seconds", type=float, default=30, help="time counted (default 30)")
    parser.add_argument(
        "--warmup", type=float, default=3, help="seconds played first, not counted (default 3)"
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=0,
        help="requests a second offered by all clients together, paced evenly (default 0: "
        "each client asks again as soon as it is answered, the most the server gives)",
    )
    parser.add_argument("--url", help="drive this running server instead of starting one")
    parser.add_argument(
        "--db", help="the started server's database URL (default: a fresh SQLite file)"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="the started server's processes (default 1)"
    )
    parser.add_argument(
        "--limits",
        default="off",
        help="the started server's --limits (default off: every client is 127.0.0.1)",
    )
    args = parser.parse_args()
    pace = f"offering {args.rate:g} requests/s" if args.rate else "each asking when answered"
    print(
        f"{args.clients} clients {pace}, {args.seconds:g} s counted "
        f"after {args.warmup:g} s of warm-up"
    )
    run = (args.clients, args.seconds, args.warmup, args.rate)
    if args.url:
        asyncio.run(load(args.url, None, *run))
        return
    with tempfile.TemporaryDirectory() as directory:
        database = args.db or f"sqlite:///{Path(directory) / 'load.db'}"
        with spades_server(database, args.workers, limits=args.limits) as (url, pid):
            asyncio.run(load(url, pid, *run))


if __name__ == "__main__":
    main()
