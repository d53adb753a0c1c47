"""Many server processes over PostgreSQL: two servers acting on one game at once
never lose or repeat a move, and a worker killed with kill -9 in the middle of
requests loses nothing the server acknowledged.

Real `spades serve` processes, real HTTP on the loopback address."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from typer.testing import CliRunner

from spades.cli.app import app as cli
from spades.core import Game
from spades.core.cards import CARD_NAMES
from spades.core.game import BidMade, CardPlayed
from spades.core.seats import SOUTH
from spades.server.deps import COOKIE
from spades.server.http.held_requests import HOLD_HEADER, HOLDS_VARIABLE
from spades.storage import GameRepository, owner_key

from ..output import said
from .serving import PATIENCE, serving, workers_of

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="process groups and kill -9 are POSIX"),
    pytest.mark.slow,  # server processes started and killed: tens of seconds
]

SPADES = str(Path(sys.executable).with_name("spades"))


def move_of(game: dict[str, Any], choice: int = 0) -> tuple[str, dict[str, Any]]:
    """South's ``choice``-th legal bid or card: the path and body to send."""
    if game["phase"] == "bidding":
        bids = game["legal_bids"]
        return "bid", {"bid": bids[min(2 + choice, len(bids) - 1)]}
    cards = game["legal_cards"]
    return "play", {"card": cards[choice % len(cards)]}


def south_actions(db_url: str, cookie: str, game_id: str) -> list[tuple[str, Any]]:
    """South's bids and cards in the stored game, in order: what the database kept."""
    repository = GameRepository(db_url)
    try:
        stored = repository.load(owner_key(cookie), game_id)
    finally:
        repository.close()
    assert stored is not None
    return actions_in(stored.game)


def actions_in(game: Game) -> list[tuple[str, Any]]:
    actions: list[tuple[str, Any]] = []
    for event in game.log:
        if isinstance(event, BidMade) and event.seat == SOUTH:
            actions.append(("bid", event.bid))
        elif isinstance(event, CardPlayed) and event.seat == SOUTH:
            actions.append(("play", CARD_NAMES[event.card]))
    return actions


def as_action(path: str, body: dict[str, Any]) -> tuple[str, Any]:
    if path == "bid":
        return ("bid", 0 if body["bid"] == "nil" else body["bid"])
    return ("play", body["card"])


FORCED_RACE_EVERY: Final = 3
"""Every third round the test makes the race happen (below); the others race freely."""


def test_two_servers_racing_on_one_game_never_lose_or_repeat_a_move(
    postgres_url: str, tmp_path: Path
) -> None:
    # The servers hold the requests the test names (server/http/held_requests.py),
    # so the test can make one save the game while the other holds a copy it loaded.
    holds = tmp_path / "holds"
    holds.mkdir()
    environment = {HOLDS_VARIABLE: str(holds)}
    with (
        serving(postgres_url, environment=environment) as (first, _),
        serving(postgres_url, environment=environment) as (second, _),
    ):
        one = httpx.Client(base_url=first, timeout=60)
        game = one.post("/api/games", json={"seed": 5}).json()["game"]
        cookie = one.cookies[COOKIE]
        two = httpx.Client(base_url=second, timeout=60, cookies={COOKIE: cookie})
        accepted: list[tuple[int, tuple[str, Any]]] = []
        forced = 0
        for round_number in range(24):
            game = one.get(f"/api/games/{game['id']}").json()["game"]
            if game["phase"] == "over":
                break
            # Even rounds: both send the same move; odd rounds: two different ones.
            moves = [move_of(game, 0), move_of(game, round_number % 2)]
            if round_number % FORCED_RACE_EVERY == FORCED_RACE_EVERY - 1:
                answers = _race_made_to_happen(
                    one, two, holds, game["id"], moves, f"race-{round_number}"
                )
                forced += 1  # the first server's save was refused as stale: it checks
            else:
                answers = _race_left_to_chance(one, two, game["id"], moves)
            for (path, body), answer in zip(moves, answers, strict=True):
                if answer.status_code == 200:
                    accepted.append((answer.json()["game"]["version"], as_action(path, body)))
                else:
                    assert answer.status_code in (409, 422), answer.text
            if moves[0] == moves[1]:
                assert sum(answer.status_code == 200 for answer in answers) == 1
        one.close()
        two.close()
    assert forced >= 3, "too few rounds were played to race"
    # Every accepted move is in the game once, in the order of the versions the
    # servers answered with, and nothing else of South's is there.
    assert south_actions(postgres_url, cookie, game["id"]) == [
        action for _, action in sorted(accepted)
    ]


