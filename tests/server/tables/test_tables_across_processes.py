"""Tables with friends across server processes: a move made through one
process reaches the sockets another holds, with its events (not a resync), and
so do reactions and who is connected. Two real `spades serve` processes over
one database (PostgreSQL, which LISTEN/NOTIFY wakes; SQLite, which the
listener reads on a short timer), and the two workers of one `spades serve
--workers 2` on PostgreSQL; real HTTP and WebSockets on the loopback.

No sleeps: each check waits on the socket's own frames, for at most
``FRAME_PATIENCE`` seconds. And a process gone silent (killed) stops holding
its seats' presence, on an injected clock."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from spades.core.seats import NORTH, SOUTH
from spades.server.tables.live import ORIGIN_SILENCE, LiveTables
from spades.server.tables.routes import COOKIE

from ..serving import serving, workers_of

FRAME_PATIENCE: Final = 30.0
"""Seconds a socket may take to show a change: far beyond the milliseconds it
takes, for a machine busy with other work."""
STOPPED_SECONDS: Final = 2.0
"""How long the test keeps a worker stopped while the other accepts a
connection: well inside the 5 s in which uvicorn's supervisor expects every
worker to answer its health check (past that it kills the worker)."""
ACCEPT_ATTEMPTS: Final = 10
"""Connections tried, each with Ann's worker stopped for ``STOPPED_SECONDS``,
before the test gives up on the other worker accepting one."""


@contextmanager
def table_socket(
    url: str, table: str, token: str, connection: socket.socket | None = None
) -> Iterator[ClientConnection]:
    """The table's socket for the person whose secret is ``token``, over
    ``connection`` if given (a TCP connection to the server already made)."""
    ws_url = url.replace("http", "ws", 1) + f"/api/tables/{table}/ws"
    headers = {"Cookie": f"{COOKIE}={token}"}
    with connect(ws_url, sock=connection, additional_headers=headers) as opened:
        yield opened


def frame_where(
    socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The first frame ``wanted`` accepts; fails if none comes in time."""
    return frames_until(socket, wanted)[-1]


