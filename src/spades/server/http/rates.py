"""How much one player or one client address may ask of the server.

Each limit is a rate (so many a minute: a token bucket per key, holding ten
seconds' worth, so a burst is a sixth of the minute's and the rest comes
evenly) or a count, with a default no person playing ever meets, and
each can be changed or turned off where the server is started
(``spades serve --limits``, or ``SPADES_LIMITS`` in the environment):

    spades serve --limits games_per_owner=200,sockets_per_seat=8
    spades serve --limits off          # benchmarks that play hundreds from one address

A client address is the socket's peer (behind a reverse proxy, the address
uvicorn takes from ``X-Forwarded-For`` when the proxy is trusted); an IPv6
address counts as its /64 network, which one household or host is given
whole. A refused request is answered 429 with ``Retry-After`` and
``{detail, rule}``, rule ``rate-limit``; see docs/security.md for the figures.

Where the buckets live: the limits of the costly work (games, tables, record
files, hints, claims, sockets) are counted in the database
(``storage/rate_buckets.py``), so that every server process over it
(``spades serve --workers N``, several servers over one SQLite file) counts a
client together; each process remembers a refusal until its ``Retry-After``,
so a flood past a limit costs the database one statement a key and process
in each such wait, not one a request. ``requests_per_address``, checked on
every request, is counted in each process's memory only (``LOCAL_KINDS``).
While the database fails, each process counts on its own, as before.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
import math
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Final

from anyio import to_thread
from starlette.types import ASGIApp, Receive, Scope, Send

from spades.storage import storage_fault
from spades.storage.outages import Outage
from spades.storage.rate_buckets import RateBuckets

ENVIRONMENT: Final = "SPADES_LIMITS"
WINDOW: Final = 60.0
"""The rates are per minute."""
BURST_SECONDS: Final = 10.0
"""A bucket holds this many seconds' worth of its rate: a flood gets a sixth of
the minute's at once, not all of it (which would be its whole cost up front)."""
MAX_KEYS: Final = 100_000
"""Buckets kept; past this many, the half used least lately are forgotten
(they have refilled, or nearly: forgetting one changes nothing but memory)."""
LOCAL_KINDS: Final = frozenset({"requests"})
"""Kinds counted in each process's memory, never in the database: every
request is one of ``requests``, and counting it there would make each request
a write (a flood of reads a flood of writes, taking turns with the players'
moves for SQLite's lock). A flood over N processes gets N times it; the
limits of the costly work are what is shared."""

