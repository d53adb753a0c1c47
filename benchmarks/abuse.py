"""The abuse and fault suite: the server attacked and broken the way an
attacker or an accident would, while other players play.

Run by hand, on the loopback address only, bounded in time (a few minutes in
all): each part starts its own ``spades serve`` on a free port of 127.0.0.1
with a fresh database, and prints its figures. docs/security.md quotes them.

    .venv/bin/python benchmarks/abuse.py                 # every part but postgres
    .venv/bin/python benchmarks/abuse.py flood lock      # some parts
    .venv/bin/python benchmarks/abuse.py postgres        # a private PostgreSQL (as root)

Parts:

- ``fuzz``: every route of the OpenAPI with odd path values, wrong and missing
  fields, wrong types, long strings; no answer may be a 5xx or anything but JSON.
- ``inputs``: oversized bodies, nested record text, a record of too many hands,
  the largest record allowed (its cost), a form posted to /undo, foreign origins.
- ``flood``: one client floods new games (with and without its cookie), tables,
  sockets of one seat and record uploads, while 8 players play; their answer
  times alone and during the flood, in windows taken in turn (four of each).
- ``lock``: another process holds SQLite's write lock for 8 s while the players
  play: GET /api/levels' times, the moves' answers, the recovery.
- ``read-only``: a read-only database at start (refused), and the database
  file and its log made immutable under load (``chattr +i``, as root): the
  answers, the recovery.
- ``kill``: the server killed with SIGKILL five times while moves are in
  flight; every move it acknowledged is there after the restart.
- ``postgres``: two workers on a private PostgreSQL cluster, stopped for 5 s
  mid-service and started again: the answers, the recovery, nothing lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import aiohttp
import httpx
from web_load import Timings, percentile, player

from spades.bots import make_bot
from spades.core import Game, Phase, game_to_record, parse_rules
from spades.server.http.rates import Limits

SPADES = str(Path(sys.executable).with_name("spades"))
PLAYERS = 8
MOST_HANDS = Limits().record_hands or 100
"""The hands of the costliest record file the default limits let in."""
PLAYER_INTERVAL = 0.25
"""Seconds between a player's requests: a brisk person, not a load generator."""
TIMEOUT = aiohttp.ClientTimeout(total=30)
HOSTED = {"seats": {"N": "random", "E": "random", "S": "person", "W": "random"}, "host_seat": "S",
          "name": "Ann"}  # fmt: skip


# ------------------------------------------------------------------ servers


