"""Live tables under load: how soon each seat hears of a move. Run by hand:

    .venv/bin/python benchmarks/live_tables.py [--tables 50] [--seconds 30] [--think 0.5]
    .venv/bin/python benchmarks/live_tables.py --tables 2 --moves 12   # a count, not a time

It starts ``spades serve`` (a real uvicorn process, SQLite, ``--level random``)
on a port it picks and sets ``--tables`` tables of four people each: a host makes
the table, three friends join by their invite links, and every one of them
keeps the table's WebSocket open (``--tables`` x 4 sockets). Each person, when
their socket says it is their turn, thinks ``--think`` seconds and sends a legal
bid or card by POST, as the page does. Quick reactions and presence are not
exercised: moves are what every seat must hear at once.

What is measured, after ``--warmup`` seconds: for every move, the time from
sending it to each of the four sockets of its table receiving the update that
carries it (the push latency a player feels, the mover's own socket included),
and the POST's own round trip. Printed: moves, pushes, the p50 / p95 / p99 of
both, and the server's CPU time while measuring.

It measures for ``--seconds``, or, with ``--moves N``, until N moves are
answered and each is heard by the four sockets of its table, however long that
takes on the machine (within ``MOVES_PATIENCE``): exactly N moves and 4 x N
pushes, what a test can count on where a time gives as many moves as the
machine's load allows.

Client and server share the machine's cores: the figures are for the pair.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).parent))
from web_load import cpu_seconds, percentile, spades_server

SEATS = ("N", "E", "S", "W")
MOVES_PATIENCE = 300.0
"""Seconds ``--moves`` may take before the run gives up, saying how far it got."""


class Clock:
    """When each move was sent and when each socket heard of it, by (table, log)."""

    def __init__(self) -> None:
        self.counting = False
        self.sent: dict[tuple[str, int], float] = {}
        self.heard: dict[tuple[str, int], list[float]] = defaultdict(list)
        self.round_trips: list[float] = []
        self.failures: list[str] = []
        self.messages = 0
        self.cpu: float | None = None
        self.moves: set[asyncio.Task[None]] = set()
        self.wanted: int | None = None
        """With ``--moves``: stop counting once this many moves are."""
        self.counted_all = asyncio.Event()
        self.seconds = 0.0
        """How long the counting lasted."""

    def count(self, table: str, log: int, start: float) -> None:
        """A move sent at ``start``, answered with the table's log at ``log``."""
        if not self.counting:
            return
        self.sent[(table, log)] = start
        if self.wanted is not None and len(self.sent) >= self.wanted:
            self.counting = False  # one event loop: no other move is counted after this
            self.counted_all.set()

    def all_heard(self) -> bool:
        """Whether every move counted has reached each of its table's four sockets."""
        return all(len(self.heard.get(key, [])) >= len(SEATS) for key in self.sent)


async def person(
    session: aiohttp.ClientSession,
    url: str,
    table: str,
    clock: Clock,
    think: float,
    rng: random.Random,
    stop: asyncio.Event,
    opened: asyncio.Event,
) -> None:
    """One seat: listen on the socket, move when it is this seat's turn;
    ``opened`` is set once the socket is."""
    ws_url = url.replace("http", "ws", 1) + f"/api/tables/{table}/ws"
    async with session.ws_connect(ws_url, heartbeat=None) as socket:
        opened.set()
        sent_at: dict[int, float] = {}
        heard: set[int] = set()
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(socket.receive_json(), timeout=1)
            except TimeoutError:
                continue
            now = time.perf_counter()
            if message.get("type") != "update" or message["game"] is None:
                continue
            clock.messages += 1
            if message["log"] not in heard:  # the first update to carry the move
                heard.add(message["log"])
                clock.heard[(table, message["log"])].append(now)
            game = message["game"]
            if not game["your_turn"] or game["phase"] == "over":
                continue
            if message["log"] in sent_at:
                continue  # already answered this position
            sent_at[message["log"]] = now
            await asyncio.sleep(think * rng.random() * 2)
            if stop.is_set():  # the run ended while this seat thought
                break
            task = asyncio.get_running_loop().create_task(
                move(session, url, table, game, clock, rng)
            )
            clock.moves.add(task)  # kept, and awaited before the sessions close
            task.add_done_callback(clock.moves.discard)


async def move(
    session: aiohttp.ClientSession,
    url: str,
    table: str,
    game: dict[str, Any],
    clock: Clock,
    rng: random.Random,
) -> None:
    if game["phase"] == "bidding":
        action, body = "bid", {"bid": rng.choice(game["legal_bids"])}
    elif game["phase"] == "passing":
        action, body = "pass", {"cards": game["hand"][: game["passing"]["count"]]}
    else:
        action, body = "play", {"card": rng.choice(game["legal_cards"])}
    start = time.perf_counter()
    async with session.post(f"{url}/api/tables/{table}/{action}", json=body) as response:
        data = await response.json()
        if response.status != 200:
            clock.failures.append(f"{action} {response.status} {data}")
            return
    if clock.counting:
        clock.round_trips.append(time.perf_counter() - start)
        clock.count(table, data["log"], start)