ALONE_SECONDS: Final = 5.0
"""How long a process counts on its own once the database failed to count a
take (a server stopped, SQLite's lock held past the 2 s wait) before it asks
again: each costly request would otherwise wait out that wait first."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits; ``None`` turns one off."""

    requests_per_address: int | None = 3000
    """Requests a minute from one address, of any kind (a page at play makes one
    or two a second; a household or a school shares an address): past it a
    flood is refused before any route is run."""
    games_per_owner: int | None = 60
    """New games a minute from one player (cookie): a person starts one every few minutes."""
    games_per_address: int | None = 120
    """New games a minute from one address (a household or a school behind one NAT)."""
    tables_per_address: int | None = 30
    """New tables a minute from one address."""
    hints_per_owner: int | None = 60
    """Hints a minute for one player: each runs the strongest bot's search (up to
    a second of a core). A person asks one a move at most, and the page one a
    bid; a move every second with a hint each is 60."""
    hints_per_address: int | None = 120
    """Hints a minute from one address (several players behind one NAT)."""
    claims_per_owner: int | None = 30
    """Claims a minute from one player: the solver checks each against every
    defence. A person claims once or twice a hand, a few times in a row when
    the claim is refused and retried for fewer tricks."""
    claims_per_address: int | None = 60
    """Claims a minute from one address."""
    uploads_per_address: int | None = 30
    """Record files opened for replay a minute from one address (a person opens a
    few in a row, and each game of a file is opened anew; each is re-played, CPU
    the other players would wait for)."""
    uploads_at_once: int | None = 1
    """Record files re-played at the same moment by one server process (each
    process re-plays in processes of its own)."""
    record_hands: int | None = 100
    """Hands a record file opened for replay may hold (a long game has 20 or 30):
    re-playing one costs about a millisecond a hand on a quiet core."""
    sockets_per_address: int | None = 60
    """Live sockets opened a minute from one address (a page opens one, and
    another after each drop)."""
    sockets_per_seat: int | None = 4
    """Live sockets one seat keeps open (tabs) in one server process; a new one
    past this closes the oldest."""

    @classmethod
    def off(cls) -> Limits:
        return cls(**{field.name: None for field in fields(cls)})

    @classmethod
    def parse(cls, text: str) -> Limits:
        """Limits written as ``off``, ``default``, or ``name=N,name=off,...``
        over the defaults (or over none, after ``off,``).

        >>> Limits.parse("off,sockets_per_seat=2").sockets_per_seat
        2
        >>> Limits.parse("games_per_owner=off").games_per_owner is None
        True
        """
        limits = cls()
        known = {field.name for field in fields(cls)}
        for part in (piece.strip() for piece in text.split(",")):
            if part in ("", "default"):
                continue
            if part == "off":
                limits = cls.off()
                continue
            name, equals, value = part.partition("=")
            name = name.strip().replace("-", "_")
            if not equals or name not in known:
                raise ValueError(
                    f"{part!r} is not a limit: write off, or name=N with a name among "
                    f"{', '.join(sorted(known))}"
                )
            value = value.strip()
            if value == "off":
                limits = replace(limits, **{name: None})
            elif value.isdigit() and int(value) > 0:
                limits = replace(limits, **{name: int(value)})
            else:
                raise ValueError(
                    f"the limit {name} is a whole number from 1, or off, not {value!r}"
                )
        return limits

    @classmethod
    def from_environment(cls) -> Limits:
        """The limits ``SPADES_LIMITS`` writes, else the defaults."""
        return cls.parse(os.environ.get(ENVIRONMENT, ""))

    def describe(self) -> str:
        return ", ".join(
            f"{field.name}={'off' if getattr(self, field.name) is None else getattr(self, field.name)}"
            for field in fields(self)
        )


class RateLimited(Exception):
    """A request past a rate: ``retry_after`` seconds until one more is allowed."""

    def __init__(self, detail: str, retry_after: float) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after = max(1, math.ceil(retry_after))