def _race_left_to_chance(
    one: httpx.Client, two: httpx.Client, game_id: str, moves: list[tuple[str, dict[str, Any]]]
) -> list[httpx.Response]:
    """Both moves sent at once, one to each server: whichever saves first wins."""
    start = threading.Barrier(2)
    answers: list[httpx.Response | None] = [None, None]

    def send(side: int, client: httpx.Client) -> None:
        path, body = moves[side]
        start.wait()  # both requests leave together
        answers[side] = client.post(f"/api/games/{game_id}/{path}", json=body)

    threads = [
        threading.Thread(target=send, args=(side, client)) for side, client in enumerate((one, two))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers[0] is not None and answers[1] is not None
    return [answers[0], answers[1]]


def _race_made_to_happen(
    one: httpx.Client,
    two: httpx.Client,
    holds: Path,
    game_id: str,
    moves: list[tuple[str, dict[str, Any]]],
    name: str,
) -> list[httpx.Response]:
    """The first server loads the game and is held there; the second saves its
    move meanwhile; then the first goes on, from a copy now stale: its save must
    be refused (409 ``stale``), the second's move kept alone."""
    held_answer: list[httpx.Response] = []
    path, body = moves[0]
    sending = threading.Thread(
        target=lambda: held_answer.append(
            one.post(
                f"/api/games/{game_id}/{path}",
                json=body,
                headers={HOLD_HEADER.decode(): f"loaded:{name}"},
            )
        )
    )
    sending.start()
    deadline = time.monotonic() + PATIENCE
    while not (holds / f"{name}.held").exists():  # written once its game is loaded
        assert sending.is_alive(), f"the request was not held: {held_answer}"
        assert time.monotonic() < deadline, "the first server did not hold the request"
        time.sleep(0.01)
    path, body = moves[1]
    saved_first = two.post(f"/api/games/{game_id}/{path}", json=body)
    assert saved_first.status_code == 200, saved_first.text
    (holds / f"{name}.go").touch()
    sending.join(timeout=PATIENCE)
    assert not sending.is_alive() and len(held_answer) == 1
    refused = held_answer[0]
    assert refused.status_code == 409 and refused.json()["rule"] == "stale", refused.text
    return [refused, saved_first]


KILLS: Final = ("after", "before")
"""Where each killed request is held: after its move is stored (kept, though its
answer is lost), or before the app sees it (not kept). Each kill is certain to
land mid-request, so one of each proves what four left to chance did not."""


def test_workers_killed_with_kill_9_mid_request_lose_nothing_acknowledged(
    postgres_url: str, tmp_path: Path
) -> None:
    # The server holds the requests the test names (server/held_requests.py), so each
    # kill lands while a move is in flight, at the point the test chose.
    holds = tmp_path / "holds"
    holds.mkdir()
    with serving(postgres_url, "--workers", "2", environment={HOLDS_VARIABLE: str(holds)}) as (
        url,
        server,
    ):
        assert len(workers_of(server, 2)) == 2
        client = httpx.Client(base_url=url, timeout=60)
        game = client.post("/api/games", json={"seed": 17}).json()["game"]
        cookie = client.cookies[COOKIE]
        acknowledged: list[tuple[str, Any]] = []
        lost_answers = 0
        current = last = game
        for number, when in enumerate(KILLS):
            for _ in range(3):  # moves answered as usual
                current = last = _answered_move(client, current, acknowledged)
            # Both workers killed while one of them holds a move.
            _kill_workers_holding_a_move(client, server, holds, current, f"{when}:{number}")
            lost_answers += 1
            current = _reload(client, game["id"])  # the move may have been kept
        current = last = _answered_move(client, current, acknowledged)
        assert lost_answers > 0, "no request was cut off: the test proved nothing"
        # uvicorn started new workers, which serve the game as last acknowledged.
        assert _reload(client, game["id"]) == last
        client.close()
    kept = iter(south_actions(postgres_url, cookie, game["id"]))
    # Every acknowledged move is kept, in order; at most the moves whose answer
    # was cut off come between them.
    skipped = 0
    for action in acknowledged:
        for stored in kept:
            if stored == action:
                break
            skipped += 1
        else:
            raise AssertionError(f"an acknowledged move was lost: {action}")
    assert skipped <= lost_answers and next(kept, None) is None
    # Exactly the moves held after they were stored are kept among those cut off.
    assert skipped == KILLS.count("after")


def _answered_move(
    client: httpx.Client, game: dict[str, Any], acknowledged: list[tuple[str, Any]]
) -> dict[str, Any]:
    """South's next move, answered; returns the game after it."""
    assert game["phase"] != "over"
    path, body = move_of(game)
    answer = client.post(f"/api/games/{game['id']}/{path}", json=body)
    assert answer.status_code == 200, answer.text
    acknowledged.append(as_action(path, body))
    after: dict[str, Any] = answer.json()["game"]
    return after


def _kill_workers_holding_a_move(
    client: httpx.Client,
    server: subprocess.Popen[bytes],
    holds: Path,
    game: dict[str, Any],
    hold: str,
) -> None:
    """Send South's next move held at ``hold`` (``when:name``), kill -9 every worker
    once one holds it, and check that its answer was cut off."""
    assert game["phase"] != "over"
    path, body = move_of(game)
    outcome: list[object] = []

    def send() -> None:
        try:
            outcome.append(
                client.post(
                    f"/api/games/{game['id']}/{path}",
                    json=body,
                    headers={HOLD_HEADER.decode(): hold},
                )
            )
        except httpx.TransportError as error:  # its worker was killed under it
            outcome.append(error)

    sending = threading.Thread(target=send)
    sending.start()
    held = holds / f"{hold.split(':')[1]}.held"
    deadline = time.monotonic() + PATIENCE
    while not held.exists():  # the worker writes it once it holds the request
        assert sending.is_alive(), f"the request was not held: {outcome}"
        assert time.monotonic() < deadline, "no worker held the request"
        time.sleep(0.01)
    workers = workers_of(server, 2)
    assert int(held.read_text()) in workers
    for pid in workers:
        os.kill(pid, signal.SIGKILL)
    sending.join(timeout=PATIENCE)
    assert not sending.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], httpx.TransportError), outcome


def _reload(client: httpx.Client, game_id: str) -> dict[str, Any]:
    """The game as stored, asking again while the workers restart."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            answer = client.get(f"/api/games/{game_id}")
            if answer.status_code == 200:
                game: dict[str, Any] = answer.json()["game"]
                return game
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "the server did not come back"
        time.sleep(0.2)


def test_several_processes_need_a_database_server(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'games.db'}"]
    )
    assert result.exit_code == 2
    assert "several server processes need a database server" in said(result.output)