class Server:
    """``spades serve`` (random bots) on 127.0.0.1, restartable on its port and database.

    The port is a socket bound here once and handed to each start (``--fd``):
    killed and started again, the server is back on it, which no other process
    could take in between."""

    def __init__(self, db: str, *options: str) -> None:
        self.db = db
        self.options = options
        self.socket = socket.create_server(("127.0.0.1", 0))  # port 0: the system picks
        self.socket.set_inheritable(True)
        self.port: int = self.socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, wait: float = 60) -> None:
        fd = self.socket.fileno()
        command = [SPADES, "serve", f"--fd={fd}", f"--db={self.db}", "--level=random"]
        # A session (and process group) of its own: the workers of --workers, and
        # the helper processes its bots think in, are killed with it (``kill``).
        self.process = subprocess.Popen(
            [*command, *self.options], pass_fds=[fd], start_new_session=True
        )
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"spades serve exited with code {self.process.returncode}")
            with suppress(httpx.HTTPError):
                httpx.get(f"{self.url}/api/levels", timeout=1)
                return
            time.sleep(0.1)
        raise SystemExit("spades serve did not answer in time")

    def kill(self) -> None:
        """SIGKILL to the server and every process it started (its workers, its
        bots' helpers), as a power cut would stop them: none is left running."""
        if self.process is not None:
            self._kill_group()
            self.process.wait()

    def stop(self) -> None:
        """SIGTERM (uvicorn stops its workers), then SIGKILL to whatever of its
        process group is still there."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            with suppress(subprocess.TimeoutExpired):  # then killed, below
                self.process.wait(timeout=15)
        self._kill_group()
        self.process.wait()

    def _kill_group(self) -> None:
        assert self.process is not None
        with suppress(ProcessLookupError):  # the group is empty: all have exited
            os.killpg(self.process.pid, signal.SIGKILL)


@contextmanager
def serving(db: str | None = None, *options: str) -> Iterator[Server]:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(db or f"sqlite:///{folder}/abuse.db", *options)
        server.start()
        try:
            yield server
        finally:
            server.stop()
            server.socket.close()


def summary(values: list[float]) -> str:
    if not values:
        return "no answers"
    ordered = sorted(values)
    return (
        f"p50 {1000 * statistics.median(ordered):.0f} ms, p95 {1000 * percentile(ordered, 0.95):.0f}"
        f" ms, max {1000 * ordered[-1]:.0f} ms ({len(ordered)} answers)"
    )


async def players_for(url: str, seconds: float, count: int = PLAYERS) -> Timings:
    """``count`` players playing whole games for ``seconds``: their timings."""
    timings = Timings()
    timings.counting = True
    stop = time.monotonic() + seconds
    await asyncio.gather(
        *(player(url, timings, stop, random.Random(i), PLAYER_INTERVAL) for i in range(count))
    )
    return timings


def every_latency(timings: Timings) -> list[float]:
    return [value for values in timings.latencies.values() for value in values]


def failures(timings: Timings) -> Counter[str]:
    """The failures by status and rule (``503 storage-busy``)."""
    counted: Counter[str] = Counter()
    for route_failures in timings.failures.values():
        for failure in route_failures:
            status, _, body = failure.partition(" ")
            try:
                rule = json.loads(body).get("rule", "?")
            except ValueError:
                rule = "NOT JSON"
            counted[f"{status} {rule}"] += 1
    return counted


FLOODER = "127.0.0.2"
"""The flooding client's own loopback address: the players are 127.0.0.1, and
limits per address tell two clients apart by it, as they would two machines."""


def session(cookies: bool = True, address: str | None = None) -> aiohttp.ClientSession:
    jar: aiohttp.abc.AbstractCookieJar = (
        aiohttp.CookieJar(unsafe=True) if cookies else aiohttp.DummyCookieJar()
    )
    connector = aiohttp.TCPConnector(local_addr=(address, 0)) if address else None
    return aiohttp.ClientSession(timeout=TIMEOUT, cookie_jar=jar, connector=connector)


def long_record(hands: int) -> dict[str, Any]:
    """A valid record of ``hands`` finished hands (random bots, a target never reached)."""
    # Each seat bids the least it may and bags cost nothing: no side is ever set
    # far or reaches the target, so the game lasts as long as asked.
    game = Game(parse_rules("cardcouch,target=10000,floor=-10000,bag_penalty=0"), seed=1)
    bots = {seat: make_bot("random", seed=f"abuse:{seat}") for seat in range(4)}
    for at, bot in bots.items():
        bot.start_game(at, game.rules)
    while len(game.history) < hands and not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if game.phase is Phase.BIDDING:
            game.bid(seat, min(bid for bid in view.legal_bids() if bid > 0))
        elif game.phase is Phase.PASSING:
            game.pass_cards(seat, bots[seat].pass_cards(view))
        else:
            game.play(seat, bots[seat].play(view))
    record = game_to_record(game)
    if not record["hands"][-1]["bids"]:
        record["hands"].pop()  # the next hand, dealt, never bid: a record may leave it out
    return record


# ------------------------------------------------------------------- fuzz

ODD_PATH_VALUES = ["x", "0", "-1", "9" * 40, "..", "%2e%2e%2f", "a" * 300, "ñ", "null", " "]
ODD_VALUES: list[Any] = [
    None, True, -1, 0, 2**63, 1.5, "", "x" * 5000, "<script>", "\u0000", [], {}, [[[[1]]]],
    {"a": {"b": [1, 2]}}, "nil", "AS", 13, "N",
]  # fmt: skip


def odd_bodies(schema: dict[str, Any], components: dict[str, Any]) -> list[Any]:
    """Bodies for a request schema: empty, every field odd in turn, extra fields, not an object."""
    if "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    properties = schema.get("properties", {})
    bodies: list[Any] = [{}, [], "text", None, {"unknown": 1}]
    for name in properties:
        bodies += [{name: value} for value in ODD_VALUES]
    bodies.append(dict.fromkeys(properties, "x" * 1000))
    return bodies


async def fuzz() -> list[str]:
    # Limits off: one client sends every request, and past the limits they would
    # be refused by the middleware (429) before the route or its checks ran.
    with serving(None, "--limits=off") as server:
        async with session() as client:
            own = await client.post(f"{server.url}/api/games", json={"seed": 3})
            game_id = (await own.json())["game"]["id"]
            table = await client.post(f"{server.url}/api/tables", json=HOSTED)
            table_id = (await table.json())["id"]
            spec = httpx.get(f"{server.url}/openapi.json").json()
            components = spec["components"]["schemas"]
            statuses: Counter[int] = Counter()
            bad: list[str] = []
            sent = 0
            for path, methods in spec["paths"].items():
                for method, operation in methods.items():
                    params = operation.get("parameters", [])
                    values = [game_id, table_id, *ODD_PATH_VALUES]
                    body_schema = (
                        operation.get("requestBody", {})
                        .get("content", {})
                        .get("application/json", {})
                        .get("schema")
                    )
                    bodies = [None] if body_schema is None else odd_bodies(body_schema, components)
                    for value in values:
                        url = path
                        query: dict[str, str] = {}
                        for param in params:
                            if param["in"] == "path":
                                url = url.replace("{" + param["name"] + "}", value)
                            elif param["in"] == "query":
                                query[param["name"]] = random.choice(["x", "-1", "9" * 30, value])
                        for body in bodies if value in (game_id, table_id) else bodies[:3]:
                            sent += 1
                            kwargs: dict[str, Any] = {"params": query}
                            if body_schema is not None:
                                kwargs["json"] = body
                            async with client.request(
                                method.upper(), server.url + url, **kwargs
                            ) as answer:
                                statuses[answer.status] += 1
                                text = await answer.read()
                                kind = answer.headers.get("content-type", "")
                                if answer.status >= 500:
                                    bad.append(f"{answer.status} {method} {url}: {text[:120]!r}")
                                elif answer.status >= 400 and "json" not in kind:
                                    bad.append(f"not JSON {answer.status} {method} {url}")
    lines = [
        f"{sent:,} requests over {len(spec['paths'])} paths: "
        + ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items())),
        f"5xx or non-JSON refusals: {len(bad)}",
    ]
    return lines + bad[:10]


# ----------------------------------------------------------------- inputs


async def inputs() -> list[str]:
    lines: list[str] = []
    with serving(None, "--limits=uploads_per_address=60") as server:  # one client, many files
        base = server.url
        async with session() as client:
            for size in (1, 10, 50):
                body = b'{"partner": "' + b"x" * (size * 1024 * 1024) + b'"}'
                async with client.post(
                    f"{base}/api/games", data=body, headers={"content-type": "application/json"}
                ) as answer:
                    lines.append(f"{size} MB body: {answer.status} {(await answer.json())['rule']}")
            async with client.post(
                f"{base}/api/replays", json={"text": "[" * 20000 + "]" * 20000}
            ) as answer:
                found = await answer.json()
                lines.append(f"nested 20,000 deep: {answer.status} line {found['line']}: "
                             f"{found['detail']}")  # fmt: skip
            many = long_record(1)
            many["hands"] = many["hands"] * 1000
            async with client.post(
                f"{base}/api/replays", json={"text": json.dumps(many)}
            ) as answer:
                lines.append(f"1,000 hands: {answer.status} {(await answer.json())['rule']}")
            allowed = json.dumps(long_record(MOST_HANDS))
            started = time.perf_counter()
            async with client.post(f"{base}/api/replays", json={"text": allowed}) as answer:
                size = len(await answer.read())
            lines.append(
                f"{MOST_HANDS} hands (the most allowed, {len(allowed):,} characters): {answer.status} in "
                f"{time.perf_counter() - started:.2f} s, a {size / 1e6:.1f} MB answer"
            )
            created = await (await client.post(f"{base}/api/games", json={"seed": 5})).json()
            game_id = created["game"]["id"]
            async with client.post(
                f"{base}/api/games/{game_id}/undo",
                data="x=1",
                headers={"content-type": "application/x-www-form-urlencoded"},
            ) as answer:
                lines.append(
                    f"form posted to /undo: {answer.status} {(await answer.json())['rule']}"
                )
            async with client.post(
                f"{base}/api/games/{game_id}/undo", headers={"Origin": "http://127.0.0.1:18732"}
            ) as answer:
                lines.append(f"/undo from another port's page: {answer.status} "
                             f"{(await answer.json())['rule']}")  # fmt: skip
            table = await (await client.post(f"{base}/api/tables", json=HOSTED)).json()
            try:
                async with client.ws_connect(
                    f"{base}/api/tables/{table['id']}/ws", headers={"Origin": "http://evil.example"}
                ):
                    lines.append("socket from a foreign page: OPENED")
            except aiohttp.WSServerHandshakeError as refused:
                lines.append(f"socket from a foreign page: {refused.status}")
    return lines


# ------------------------------------------------------------------ flood


async def flood_request(
    client: aiohttp.ClientSession, method: str, url: str, body: Any, kind: str, counts: Counter[str]
) -> None:
    """One request of the flood, its answer counted by status (or by what went wrong)."""
    try:
        async with client.request(method, url, json=body) as answer:
            await answer.read()
            counts[f"{kind} {answer.status}"] += 1
    except (TimeoutError, aiohttp.ClientError) as error:
        counts[f"{kind} {type(error).__name__}"] += 1


async def flood_games(url: str, stop: float, cookies: bool, counts: Counter[str]) -> None:
    kind = "games" if cookies else "games (no cookie)"
    async with session(cookies, FLOODER) as client:
        while time.monotonic() < stop:
            await flood_request(client, "POST", f"{url}/api/games", {}, kind, counts)


async def flood_tables(url: str, stop: float, counts: Counter[str]) -> None:
    async with session(False, FLOODER) as client:
        while time.monotonic() < stop:
            await flood_request(client, "POST", f"{url}/api/tables", HOSTED, "tables", counts)


async def flood_sockets(url: str, stop: float, counts: Counter[str]) -> None:
    """One seat's sockets, 200 opened as fast as the server takes them."""
    async with session(True, FLOODER) as client:
        created = await client.post(f"{url}/api/tables", json=HOSTED)
        table = await created.json()
        if created.status != 201:
            counts[f"sockets: no table ({created.status})"] += 1
            return
        await (await client.post(f"{url}/api/tables/{table['id']}/start")).read()
        sockets = []
        for _ in range(200):
            if time.monotonic() > stop:
                break
            try:
                sockets.append(await client.ws_connect(f"{url}/api/tables/{table['id']}/ws"))
            except (TimeoutError, aiohttp.ClientError) as error:
                counts[f"sockets {type(error).__name__}"] += 1
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        counts["sockets opened"] += len(sockets)
        counts["sockets the server kept open"] += sum([await still_open(s) for s in sockets])
        for socket in sockets:
            await socket.close()


