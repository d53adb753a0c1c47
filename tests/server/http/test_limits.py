"""Size limits: a large body is refused with 413 before it is parsed, and no
refusal repeats more than a short prefix of the bad input."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import game_to_record
from spades.server.http.limits import MAX_BODY_BYTES

from ..conftest import start_game, stored_game

SHORT_REPLY = 400
"""Bytes: a refusal is a sentence, whatever it refuses."""


def assert_too_large(response: Any) -> None:
    assert response.status_code == 413, response.text
    body = response.json()
    assert body["rule"] == "too-large"
    assert "64 KiB" in body["detail"]


def test_a_body_over_the_cap_is_refused_unread(client: TestClient) -> None:
    huge = b'{"partner": "' + b"x" * (10 * 1024 * 1024) + b'"}'  # 10 MB
    response = client.post("/api/games", content=huge, headers={"content-type": "application/json"})
    assert_too_large(response)
    assert client.get("/api/games").json() == {"games": []}, "nothing was started"


def test_a_streamed_body_is_cut_off_at_the_cap(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the body comes in pieces
        yield b'{"partner": "'
        for _ in range(MAX_BODY_BYTES // 1024 + 1):
            yield b"x" * 1024
        yield b'"}'

    response = client.post(
        "/api/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert_too_large(response)


def test_a_body_at_the_cap_is_read(client: TestClient) -> None:
    padding = " " * (MAX_BODY_BYTES - len('{"seed": 5}'))
    response = client.post(
        "/api/games",
        content=f'{{"seed": 5}}{padding}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 201


def refusals(game_id: str) -> list[tuple[str, str, Any]]:
    long = "x" * 60_000  # under the cap, so the request is parsed and refused on its merits
    return [
        ("POST", "/api/games", {"partner": long}),
        ("POST", "/api/games", {"opponents": long}),
        ("POST", "/api/games", {long: 1}),
        ("POST", "/api/games", {"seed": long}),
        ("POST", f"/api/games/{game_id}/bid", {"bid": long}),
        ("POST", f"/api/games/{game_id}/bid", {"bid": 10**4000}),
        ("POST", f"/api/games/{game_id}/bid", {"bid": [long]}),
        ("POST", f"/api/games/{game_id}/play", {"card": long}),
        ("POST", f"/api/games/{game_id}/play", {"card": 10**4000}),
        ("POST", f"/api/games/{game_id}/play", {"card": 3, long: long}),
        ("GET", f"/api/games/{long[:4000]}", None),
    ]


@pytest.mark.parametrize("case", range(len(refusals(""))))
def test_a_refusal_quotes_at_most_a_short_prefix(
    app: FastAPI, client: TestClient, case: int
) -> None:
    game_id = start_game(client)["game"]["id"]
    before = game_to_record(stored_game(app, client, game_id))
    method, path, body = refusals(game_id)[case]
    response = client.request(method, path, json=body)
    assert 400 <= response.status_code < 500, response.text[:SHORT_REPLY]
    assert len(response.content) <= SHORT_REPLY, response.text[:SHORT_REPLY]
    assert set(response.json()) == {"detail", "rule"}
    assert game_to_record(stored_game(app, client, game_id)) == before


def test_a_long_unknown_level_is_named_by_its_start(client: TestClient) -> None:
    from spades.server.play.games import BadSettings, check_level

    with pytest.raises(BadSettings) as refused:
        check_level("grandmaster" * 1000, "your partner")
    message = str(refused.value)
    assert "'grandmastergrandmastergr…' (11000 characters)" in message
    assert len(message) < 200