class Rates:
    """Token buckets, one per (kind, key): ``BURST_SECONDS`` worth of
    ``per_minute``, refilled evenly, on ``clock`` (seconds since the epoch, as
    every process counts). Counted in ``shared`` (the database, for every
    process over it) when it is given, but for ``LOCAL_KINDS``; those, and all
    of them without it, in this process's memory."""

    def __init__(
        self, clock: Callable[[], float] = time.time, shared: RateBuckets | None = None
    ) -> None:
        self.clock = clock
        self.shared = shared
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self._refused_until: dict[tuple[str, str], float] = {}
        """When each key refused by ``shared`` has a token again: refused here
        till then, the database unasked (no other process can refill it)."""
        self._lock = threading.Lock()  # the upload route runs in the thread pool
        self.outage = Outage(log, "counting the limits in the database")
        self._alone_until = 0.0
        """Until when this process counts on its own, the database having just failed."""

    async def take(self, kind: str, key: str, per_minute: int | None, what: str) -> None:
        """Spend one of ``key``'s ``kind`` tokens, or raise ``RateLimited``
        saying ``what`` was refused (None: no limit)."""
        if per_minute is None:
            return
        now = self.clock()
        if self.shared is None or kind in LOCAL_KINDS or now < self._alone_until:
            self.take_here(kind, key, per_minute, what)
            return
        until = self._refused_until.get((kind, key))
        if until is not None and now < until:
            raise _refusal(per_minute, what, until - now)
        rate = per_minute / WINDOW
        take = functools.partial(
            self.shared.take, kind, key, capacity=_capacity(rate), per_second=rate, now=now
        )
        try:
            wait = await to_thread.run_sync(take)
        except Exception as error:
            if storage_fault(error) is None:
                raise
            # The store away or busy: this process counts on its own for a while,
            # rather than have each costly request wait out the storage wait first.
            self.outage.failed(error)
            self._alone_until = now + ALONE_SECONDS
            self.take_here(kind, key, per_minute, what)
            return
        self.outage.recovered()
        if wait > 0:
            with self._lock:
                if len(self._refused_until) > MAX_KEYS:
                    self._refused_until = {
                        refused: at for refused, at in self._refused_until.items() if at > now
                    }
                self._refused_until[(kind, key)] = now + wait
            raise _refusal(per_minute, what, wait)

    def take_here(self, kind: str, key: str, per_minute: int, what: str) -> None:
        """``take`` counted in this process's memory only."""
        now = self.clock()
        rate = per_minute / WINDOW
        capacity = _capacity(rate)
        with self._lock:
            tokens, then = self._buckets.get((kind, key), (capacity, now))
            tokens = min(capacity, tokens + max(0.0, now - then) * rate)
            if tokens < 1:
                self._buckets[(kind, key)] = (tokens, now)
                raise _refusal(per_minute, what, (1 - tokens) / rate)
            self._buckets[(kind, key)] = (tokens - 1, now)
            if len(self._buckets) > MAX_KEYS:
                self._forget_idle()

    def _forget_idle(self) -> None:
        stale = sorted(self._buckets, key=lambda key: self._buckets[key][1])
        for key in stale[: len(stale) // 2]:
            del self._buckets[key]


def _capacity(rate: float) -> float:
    """A bucket's size at ``rate`` a second: ``BURST_SECONDS`` of it, at least one."""
    return max(1.0, rate * BURST_SECONDS)


def _refusal(per_minute: int, what: str, wait: float) -> RateLimited:
    return RateLimited(f"Too many {what}: at most {per_minute} a minute. Try again shortly.", wait)


IPV6_NETWORK_BITS: Final = 64
"""An IPv6 client is keyed by its /64: a provider gives one host or household a
whole /64, so a key per address would give a flood 2**64 of them."""


def client_address(scope_client: tuple[str, int] | None) -> str:
    """The key of a client's address (``request.client``; tests have none): an
    IPv4 address as it is, an IPv6 one as its /64 network.

    >>> client_address(("203.0.113.7", 5000))
    '203.0.113.7'
    >>> client_address(("2001:db8:1:2:aaaa::1", 5000))
    '2001:db8:1:2::/64'
    >>> client_address(("::ffff:203.0.113.7", 5000))
    '203.0.113.7'
    """
    if scope_client is None:
        return "unknown"
    host = scope_client[0]
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # a zone (fe80::1%eth0) aside
    except ValueError:
        return host  # not an address (a Unix socket's peer, a test's name): itself
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # a dual-stack socket's IPv4 client
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_NETWORK_BITS), strict=False))
    return str(address)


class AtOnce:
    """At most ``count`` of one costly kind of work at the same moment
    (None: no cap); a caller waits ``wait`` seconds for a turn, then is refused."""

    def __init__(self, count: int | None, what: str, wait: float = 2.0) -> None:
        self._turns = None if count is None else threading.BoundedSemaphore(count)
        self.what = what
        self.wait = wait

    @contextmanager
    def turn(self) -> Iterator[None]:
        if self._turns is None:
            yield
            return
        if not self._turns.acquire(timeout=self.wait):
            raise RateLimited(f"The server is busy with other {self.what}: try again.", 1)
        try:
            yield
        finally:
            self._turns.release()