async def set_table(url: str, rng: random.Random) -> tuple[str, list[aiohttp.ClientSession]]:
    """A table of four people, each with a session (cookie jar) of their own."""
    sessions = [aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in SEATS]
    seats = dict.fromkeys(SEATS, "person")
    async with sessions[2].post(
        f"{url}/api/tables", json={"seats": seats, "host_seat": "S", "name": "Host"}
    ) as response:
        table = await response.json()
    for session, seat in zip(sessions, SEATS, strict=True):
        if seat == "S":
            continue
        body = {"seat": seat, "invite": table["invites"][seat], "name": f"Friend {seat}"}
        async with session.post(f"{url}/api/tables/{table['id']}/join", json=body) as response:
            response.raise_for_status()
    return table["id"], sessions


async def run(
    url: str,
    pid: int,
    tables: int,
    seconds: float,
    warmup: float,
    think: float,
    moves: int | None = None,
) -> Clock:
    """Measure for ``seconds``, or, given ``moves``, until that many are answered
    and heard by every socket of their tables."""
    clock = Clock()
    clock.wanted = moves
    stop = asyncio.Event()
    rng = random.Random(2026)
    made = [await set_table(url, rng) for _ in range(tables)]
    opened = [asyncio.Event() for _ in range(tables * len(SEATS))]
    people = [(table, session) for table, sessions in made for session in sessions]
    tasks = [
        asyncio.create_task(
            person(session, url, table, clock, think, random.Random(rng.random()), stop, is_open)
        )
        for (table, session), is_open in zip(people, opened, strict=True)
    ]
    # Every socket open before the deals, so each hears every move.
    await asyncio.wait_for(asyncio.gather(*(event.wait() for event in opened)), MOVES_PATIENCE)
    for table, sessions in made:
        async with sessions[2].post(f"{url}/api/tables/{table}/start") as response:
            response.raise_for_status()
    await asyncio.sleep(warmup)
    before = cpu_seconds(pid)
    started = time.perf_counter()
    clock.counting = True
    if moves is None:
        await asyncio.sleep(seconds)
        clock.counting = False
    else:
        await counted(clock, moves)
    clock.seconds = time.perf_counter() - started
    after = cpu_seconds(pid)
    clock.cpu = None if before is None or after is None else after - before
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)  # no seat sends a move after this
    await asyncio.gather(*clock.moves, return_exceptions=True)
    for _table, sessions in made:
        for session in sessions:
            await session.close()
    return clock


async def counted(clock: Clock, moves: int) -> None:
    """Until ``moves`` moves are counted and each is heard by its four sockets."""
    try:
        await asyncio.wait_for(clock.counted_all.wait(), MOVES_PATIENCE)
        deadline = time.monotonic() + MOVES_PATIENCE
        while not clock.all_heard():  # the last pushes are on their way
            if time.monotonic() > deadline:
                raise TimeoutError
            await asyncio.sleep(0.01)
    except TimeoutError:
        clock.counting = False
        heard = sum(min(len(clock.heard.get(key, [])), len(SEATS)) for key in clock.sent)
        raise SystemExit(
            f"{len(clock.sent)} of {moves} moves answered, {heard} of "
            f"{len(SEATS) * len(clock.sent)} pushes heard, in {MOVES_PATIENCE:.0f} s"
        ) from None


def report(clock: Clock, tables: int, seconds: float) -> None:
    pushes = sorted(
        heard - sent
        for key, sent in clock.sent.items()
        for heard in clock.heard.get(key, [])
        if heard >= sent
    )
    trips = sorted(clock.round_trips)
    print(f"{tables} tables, {tables * 4} sockets, {seconds:.1f} s measured")
    print(
        f"{len(clock.sent):,} moves ({len(clock.sent) / seconds:.1f}/s), {len(pushes):,} pushes timed"
    )
    if clock.cpu is not None:
        print(f"server CPU: {clock.cpu:.1f} s ({100 * clock.cpu / seconds:.0f}% of a core)")
    for name, values in (("push", pushes), ("post", trips)):
        if values:
            print(
                f"  {name:5} p50 {1000 * percentile(values, 0.5):7.1f} ms"
                f"  p95 {1000 * percentile(values, 0.95):7.1f} ms"
                f"  p99 {1000 * percentile(values, 0.99):7.1f} ms"
            )
    print(f"failures: {len(clock.failures)}")
    if clock.failures:
        print(f"first failure: {clock.failures[0]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument(
        "--moves",
        type=int,
        help="measure this many moves (each heard by its four sockets) instead of --seconds",
    )
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--think", type=float, default=0.5, help="a person's mean think time")
    parser.add_argument(
        "--limits",
        default="off",
        help="the server's --limits (default off: every table is made from 127.0.0.1)",
    )
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        spades_server(f"sqlite:///{folder}/live.db", limits=args.limits) as (url, pid),
    ):
        clock = asyncio.run(
            run(url, pid, args.tables, args.seconds, args.warmup, args.think, args.moves)
        )
    report(clock, args.tables, clock.seconds)


if __name__ == "__main__":
    main()
