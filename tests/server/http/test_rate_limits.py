"""Limits on what one player or one address may ask: games, tables, record
files, hints, claims, sockets (an IPv6 address counted by its /64). Past one, the answer is a 429 JSON with Retry-After; the
limits are settings (``Limits``), and a clock the test turns shows them refill."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from spades.cli.app import app as cli
from spades.core import Game, game_to_record
from spades.server.http import rates
from spades.server.http.rates import Limits, Rates
from spades.server.tables.routes import SOCKETS_PER_SEAT_CLOSE

from ..conftest import QUICK


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def refused_at_once(app: FastAPI) -> None:
    """The refusals answered without their delay (one test below keeps it)."""
    app.state.refusal_delay = 0


@pytest.fixture
def clock(app: FastAPI) -> Clock:
    turned = Clock()
    app.state.rates = Rates(clock=turned)
    return turned


def new_game(client: TestClient) -> int:
    status: int = client.post("/api/games", json={"seed": 1, **QUICK}).status_code
    return status


def assert_rate_limited(response: Response) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["rule"] == "rate-limit"
    assert int(response.headers["Retry-After"]) >= 1


def test_one_player_making_games_in_a_flood_is_held_to_the_rate(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(games_per_owner=30)  # a burst of 5 (10 s worth), then one each 2 s
    assert [new_game(client) for _ in range(5)] == [201] * 5
    refused = client.post("/api/games", json={"seed": 1, **QUICK})
    assert_rate_limited(refused)
    assert int(refused.headers["Retry-After"]) == 2
    assert len(client.get("/api/games").json()["games"]) == 5, "the refused game was not made"
    clock.now += 2
    assert new_game(client) == 201
    assert new_game(client) == 429
    clock.now += 60  # a quiet minute fills the bucket to its burst, not to the minute's 30
    assert [new_game(client) for _ in range(6)] == [201] * 5 + [429]


def test_dropping_the_cookie_does_not_escape_the_addresss_limit(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(games_per_address=18)  # 3 at once
    answers = []
    for _ in range(4):
        client.cookies.clear()  # a new player each time, from the same address
        answers.append(new_game(client))
    assert answers == [201, 201, 201, 429]


def test_one_address_making_tables_is_held_to_the_rate(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(tables_per_address=12)  # 2 at once
    table = {"seats": {"N": "random", "E": "random", "S": "person", "W": "random"}}
    answers = [client.post("/api/tables", json=table).status_code for _ in range(3)]
    assert answers == [201, 201, 429]


def test_record_files_opened_are_held_to_the_rate(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(uploads_per_address=12)  # 2 at once
    text = json.dumps(game_to_record(Game(seed=1)))
    answers = [client.post("/api/replays", json={"text": text}).status_code for _ in range(3)]
    assert answers == [200, 200, 429]


def test_a_flood_of_any_request_is_refused_before_any_route(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(requests_per_address=60)  # 10 at once, then one a second
    answers = [client.get("/api/levels").status_code for _ in range(11)]
    assert answers == [200] * 10 + [429]
    refused = client.get("/api/levels")
    assert_rate_limited(refused)
    assert refused.headers["x-content-type-options"] == "nosniff"
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/api/tables/nope/ws"),
    ):
        pytest.fail("the handshake was accepted")
    assert closed.value.reason == "rate-limit"
    clock.now += 1
    app.state.limits = Limits(sockets_per_address=6)  # one handshake at once
    reasons = []
    for _ in range(2):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect("/api/tables/nope/ws"),
        ):
            pytest.fail("the handshake was accepted")
        reasons.append(closed.value.reason)
    assert reasons == ["No such table", "rate-limit"]
    assert client.get("/api/levels").status_code == 200


class CountedCalls:
    """A service method wrapped to count the calls that reach it: the work a
    refused request must not start."""

    def __init__(self, method: Any) -> None:
        self.method = method
        self.calls = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return await self.method(*args, **kwargs)


def counted(app: FastAPI, name: str) -> CountedCalls:
    wrapped = CountedCalls(getattr(app.state.service, name))
    setattr(app.state.service, name, wrapped)
    return wrapped


def started(client: TestClient, seed: int = 1) -> str:
    answer = client.post("/api/games", json={"seed": seed, **QUICK})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["game"]["id"]
    return game_id


def test_one_player_asking_hints_in_a_flood_is_held_to_the_rate(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(hints_per_owner=12)  # 2 at once, then one each 5 s
    hints = counted(app, "hint")
    game_id = started(client)
    answers = [client.get(f"/api/games/{game_id}/hint") for _ in range(3)]
    assert [answer.status_code for answer in answers] == [200, 200, 429]
    assert_rate_limited(answers[2])
    assert answers[2].json()["detail"].startswith("Too many hints for you: at most 12 a minute")
    assert int(answers[2].headers["Retry-After"]) == 5
    assert hints.calls == 2, "the refused hint ran no search"
    clock.now += 5
    assert client.get(f"/api/games/{game_id}/hint").status_code == 200


def test_hints_from_one_address_are_held_to_the_rate_whoever_asks(
    app: FastAPI, client: TestClient, other_client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(hints_per_address=12)  # 2 at once
    hints = counted(app, "hint")
    mine, theirs = started(client), started(other_client, seed=2)
    answers = [
        client.get(f"/api/games/{mine}/hint").status_code,
        other_client.get(f"/api/games/{theirs}/hint").status_code,
    ]
    refused = other_client.get(f"/api/games/{theirs}/hint")
    assert answers == [200, 200]
    assert_rate_limited(refused)
    assert refused.json()["detail"].startswith("Too many hints for your address")
    assert hints.calls == 2


def test_one_player_claiming_in_a_flood_is_held_to_the_rate(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(claims_per_owner=12)  # 2 at once
    claims = counted(app, "claim")
    game_id = started(client)
    # In the bidding a claim is refused by the rules (no trick is being played),
    # after the service is asked; past the limit it is refused before.
    answers = [client.post(f"/api/games/{game_id}/claim", json={"tricks": 13}) for _ in range(3)]
    assert [answer.status_code == 429 for answer in answers] == [False, False, True]
    assert_rate_limited(answers[2])
    assert answers[2].json()["detail"].startswith("Too many claims from you")
    assert claims.calls == 2, "the refused claim ran no solver"


def test_claims_from_one_address_are_held_to_the_rate_whoever_claims(
    app: FastAPI, client: TestClient, other_client: TestClient, clock: Clock
) -> None:
    app.state.limits = Limits(claims_per_address=6)  # one at once
    claims = counted(app, "claim")
    mine, theirs = started(client), started(other_client, seed=2)
    first = client.post(f"/api/games/{mine}/claim", json={"tricks": 13})
    refused = other_client.post(f"/api/games/{theirs}/claim", json={"tricks": 13})
    assert first.status_code != 429
    assert_rate_limited(refused)
    assert refused.json()["detail"].startswith("Too many claims from your address")
    assert claims.calls == 1


def test_an_ipv6_client_is_one_address_across_its_64(app: FastAPI, clock: Clock) -> None:
    """A provider gives a host a whole /64: a new address of it for each request
    does not escape the limits per address; another /64 is another client."""
    app.state.limits = Limits(games_per_address=12)  # 2 at once

    def new_game_from(host: str) -> int:
        with TestClient(app, client=(host, 50000)) as client:
            return new_game(client)

    same_64 = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2:a::b"]
    assert [new_game_from(host) for host in same_64] == [201, 201, 429]
    assert new_game_from("2001:db8:1:3::1") == 201  # the next /64: someone else
    # IPv4 clients are still one an address, and the same whether a dual-stack
    # socket writes them as IPv4-mapped IPv6 or not.
    assert [new_game_from(host) for host in ("203.0.113.7", "::ffff:203.0.113.7")] == [201, 201]
    assert new_game_from("203.0.113.7") == 429
    assert new_game_from("203.0.113.8") == 201


def test_limits_off_let_a_benchmark_flood(app: FastAPI, client: TestClient, clock: Clock) -> None:
    app.state.limits = Limits.off()
    assert {new_game(client) for _ in range(70)} == {201}  # past every default burst


TABLE = {"seats": {"N": "person", "E": "random", "S": "person", "W": "random"}}


def test_a_seat_keeps_a_few_sockets_and_a_new_one_resends_nothing_to_the_others(
    app: FastAPI, client: TestClient, other_client: TestClient
) -> None:
    app.state.limits = Limits(sockets_per_seat=2)
    table = client.post("/api/tables", json={**TABLE, "host_seat": "S", "name": "Ann"}).json()
    table_id = table["id"]
    joined = other_client.post(
        f"/api/tables/{table_id}/join",
        json={"seat": "N", "invite": table["invites"]["N"], "name": "Bo"},
    )
    assert joined.status_code == 200
    assert client.post(f"/api/tables/{table_id}/start").status_code == 200
    path = f"/api/tables/{table_id}/ws"
    with client.websocket_connect(path) as ann:
        assert ann.receive_json()["type"] == "update"
        with other_client.websocket_connect(path) as first:
            first.receive_json()
            assert ann.receive_json()["type"] == "update"  # Bo is here: Ann is told once
            with other_client.websocket_connect(path) as second:
                second.receive_json()
                with other_client.websocket_connect(path) as third:
                    third.receive_json()
                    with pytest.raises(WebSocketDisconnect) as closed:
                        first.receive_json()
                    assert closed.value.code == SOCKETS_PER_SEAT_CLOSE  # the oldest went
                    # Ann's next message is her own reaction: Bo's other tabs sent her nothing.
                    assert (
                        client.post(
                            f"/api/tables/{table_id}/react", json={"reaction": "wow"}
                        ).status_code
                        == 204
                    )
                    assert ann.receive_json()["type"] == "reaction"


def test_limits_are_written_as_settings() -> None:
    assert Limits.parse("") == Limits()
    assert Limits.parse("off") == Limits.off()
    assert Limits.parse("games_per_owner=7,sockets-per-seat=off") == Limits(
        games_per_owner=7, sockets_per_seat=None
    )
    for bad in ("games=5", "games_per_owner=0", "games_per_owner=many"):
        with pytest.raises(ValueError, match="limit"):
            Limits.parse(bad)
    result = CliRunner().invoke(cli, ["serve", "--limits", "games=5"])
    assert result.exit_code == 2 and "not a limit" in result.output


def test_a_request_past_an_address_limit_is_refused_after_the_delay(
    app: FastAPI, client: TestClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flooding client that asks again as soon as it is answered is held to
    one request a delay per connection; a refusal of the route (per player) is
    not held, nor is a request within the limits."""
    waits: list[float] = []

    async def noted_sleep(seconds: float) -> None:
        waits.append(seconds)

    monkeypatch.setattr(rates, "hold_refusal", noted_sleep)
    app.state.refusal_delay = 0.5
    app.state.limits = Limits(games_per_address=6, games_per_owner=6)  # bursts of 1
    assert new_game(client) == 201
    assert waits == []
    assert_rate_limited(client.post("/api/games", json={"seed": 1, **QUICK}))
    assert waits == [0.5]
    clock.now += 10
    app.state.limits = Limits(games_per_owner=6)  # the route's limit alone
    assert new_game(client) == 201
    assert new_game(client) == 429
    assert waits == [0.5], "a refusal of the route is answered at once"
