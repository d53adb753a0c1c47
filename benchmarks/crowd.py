"""A crowd at a person's pace, with the bots the server seats. Run by hand:

    nice -n 10 .venv/bin/python benchmarks/crowd.py [--people 1,4,16,64,128,256]
        [--seconds 60] [--warmup 10] [--db postgresql://...] [--workers N]
        [--serve-arg=--bots=...]

For each number of people it starts a fresh ``spades serve`` (a real uvicorn
process on a free loopback port, a fresh SQLite file unless ``--db`` names a
database, best empty) with the server's own default levels: no ``--level`` is
passed, so the bots are the ones a new visitor meets. Then that many simulated
people, each with a cookie jar of their own, play whole games through the API
as the page does (a new game, South's bids and cards, a new game when one
ends). Each waits a seeded random 1 to 3 s before every bid, card and new
game, as a person choosing a card does, and the first requests are spread
over ``--spread`` seconds, not sent in one burst. At each hand's end a person
reads the summary for 4 to 10 s while the page asks for the hand's review
every second until it is ready, as review.js does; the table says how many
reviews came while the summary was open.

After ``--warmup`` seconds (not counted) the requests sent for ``--seconds``
are timed, and it prints, per route, the answers counted, p50 / p95 / p99 (of
every request sent in the window, a failed one at the time it failed) and
errors, the bot decisions that missed their deadline (``normal``'s choice
stood in; the server's log, kept in a file, counts them), the server's CPU
(its process tree, from /proc: the bot processes count) as a share of one
core, and the load average. With several numbers of
people, one server after another, it ends with a table of one row per number.

Bounded: each run stops by itself after warm-up plus the window (and at most
the request timeout more for answers still coming); loopback only. Client and
server share the machine: the figures are for the pair.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import aiohttp
import uvicorn

sys.path.insert(0, str(Path(__file__).parent))
from web_load import REQUEST_TIMEOUT, Timings, cpu_seconds, percentile, request, spades_server

THINK_SECONDS: Final = (1.0, 3.0)
"""A person's pause before each request: long enough to look, short of dawdling."""
SUMMARY_SECONDS: Final = (4.0, 10.0)
"""How long a person reads a hand's summary before the next hand."""
REVIEW_POLL_SECONDS: Final = 1.0
"""The page asks for the summary's review this often until it is ready (review.js)."""
ROUTES: Final = ("new game", "bid", "card", "review")
SERVER_KEEP_ALIVE: Final[int] = (
    inspect.signature(uvicorn.Config).parameters["timeout_keep_alive"].default
)
"""Seconds uvicorn keeps an idle connection open: its default, which ``spades
serve`` keeps (read from uvicorn, so that an upgrade cannot leave it stale)."""


@dataclass(frozen=True, slots=True)
class CrowdRun:
    """What one number of people measured."""

    people: int
    seconds: float
    games: int
    timings: Timings
    server_cpu: float | None
    load_average: float
    stand_ins: int
    """Bot decisions in the window that missed their deadline, so that
    ``normal``'s choice stood in for the search's (the server logs each)."""


def person_bid(game: dict[str, Any], rng: random.Random) -> Any:
    """A bid a person might make: a number near a hand's worth, Nil now and then."""
    bids = game["legal_bids"]
    numbers = [bid for bid in bids if isinstance(bid, int) and 1 <= bid <= 5]
    if numbers and rng.random() < 0.95:
        return rng.choice(numbers)
    return rng.choice(bids)


