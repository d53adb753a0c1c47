"""Another page in the player's browser cannot act for them: every request
that changes something and every socket handshake must come from this
server's own pages (or carry no browser's marks at all), and a body is JSON.

The attacks are the ones seen from a page on another port of the same host:
a WebSocket opened to a seat's table, and a form auto-submitted to ``/undo``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spades.server.app import create_app
from spades.server.http.guards import POLICY_VIOLATION

from ..conftest import QUICK, start_game, stored_game

EVIL = "http://evil.example"
SIBLING_PORT = "http://testserver:18732"
"""Another port of the same host: the same site, so SameSite=Lax lets the cookie go."""
TABLE = {"seats": {"N": "person", "E": "random", "S": "person", "W": "random"}}


def south_moves(app: FastAPI, client: TestClient, game_id: str) -> int:
    return len(stored_game(app, client, game_id).log)


def a_game_with_a_move(app: FastAPI, client: TestClient) -> str:
    game = start_game(client, seed=5, **QUICK)["game"]
    moved = client.post(f"/api/games/{game['id']}/bid", json={"bid": game["legal_bids"][3]})
    assert moved.status_code == 200
    return str(game["id"])


@pytest.mark.parametrize("origin", [EVIL, SIBLING_PORT, "null", "http://testserver.evil.example"])
def test_a_foreign_page_cannot_take_a_move_back(
    app: FastAPI, client: TestClient, origin: str
) -> None:
    game_id = a_game_with_a_move(app, client)
    before = south_moves(app, client, game_id)
    response = client.post(f"/api/games/{game_id}/undo", headers={"Origin": origin})
    assert response.status_code == 403, response.text
    assert response.json()["rule"] == "origin"
    assert south_moves(app, client, game_id) == before, "nothing was taken back"


def test_a_form_posted_without_an_origin_is_refused_even_where_no_body_is_read(
    app: FastAPI, client: TestClient
) -> None:
    game_id = a_game_with_a_move(app, client)
    before = south_moves(app, client, game_id)
    for content_type in ("application/x-www-form-urlencoded", "multipart/form-data", "text/plain"):
        response = client.post(
            f"/api/games/{game_id}/undo", content=b"x=1", headers={"Content-Type": content_type}
        )
        assert response.status_code == 415, response.text
        assert response.json()["rule"] == "content-type"
    assert south_moves(app, client, game_id) == before


def test_a_cross_site_or_same_site_fetch_is_refused_without_an_origin(
    app: FastAPI, client: TestClient
) -> None:
    game_id = a_game_with_a_move(app, client)
    for site in ("cross-site", "same-site"):
        response = client.post(f"/api/games/{game_id}/undo", headers={"Sec-Fetch-Site": site})
        assert response.status_code == 403 and response.json()["rule"] == "cross-site"


def test_the_servers_own_page_and_clients_without_a_browser_still_act(
    app: FastAPI, client: TestClient
) -> None:
    game_id = a_game_with_a_move(app, client)
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post(f"/api/games/{game_id}/undo", headers=own).status_code == 200
    assert client.post(f"/api/games/{game_id}/undo").status_code in (200, 422)  # curl, the tests
    assert client.get(f"/api/games/{game_id}", headers={"Origin": EVIL}).status_code == 200


@pytest.fixture
def trusting_app(db_url: str) -> Iterator[FastAPI]:
    application = create_app(db_url, default_level="normal", allowed_origins=[SIBLING_PORT])
    yield application
    application.state.repository.close()


def test_an_allowed_origin_may_act(trusting_app: FastAPI) -> None:
    with TestClient(trusting_app) as client:
        response = client.post(
            "/api/games", json={"seed": 5, **QUICK}, headers={"Origin": SIBLING_PORT}
        )
        assert response.status_code == 201, response.text
        refused = client.post("/api/games", json={"seed": 5}, headers={"Origin": EVIL})
        assert refused.status_code == 403


def test_a_foreign_page_cannot_open_a_seats_socket_and_read_its_cards(client: TestClient) -> None:
    created = client.post("/api/tables", json={**TABLE, "host_seat": "S", "name": "Ann"})
    assert created.status_code == 201
    table_id = created.json()["id"]
    assert client.post(f"/api/tables/{table_id}/start").status_code == 200
    for origin in (EVIL, SIBLING_PORT):
        with (
            pytest.raises(WebSocketDisconnect) as denied,
            client.websocket_connect(f"/api/tables/{table_id}/ws", headers={"Origin": origin}),
        ):
            pytest.fail("the handshake was accepted")
        # Closed before it was accepted: uvicorn answers the handshake 403.
        assert denied.value.code == POLICY_VIOLATION and denied.value.reason == "origin"
    with client.websocket_connect(
        f"/api/tables/{table_id}/ws", headers={"Origin": "http://testserver"}
    ) as socket:
        assert len(socket.receive_json()["game"]["hand"]) == 13  # the seat's own page: its cards