async def still_open(socket: aiohttp.ClientWebSocketResponse) -> bool:
    """Whether the server has not closed ``socket``: its messages read until a close, or none."""
    closing = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    while True:
        try:
            message = await socket.receive(timeout=0.05)
        except TimeoutError:
            return True
        if message.type in closing:
            return False


async def flood_uploads(url: str, stop: float, text: str, counts: Counter[str]) -> None:
    async with session(False, FLOODER) as client:
        while time.monotonic() < stop:
            await flood_request(
                client, "POST", f"{url}/api/replays", {"text": text}, "uploads", counts
            )


async def flood_all(url: str, seconds: float) -> dict[str, int]:
    """Every flood at once, for ``seconds``: the flooder's answers by kind and status."""
    text = json.dumps(long_record(MOST_HANDS))
    counts: Counter[str] = Counter()
    stop = time.monotonic() + seconds
    await asyncio.gather(
        *(flood_games(url, stop, True, counts) for _ in range(4)),
        *(flood_games(url, stop, False, counts) for _ in range(2)),
        *(flood_tables(url, stop, counts) for _ in range(2)),
        flood_sockets(url, stop, counts),
        *(flood_uploads(url, stop, text, counts) for _ in range(4)),
    )
    return dict(counts)


def flooder(url: str, seconds: float, answers: multiprocessing.Queue[dict[str, int]]) -> None:
    """The flooding client, in a process of its own: in the players' process its
    requests would queue the players' answers on the client's own event loop."""
    answers.put(asyncio.run(flood_all(url, seconds)))