def frames_until(
    socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    """The frames the socket is sent up to and with the first that ``wanted``
    accepts; fails if none comes in time."""
    frames: list[dict[str, Any]] = []
    deadline = time.monotonic() + FRAME_PATIENCE
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the socket was not sent the change"
        try:
            message: dict[str, Any] = json.loads(socket.recv(timeout=left))
        except TimeoutError:
            raise AssertionError("the socket was not sent the change in time") from None
        frames.append(message)
        if wanted(message):
            return frames


def shows_the_deal(frame: dict[str, Any]) -> bool:
    """Whether an update brings the first deal: as its event, or drawn anew
    (a resync: the game as it stands, South's thirteen cards)."""
    if frame.get("type") != "update" or frame["game"] is None:
        return False
    if frame["resync"]:
        return frame["game"]["hand_number"] == 1 and len(frame["game"]["hand"]) == 13
    return any(event["type"] == "hand_dealt" for event in frame["events"])


def update_at(log: int) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("type") == "update" and m["game"] is not None and m["log"] >= log


def move_of(game: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if game["phase"] == "bidding":
        return "bid", {"bid": game["legal_bids"][min(2, len(game["legal_bids"]) - 1)]}
    return "play", {"card": game["legal_cards"][0]}


def set_table(first: str, second: str) -> tuple[str, dict[str, tuple[httpx.Client, str]]]:
    """A table whose host, Ann (North), is served by ``first`` and whose friend,
    Bo (South), by ``second``; bots sit East and West. Its id, and each
    person's client and secret."""
    host = httpx.Client(base_url=first, timeout=60)
    seats = {"N": "person", "E": "random", "S": "person", "W": "random"}
    table = host.post("/api/tables", json={"seats": seats, "host_seat": "N", "name": "Ann"})
    assert table.status_code == 201, table.text
    table_id, invite = table.json()["id"], table.json()["invites"]["S"]
    friend = httpx.Client(base_url=second, timeout=60)
    joined = friend.post(
        f"/api/tables/{table_id}/join", json={"seat": "S", "invite": invite, "name": "Bo"}
    )
    assert joined.status_code == 200, joined.text
    return table_id, {"N": (host, host.cookies[COOKIE]), "S": (friend, friend.cookies[COOKIE])}


def play_across(
    table_id: str,
    people: dict[str, tuple[httpx.Client, str]],
    ann: ClientConnection,
    bo: ClientConnection,
) -> None:
    """Ann's socket and Bo's are held by different processes: the deal, each
    person's moves (two each, through their own client), who is connected and
    a reaction all reach the other's socket."""
    host, friend = people["N"][0], people["S"][0]
    frame_where(ann, lambda m: m.get("type") == "update")  # subscribed
    frame_where(bo, lambda m: m.get("type") == "update")
    # Each process hears the other's socket: Ann is shown Bo connected.
    frame_where(
        ann,
        lambda m: (
            m.get("type") == "update"
            and any(s["seat"] == "S" and s["connected"] for s in m["table"]["seats"])
        ),
    )

    started = host.post(f"/api/tables/{table_id}/start")
    assert started.status_code == 200, started.text
    # The deal, from afar: by the time Bo's socket is at the start's log count, it
    # has been shown the deal. In which frame is the two processes' timing: the
    # deal and the bots' first bids may come in one update or several (an earlier
    # one then holds the deal), or, if the other process had not kept the events
    # before Bo's, as the game drawn anew (a resync). Every move after the deal
    # must reach the other with its own events (below).
    since_the_deal = frames_until(bo, update_at(started.json()["log"]))
    assert any(shows_the_deal(frame) for frame in since_the_deal), since_the_deal
    dealt = since_the_deal[-1]

    views = {"N": frame_where(ann, update_at(started.json()["log"]))["game"]}
    views["S"] = dealt["game"]
    moves = {"N": 0, "S": 0}
    while min(moves.values()) < 2:
        seat = next(seat for seat in ("N", "S") if views[seat]["your_turn"])
        path, body = move_of(views[seat])
        answer = people[seat][0].post(f"/api/tables/{table_id}/{path}", json=body)
        assert answer.status_code == 200, answer.text
        log = answer.json()["log"]
        heard = {"N": frame_where(ann, update_at(log)), "S": frame_where(bo, update_at(log))}
        other = heard["S" if seat == "N" else "N"]
        assert other["resync"] is False, other
        kind = "bid_made" if path == "bid" else "card_played"
        assert any(event["type"] == kind for event in other["events"]), other
        views = {name: update["game"] for name, update in heard.items()}
        moves[seat] += 1

    reacted = friend.post(f"/api/tables/{table_id}/react", json={"reaction": "nice"})
    assert reacted.status_code == 204
    reaction = frame_where(ann, lambda m: m.get("type") == "reaction")
    assert reaction["seat"] == "S" and reaction["reaction"] == "nice"


@pytest.mark.slow
@pytest.mark.both_databases  # (see tests/conftest.py)
def test_a_move_through_one_process_reaches_the_sockets_of_another(db_url: str) -> None:
    with serving(db_url) as (first, _), serving(db_url) as (second, _):
        table_id, people = set_table(first, second)
        # Ann's socket is held by the first server, Bo's by the second.
        with (
            table_socket(first, table_id, people["N"][1]) as ann,
            table_socket(second, table_id, people["S"][1]) as bo,
        ):
            play_across(table_id, people, ann, bo)


@pytest.mark.slow
def test_the_workers_of_one_server_push_to_each_others_sockets(postgres_url: str) -> None:
    """``spades serve --workers 2``: Bo's socket is held by the worker that does
    not hold Ann's (the test makes it so, below), then the two play on."""
    with serving(postgres_url, "--workers", "2") as (url, server):
        workers = workers_of(server, 2)
        table_id, people = set_table(url, url)
        with table_socket(url, table_id, people["N"][1]) as ann:
            anns = holder(ann.local_address[1], ann.remote_address[1], workers)
            assert anns is not None, "no worker holds Ann's socket"
            other = next(pid for pid in workers if pid != anns)
            connection = connection_accepted_by(other, stopping=anns, url=url, workers=workers)
            with table_socket(url, table_id, people["S"][1], connection) as bo:
                assert holder(bo.local_address[1], bo.remote_address[1], workers) == other
                play_across(table_id, people, ann, bo)


def connection_accepted_by(
    worker: int, *, stopping: int, url: str, workers: list[int]
) -> socket.socket:
    """A TCP connection to the server that ``worker`` accepted. Which worker
    accepts a connection is the kernel's choice, and it may hand ten in a row to
    the same one: the test stops the other (SIGSTOP) until ``worker`` has taken
    it, so no other could."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    for _attempt in range(ACCEPT_ATTEMPTS):
        os.kill(stopping, signal.SIGSTOP)
        try:
            connection = socket.create_connection((host, int(port)), timeout=FRAME_PATIENCE)
            deadline = time.monotonic() + STOPPED_SECONDS
            while time.monotonic() < deadline:
                if holder(connection.getsockname()[1], int(port), workers) == worker:
                    return connection
                time.sleep(0.01)
        finally:
            os.kill(stopping, signal.SIGCONT)
            # Before it is stopped again, it must have run: uvicorn's supervisor
            # kills a worker that leaves a health check unanswered for 5 s, and
            # stops back to back would add up to that (the worker then gone, the
            # next signal to it failed with ProcessLookupError).
            wait_until_every_thread_sleeps(stopping)
        connection.close()  # not taken in time: the stopped worker may take it now
    raise AssertionError(f"worker {worker} accepted none of {ACCEPT_ATTEMPTS} connections")


def wait_until_every_thread_sleeps(pid: int) -> None:
    """Until no thread of process ``pid`` is stopped or waiting to run: each has
    done what it had to (a health check sent while the process was stopped is
    answered) and waits for more. At most ``FRAME_PATIENCE`` seconds."""
    deadline = time.monotonic() + FRAME_PATIENCE
    while True:
        states = [
            # The state follows the command name, which is in parentheses and may hold spaces.
            (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
            for task in Path(f"/proc/{pid}/task").iterdir()
        ]
        if all(state in "SDI" for state in states):  # asleep (waiting on something)
            return
        assert time.monotonic() < deadline, f"worker {pid} did not settle: {states}"
        time.sleep(0.01)


def holder(client_port: int, server_port: int, workers: list[int]) -> int | None:
    """The worker process that holds the server's end of the loopback connection
    between these ports: None while no worker has accepted it."""
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(address.split(":")[1], 16) for address in fields[1:3])
        if local == server_port and remote == client_port:
            inode = fields[9]
    if inode is None or inode == "0":  # queued, not accepted yet: no process holds it
        return None
    for pid in workers:
        for descriptor in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if os.readlink(descriptor) == f"socket:[{inode}]":
                    return pid
    return None


def test_the_sockets_of_a_process_gone_silent_stop_counting_as_connected() -> None:
    """A process killed without closing its sockets says nothing more: once it
    has not said it is alive for ``ORIGIN_SILENCE`` seconds, its seats are
    away (and the stand-in may play for them), until it speaks again."""
    now = [0.0]
    live = LiveTables(clock=lambda: now[0])
    live.alive_elsewhere("other")
    live.connected_elsewhere("table", "other", {NORTH})
    assert live.connected("table", NORTH) and not live.connected("table", SOUTH)
    now[0] += ORIGIN_SILENCE - 1
    assert live.connected("table", NORTH)
    now[0] += 2
    assert not live.connected("table", NORTH)
    live.alive_elsewhere("other")
    assert live.connected("table", NORTH)
    live.connected_elsewhere("table", "other", set())  # the socket closed there
    assert not live.connected("table", NORTH)
    assert live.away_left("table", NORTH, 30) == 30  # the wait starts when it closed