COSTLY: Final = {
    ("POST", "/api/games"): ("games-from", "games_per_address", "new games from your address"),
    ("POST", "/api/tables"): ("tables", "tables_per_address", "new tables"),
    ("POST", "/api/replays"): ("uploads", "uploads_per_address", "record files opened"),
}
"""The routes whose work is costly, and their limit per address: checked with
the others, before the body is read (a record file is megabytes of JSON)."""
COSTLY_OF_A_GAME: Final = {
    ("GET", "hint"): ("hints-from", "hints_per_address", "hints for your address"),
    ("POST", "claim"): ("claims-from", "claims_per_address", "claims from your address"),
}
"""The costly routes of one game (``/api/games/{id}/hint``, ``.../claim``): the
search and the solver."""
GAME_ROUTE: Final = re.compile(r"/api/games/[^/]+/([a-z]+)")
SOCKETS: Final = ("sockets", "sockets_per_address", "live sockets opened")
"""A socket's handshake loads its table and sends it: costly too."""


REFUSAL_DELAY: Final = 1.0
"""Seconds a request refused here waits before its 429 is sent (at most its
``Retry-After``; ``app.state.refusal_delay``). A flood is a client asking
again as soon as it is answered, over a few connections: answered at once,
one address's refusals came at 600 a second and their parsing and answers
took the CPU the other players needed (their answers 2.5 to 6 times slower).
Held a second, each connection asks once a second. Nothing is read meanwhile,
and a person past a limit is refused either way."""
MOST_HELD: Final = 1024
"""Refusals held back at the same moment; past this many (a flood over
thousands of connections) the rest are answered at once, so holding them
never costs more than a timer each for a bounded number of connections."""


async def hold_refusal(seconds: float) -> None:
    """Wait before a refusal is sent (a test replaces it to see the wait)."""
    await asyncio.sleep(seconds)


class RequestRate:
    """ASGI middleware: ``requests_per_address``, and the limits per address of
    the ``COSTLY`` routes, checked before any route runs or any body is read
    (so a refused request costs a few microseconds, not a route's work), and
    answered after ``REFUSAL_DELAY``. It reads the app's limits, buckets and
    delay (``app.state.limits``, ``.rates``, ``.refusal_delay``) at each
    request, so a test or an operator's change applies at once."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.held = 0
        """Refusals waiting to be sent (all on the one event loop: no lock)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            state = scope["app"].state
            address = client_address(scope.get("client"))
            limits: Limits = state.limits
            try:
                await state.rates.take(
                    "requests", address, limits.requests_per_address, "requests from your address"
                )
                costly = SOCKETS if scope["type"] == "websocket" else _costly(scope)
                if costly is not None:
                    kind, name, what = costly
                    await state.rates.take(kind, address, getattr(limits, name), what)
            except RateLimited as refused:
                delay = min(getattr(state, "refusal_delay", REFUSAL_DELAY), refused.retry_after)
                if delay > 0 and self.held < MOST_HELD:
                    self.held += 1
                    try:
                        await hold_refusal(delay)
                    finally:
                        self.held -= 1
                await _refuse(scope, receive, send, refused)
                return
        await self.app(scope, receive, send)


def _costly(scope: Scope) -> tuple[str, str, str] | None:
    """The limit per address of the costly route ``scope`` asks for, if it is one."""
    method, path = scope["method"], scope["path"]
    costly = COSTLY.get((method, path))
    if costly is None:
        of_a_game = GAME_ROUTE.fullmatch(path)
        if of_a_game is not None:
            costly = COSTLY_OF_A_GAME.get((method, of_a_game[1]))
    return costly


async def _refuse(scope: Scope, receive: Receive, send: Send, refused: RateLimited) -> None:
    if scope["type"] == "websocket":  # closed before it is accepted: a 403 (uvicorn)
        if (await receive())["type"] == "websocket.connect":
            await send({"type": "websocket.close", "code": 1008, "reason": "rate-limit"})
        return
    body = json.dumps({"detail": refused.detail, "rule": "rate-limit"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(refused.retry_after).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