FLOOD_ROUNDS = 4
"""Quiet and flooded windows, taken in turn on one server: the machine is
shared, and its other load drifts; interleaved, both kinds of window meet the
same drift, where one quiet window before one flooded one would not."""


async def flood_against(limits: str, seconds: float, rounds: int = FLOOD_ROUNDS) -> list[str]:
    lines: list[str] = []
    quiet_all: list[float] = []
    loud_all: list[float] = []
    counts: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    with serving(None, f"--limits={limits}") as server:
        url = server.url
        await players_for(url, 3)  # warm-up: the first games, the imports
        spawn = multiprocessing.get_context("spawn")
        for round_number in range(1, rounds + 1):
            load_before = os.getloadavg()[0]
            quiet = every_latency(await players_for(url, seconds))
            answers: multiprocessing.Queue[dict[str, int]] = spawn.Queue()
            process = spawn.Process(target=flooder, args=(url, seconds + 2, answers))
            process.start()
            await asyncio.sleep(2)  # the flooder's imports and its record file
            during = await players_for(url, seconds)
            loud = every_latency(during)
            counts.update(await asyncio.get_running_loop().run_in_executor(None, answers.get))
            process.join()
            refused.update(failures(during))
            quiet_all += quiet
            loud_all += loud
            lines.append(
                f"limits {limits}, round {round_number} (load {load_before:.1f} to "
                f"{os.getloadavg()[0]:.1f}): alone {_p(quiet, 0.5):.0f}/{_p(quiet, 0.95):.0f} ms, "
                f"flooded {_p(loud, 0.5):.0f}/{_p(loud, 0.95):.0f} ms (p50/p95): "
                f"x{_p(loud, 0.5) / _p(quiet, 0.5):.2f}/x{_p(loud, 0.95) / _p(quiet, 0.95):.2f}"
            )
    ratio = _p(loud_all, 0.5) / _p(quiet_all, 0.5)
    ratio95 = _p(loud_all, 0.95) / _p(quiet_all, 0.95)
    return [
        *lines,
        f"limits {limits}, {rounds} rounds: {PLAYERS} players alone: {summary(quiet_all)}",
        f"limits {limits}, {rounds} rounds: during the floods: {summary(loud_all)}; "
        f"p50 x{ratio:.2f}, p95 x{ratio95:.2f}; their failures: {dict(refused) or 'none'}",
        f"limits {limits}: the flooder's answers over {rounds} floods: "
        + ", ".join(f"{key}: {value}" for key, value in sorted(counts.items())),
    ]