async def person(
    base_url: str, timings: Timings, start: float, stop: float, rng: random.Random
) -> int:
    """Play whole games from ``start`` until ``stop``, thinking before each
    move; returns the games finished."""
    finished = 0
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    async with aiohttp.ClientSession(
        base_url=base_url,
        timeout=aiohttp.ClientTimeout(total=REQUEST_TIMEOUT),
        cookie_jar=aiohttp.CookieJar(unsafe=True),
        # uvicorn closes a connection idle for 5 s; reusing one idle that long
        # races the close and fails with a reset. A browser retries such a
        # request on a new connection unseen; here the person just never
        # reuses one that old.
        connector=aiohttp.TCPConnector(keepalive_timeout=SERVER_KEEP_ALIVE - 1),
    ) as client:
        update = None
        while time.monotonic() < stop:
            game = None if update is None else update["game"]
            if game is not None and game["phase"] != "over" and not game["your_turn"]:
                # The bots always hand the turn back: say so, and start afresh.
                timings.add("turn", 0.0, f"South not to act in {game['id']}", counted=True)
                game = None
            await asyncio.sleep(rng.uniform(*THINK_SECONDS))
            if time.monotonic() >= stop:
                break
            if game is None or game["phase"] == "over":
                finished += game is not None
                update = await request(client, timings, "new game", "POST", "/api/games", {})
            elif game["phase"] == "bidding":
                path = f"/api/games/{game['id']}/bid"
                body = {"bid": person_bid(game, rng)}
                update = await request(client, timings, "bid", "POST", path, body)
            else:
                path = f"/api/games/{game['id']}/play"
                body = {"card": rng.choice(game["legal_cards"])}
                update = await request(client, timings, "card", "POST", path, body)
                for event in [] if update is None else update["events"]:
                    if event["type"] == "hand_over":
                        await read_summary(client, timings, game["id"], event["hand"], rng)
    return finished


async def read_summary(
    client: aiohttp.ClientSession,
    timings: Timings,
    game_id: str,
    hand: int,
    rng: random.Random,
) -> None:
    """What the page does at a hand's end: the summary opens and asks for the
    hand's review at once, then every second until it is ready, while the
    person reads; the next hand starts when they are done reading (the
    review, if still analysing, is no longer asked for). Each ask is timed
    ("review"); whether the review came while the summary was open is
    counted ("review ready" / "review not ready")."""
    done = time.monotonic() + rng.uniform(*SUMMARY_SECONDS)
    path = f"/api/games/{game_id}/hands/{hand}/review"
    opened = time.monotonic()
    counted = timings.counting
    while True:
        review = await request(client, timings, "review", "GET", path, None)
        if review is not None and review.get("status") != "analysing":
            timings.add("review ready", time.monotonic() - opened, None, counted=counted)
            break
        if time.monotonic() + REVIEW_POLL_SECONDS >= done:
            timings.add("review not ready", time.monotonic() - opened, None, counted=counted)
            break
        await asyncio.sleep(REVIEW_POLL_SECONDS)
    await asyncio.sleep(max(0.0, done - time.monotonic()))


STAND_IN_LINE: Final = "missed its deadline"
"""What the server logs when normal's choice stands in for a search's."""


def stand_ins(log: Path, start: int, end: int) -> int:
    """Stand-in decisions the server logged between two sizes of its log."""
    with log.open("rb") as file:
        file.seek(start)
        return file.read(end - start).decode(errors="replace").count(STAND_IN_LINE)


async def crowd(
    url: str,
    pid: int,
    log: Path,
    people: int,
    seconds: float,
    warmup: float,
    spread: float,
    seed: int,
) -> CrowdRun:
    timings = Timings()
    began = time.monotonic()
    stop = began + warmup + seconds
    rngs = [random.Random(f"{seed}:{index}") for index in range(people)]
    starts = [began + rng.uniform(0, spread) for rng in rngs]
    players = asyncio.gather(
        *(person(url, timings, at, stop, rng) for at, rng in zip(starts, rngs, strict=True))
    )
    await asyncio.sleep(warmup)
    timings.counting = True
    cpu_before = cpu_seconds(pid)
    log_before = log.stat().st_size
    counted_from = time.monotonic()
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    cpu_after = cpu_seconds(pid)  # the window's CPU, not the answers trickling in after it
    log_after = log.stat().st_size
    load_average = os.getloadavg()[0]
    elapsed = time.monotonic() - counted_from
    games = sum(await players)
    server_cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return CrowdRun(
        people,
        elapsed,
        games,
        timings,
        server_cpu,
        load_average,
        stand_ins(log, log_before, log_after),
    )


def quantiles(values: list[float]) -> str:
    """p50 / p95 / p99 in whole milliseconds."""
    ordered = sorted(values)
    if not ordered:
        return "-"
    return " / ".join(
        f"{1000 * value:.0f}"
        for value in (
            statistics.median(ordered),
            percentile(ordered, 0.95),
            percentile(ordered, 0.99),
        )
    )