def _p(values: list[float], fraction: float) -> float:
    """The ``fraction`` percentile of ``values``, in milliseconds."""
    return 1000 * percentile(sorted(values), fraction)


async def flood(seconds: float = 8) -> list[str]:
    return await flood_against("default", seconds) + await flood_against("off", seconds)


# ------------------------------------------------------------------- lock


async def probe(url: str, stop: float) -> list[float]:
    """GET /api/levels' answer times every 50 ms until ``stop``."""
    times: list[float] = []
    async with session() as client:
        while time.monotonic() < stop:
            started = time.perf_counter()
            async with client.get(f"{url}/api/levels") as answer:
                await answer.read()
            times.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
    return times


HOLD_LOCK = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
connection.execute("COMMIT")
"""


async def lock(held: float = 8) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/abuse.db"
        with serving(f"sqlite:///{path}", "--limits=off") as server:  # as in read_only
            url = server.url
            await players_for(url, 3)
            before = await asyncio.gather(players_for(url, 4), probe(url, time.monotonic() + 4))
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLD_LOCK, path, str(held)], stdout=subprocess.PIPE
            )
            assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
            during = await asyncio.gather(
                players_for(url, held), probe(url, time.monotonic() + held)
            )
            holder.wait()
            after = await players_for(url, 4)
    moves = every_latency(during[0])
    return [
        f"GET /api/levels before: {summary(before[1])}",
        f"GET /api/levels while another process held the write lock {held:g} s: "
        f"{summary(during[1])}",
        f"players' requests during the lock: {summary(moves)}; refused: "
        f"{dict(failures(during[0])) or 'none'}",
        f"players' requests after it: {summary(every_latency(after))}; refused: "
        f"{dict(failures(after)) or 'none'}",
    ]


# -------------------------------------------------------------- read-only


async def read_only() -> list[str]:
    lines: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/abuse.db"
        # Limits off: the players start a new game after each refused move, and all
        # come from 127.0.0.1; this part is about the store, not the limits.
        with serving(f"sqlite:///{path}", "--limits=off") as server:
            url = server.url
            await players_for(url, 3)
            # The file, its log and its -shm index, which SQLite maps into memory:
            # a write to a mapped page of an immutable file is a SIGBUS, which the
            # server's watch of the index (storage/wal_index.py) must forestall.
            files = [p for p in (path, f"{path}-wal", f"{path}-shm") if Path(p).exists()]
            if subprocess.run(["chattr", "+i", *files], check=False).returncode != 0:
                lines.append("chattr +i is not allowed here (needs root): skipped under load")
            else:
                try:
                    during = await players_for(url, 5)
                finally:
                    subprocess.run(["chattr", "-i", *files], check=True)
                after = await players_for(url, 4)
                lines += [
                    f"{', '.join(Path(file).name for file in files)} immutable for 5 s: "
                    f"{summary(every_latency(during))}; "
                    f"refused: {dict(failures(during)) or 'none'}",
                    f"after: {summary(every_latency(after))}; refused: "
                    f"{dict(failures(after)) or 'none'}",
                ]
        started = time.perf_counter()
        refused = subprocess.run(
            [
                SPADES,
                "serve",
                "--port=0",
                f"--db=sqlite:///file:{path}?mode=ro&uri=true",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        words = " ".join(
            line.strip(" │╭╮╰╯─") for line in refused.stderr.splitlines() if line.strip(" │╭╮╰╯─")
        )
        lines.append(
            f"spades serve on a read-only file: exit {refused.returncode} in "
            f"{time.perf_counter() - started:.1f} s: {words[-220:]}"
        )
    return lines


# ------------------------------------------------------------------- kill


async def acknowledged_player(
    url: str, stop: float, seen: dict[str, int], rng: random.Random
) -> None:
    """Plays until ``stop``; ``seen`` keeps the highest version the server
    acknowledged for its game. Errors (the server gone) are shrugged off."""
    async with session() as client:
        game: dict[str, Any] | None = None
        while time.monotonic() < stop:
            try:
                if game is None or game["phase"] == "over":
                    answer = await client.post(f"{url}/api/games", json={})
                elif game["phase"] == "bidding":
                    bid = rng.choice(game["legal_bids"])
                    answer = await client.post(
                        f"{url}/api/games/{game['id']}/bid", json={"bid": bid}
                    )
                else:
                    card = rng.choice(game["legal_cards"])
                    answer = await client.post(
                        f"{url}/api/games/{game['id']}/play", json={"card": card}
                    )
                if answer.status in (200, 201):
                    game = (await answer.json())["game"]
                    seen[game["id"]] = max(seen.get(game["id"], 0), game["version"])
                elif game is not None:
                    fresh = await client.get(f"{url}/api/games/{game['id']}")
                    if fresh.status == 200:
                        game = (await fresh.json())["game"]
            except (TimeoutError, aiohttp.ClientError):
                await asyncio.sleep(0.05)


async def kill(rounds: int = 5) -> list[str]:
    lost = checked = 0
    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"sqlite:///{folder}/abuse.db")
        server.start()
        seen: dict[str, int] = {}
        try:
            for index in range(rounds):
                stop = time.monotonic() + 2 + random.Random(index).random()
                players = [
                    acknowledged_player(server.url, stop, seen, random.Random(index * 10 + i))
                    for i in range(4)
                ]
                await asyncio.gather(*players, kill_at(server, stop - 0.2))
                server.start()
            repository = _repository(f"sqlite:///{folder}/abuse.db")
            with repository.engine.connect() as connection:
                for game_id, version in seen.items():
                    checked += 1
                    stored = connection.exec_driver_sql(
                        "SELECT version FROM games WHERE id = ?", (game_id,)
                    ).scalar()
                    lost += stored is None or stored < version
            repository.close()
        finally:
            server.stop()
    return [f"{rounds} kill -9s mid-move: {checked} games checked, {lost} acknowledged moves lost"]


async def kill_at(server: Server, moment: float) -> None:
    """Kill ``server`` at ``moment``, while its players' moves are in flight."""
    await asyncio.sleep(max(0.0, moment - time.monotonic()))
    server.kill()


def _repository(url: str) -> Any:
    from spades.storage import GameRepository

    return GameRepository(url)


# --------------------------------------------------------------- postgres

PG_BIN = Path("/usr/lib/postgresql")


@contextmanager
def private_postgres() -> Iterator[tuple[str, Callable[[], None], Callable[[], None]]]:
    """A PostgreSQL cluster of its own (not the shared one), reached by a Unix
    socket in a folder of its own, so it takes no port another may want: its
    URL, and functions that stop and start it."""
    versions = sorted(PG_BIN.glob("*/bin/initdb"))
    if not versions:
        raise SystemExit("no PostgreSQL binaries under /usr/lib/postgresql")
    bin_dir = versions[-1].parent
    folder = Path(tempfile.mkdtemp(prefix="spades-pg-"))
    shutil.chown(folder, "postgres")
    port = 5432  # names the socket file only: it is alone in its folder

    def as_postgres(*command: str) -> None:
        subprocess.run(["su", "postgres", "-c", " ".join(command)], check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip

    data = folder / "data"
    as_postgres(str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "spades")
    options = f"'-p {port} -k {folder} -c listen_addresses='"  # no TCP

    def start() -> None:
        as_postgres(
            str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(folder / "log"),
            "-w", "start",
        )  # fmt: skip

    def stop() -> None:
        as_postgres(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")

    start()
    try:
        as_postgres(
            str(bin_dir / "createdb"), "-h", str(folder), "-p", str(port), "-U", "spades", "abuse"
        )
        yield f"postgresql://spades@/abuse?host={folder}&port={port}", stop, start
    finally:
        with suppress(subprocess.CalledProcessError):
            stop()
        shutil.rmtree(folder, ignore_errors=True)


async def postgres(down: float = 5) -> list[str]:
    with (
        private_postgres() as (url, stop_database, start_database),
        serving(url, "--workers=2", "--limits=off") as server,
    ):
        await players_for(server.url, 3)
        seen: dict[str, int] = {}
        stop = time.monotonic() + 4 + down + 6
        players = asyncio.gather(
            *(acknowledged_player(server.url, stop, seen, random.Random(i)) for i in range(4))
        )
        await asyncio.sleep(4)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, stop_database)
        during = await players_for(server.url, down, count=4)
        await loop.run_in_executor(None, start_database)
        restarted = time.monotonic()
        first_ok = None
        async with session() as client:
            while time.monotonic() - restarted < 30:
                async with client.post(f"{server.url}/api/games", json={}) as answer:
                    if answer.status == 201:
                        first_ok = time.monotonic() - restarted
                        break
                await asyncio.sleep(0.1)
        await players
        check = _repository(url)
        with check.engine.connect() as connection:
            lost = sum(
                (connection.exec_driver_sql(
                    "SELECT version FROM games WHERE id = %s", (game_id,)
                ).scalar() or 0) < version
                for game_id, version in seen.items()
            )  # fmt: skip
        check.close()
    return [
        f"PostgreSQL stopped {down:g} s under two workers: answers {dict(failures(during)) or 'all 2xx'}",
        f"first new game {first_ok:.1f} s after it started again"
        if first_ok is not None
        else "no new game within 30 s of the restart",
        f"acknowledged moves kept: {len(seen)} games checked, {lost} lost",
    ]


# ------------------------------------------------------------------- main

PARTS: dict[str, Callable[[], Coroutine[Any, Any, list[str]]]] = {
    "fuzz": fuzz,
    "inputs": inputs,
    "flood": flood,
    "lock": lock,
    "read-only": read_only,
    "kill": kill,
    "postgres": postgres,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "parts",
        nargs="*",
        metavar="PART",
        help=f"among {', '.join(PARTS)} (default: all but postgres)",
    )
    args = parser.parse_args()
    unknown = [name for name in args.parts if name not in PARTS]
    if unknown:
        parser.error(f"unknown part {unknown[0]!r}: choose among {', '.join(PARTS)}")
    chosen = args.parts or [name for name in PARTS if name != "postgres"]
    load = os.getloadavg()
    print(
        f"load average before: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores"
    )
    for name in chosen:
        started = time.monotonic()
        lines = asyncio.run(PARTS[name]())
        print(f"== {name} ({time.monotonic() - started:.0f} s)")
        for line in lines:
            print(f"  {line}")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