def report(run: CrowdRun) -> None:
    timings = run.timings
    print(
        f"{run.people} people, {run.seconds:.1f} s counted, {run.games} games finished, "
        f"load average {run.load_average:.2f}"
    )
    if run.server_cpu is not None:
        print(
            f"server CPU: {run.server_cpu:.1f} s "
            f"({100 * run.server_cpu / run.seconds:.0f}% of a core)"
        )
    print(f"bot decisions past their deadline, normal's choice standing in: {run.stand_ins:,}")
    print(f"  {'route':<16} {'answers':>7} {'errors':>6}   p50 / p95 / p99 ms")
    for route in [*ROUTES, *sorted(set(timings.latencies) - set(ROUTES))]:
        values = timings.latencies.get(route, [])
        errors = len(timings.failures.get(route, []))
        print(f"  {route:<16} {len(values) - errors:>7,} {errors:>6}   {quantiles(values)}")
    for route, failures in timings.failures.items():
        if failures:
            print(f"first error of {route}: {failures[0]}")


def summary(runs: list[CrowdRun]) -> None:
    """One markdown row a number of people: the table docs/performance.md keeps."""
    heads = " | ".join(f"{route} p50 / p95 / p99 ms" for route in ROUTES)
    print(
        f"\n| people | {heads} | reviews ready in the summary | answers | errors | stand-ins "
        "| server CPU | load |"
    )
    print("|---:|" + "---|" * len(ROUTES) + "---|---:|---:|---:|---:|---:|")
    for run in runs:
        latencies = run.timings.latencies
        answers = sum(len(latencies.get(route, [])) for route in ROUTES)
        errors = sum(len(run.timings.failures.get(route, [])) for route in ROUTES)
        cpu = "-" if run.server_cpu is None else f"{100 * run.server_cpu / run.seconds:.0f}%"
        cells = " | ".join(quantiles(latencies.get(route, [])) for route in ROUTES)
        print(
            f"| {run.people} | {cells} | {reviews_ready(run.timings)} | {answers - errors:,} "
            f"| {errors} | {run.stand_ins:,} | {cpu} | {run.load_average:.2f} |"
        )


def reviews_ready(timings: Timings) -> str:
    """Of the summaries opened, how many had their review before the person
    moved on, and the median wait for those that did."""
    ready = sorted(timings.latencies.get("review ready", []))
    missed = len(timings.latencies.get("review not ready", []))
    if not ready and not missed:
        return "-"
    wait = f", {statistics.median(ready):.1f} s" if ready else ""
    return f"{len(ready)} of {len(ready) + missed}{wait}"


def people_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"people is a list of whole numbers: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"people counts are 1 or more: {text!r}")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--people",
        type=people_counts,
        default=[16],
        help="people at once; a comma list (1,4,16,64,128,256) sweeps, a fresh server each "
        "(default 16)",
    )
    parser.add_argument("--seconds", type=float, default=60, help="time counted (default 60)")
    parser.add_argument(
        "--warmup", type=float, default=10, help="seconds played first, not counted (default 10)"
    )
    parser.add_argument(
        "--spread", type=float, default=5, help="seconds the first requests spread over (default 5)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="the people's choices and pauses")
    parser.add_argument("--db", help="the server's database URL (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    parser.add_argument(
        "--serve-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an argument passed on to spades serve (repeatable), e.g. --serve-arg=--bots=...",
    )
    parser.add_argument(
        "--level",
        help="for the benchmark's own test only: seat this level instead of the server's "
        "default (the crowd's figures are taken without it)",
    )
    args = parser.parse_args()
    spread = min(args.spread, args.warmup)
    runs = []
    for people in args.people:
        with tempfile.TemporaryDirectory() as directory:
            database = args.db or f"sqlite:///{Path(directory) / 'crowd.db'}"
            log = Path(directory) / "server.log"
            log.touch()
            with spades_server(
                database, args.workers, level=args.level, extra=args.serve_arg, log=log
            ) as (url, pid):
                run = asyncio.run(
                    crowd(url, pid, log, people, args.seconds, args.warmup, spread, args.seed)
                )
        report(run)
        runs.append(run)
    summary(runs)


if __name__ == "__main__":
    main()
