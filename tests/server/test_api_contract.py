"""The API's contract: what the OpenAPI schema says is what the server does.

The default bot level it documents is this server's, the bid range and the card
notation are in the schema, every refusal a route may answer is listed (the
limits' 429, the store's 503), a wrong method is answered with ``Allow``, and a
browser with no game yet is told so without an error.
"""

from __future__ import annotations

import re
import string
from typing import Final

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import create_engine

from spades.bots import BOT_LEVELS, strongest_level
from spades.core import parse_card
from spades.core.cards import CARD_NAMES
from spades.server.app import create_app
from spades.server.deps import COOKIE
from spades.server.play.schemas import CARD_PATTERN

from .conftest import start_game


def request_schema(client: TestClient, model: str) -> dict[str, dict[str, object]]:
    properties: dict[str, dict[str, object]] = client.get("/openapi.json").json()["components"][
        "schemas"
    ][model]["properties"]
    return properties


@pytest.mark.parametrize("level", [None, "normal", "easy"])
def test_the_schema_names_the_default_level_this_server_really_seats(
    db_url: str, level: str | None
) -> None:
    app = create_app(db_url, default_level=level)
    expected = level or strongest_level()
    try:
        with TestClient(app) as client:
            fields = request_schema(client, "NewGameRequest")
            for name in ("partner", "opponents"):
                description = str(fields[name]["description"])
                assert f"Default on this server: {expected}." in description, description
                assert "strongest" not in description or expected == strongest_level()
            for name in ("partner", "opponents", "west", "east"):
                choices = fields[name]["anyOf"][0]  # type: ignore[index]
                assert choices["enum"] == list(BOT_LEVELS)  # type: ignore[index]
            levels = client.get("/api/levels").json()
            assert levels["default"] == expected
            # What the schema promises is what a game without settings gets.
            settings = client.post("/api/games", json={"seed": 1}).json()["game"]["settings"]
            assert settings == {
                "partner": expected,
                "opponents": expected,
                "west": expected,
                "east": expected,
                "undo": True,
            }
    finally:
        app.state.repository.close()


def test_the_schema_gives_the_bid_range(client: TestClient) -> None:
    bid = request_schema(client, "BidRequest")["bid"]
    number, nil = bid["oneOf"]  # type: ignore[misc]
    assert number == {"type": "integer", "minimum": 1, "maximum": 13}
    assert nil["type"] == "string" and re.fullmatch(nil["pattern"], "Nil")
    assert "1 to 13" in str(bid["description"])


CARD_PATTERN_ALPHABET = string.ascii_letters + string.digits + " \t"


def test_the_schema_gives_the_card_notation(client: TestClient) -> None:
    card = request_schema(client, "PlayRequest")["card"]
    assert "then suit (S, H, D, C)" in str(card["description"])
    assert card["pattern"] == CARD_PATTERN
    for name in CARD_NAMES:
        for spelling in (name, name.lower(), name.replace("T", "10"), f" {name} "):
            assert re.fullmatch(CARD_PATTERN, spelling), spelling
    for wrong in ("1S", "ZZ", "AX", "10", "AS AH", ""):
        assert not re.fullmatch(CARD_PATTERN, wrong), wrong


@given(st.text(alphabet=CARD_PATTERN_ALPHABET, max_size=6))
def test_the_card_pattern_accepts_exactly_what_the_server_reads(text: str) -> None:
    try:
        parse_card(text)
        readable = True
    except ValueError:
        readable = False
    assert bool(re.fullmatch(CARD_PATTERN, text)) == readable


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/api/games", "GET, POST"),
        ("PUT", "/api/games/abc/bid", "POST"),
        ("GET", "/api/games/abc/play", "POST"),
        ("POST", "/api/levels", "GET"),
        ("DELETE", "/api/games/abc", "GET"),
    ],
)
def test_a_wrong_method_is_told_which_are_allowed(
    client: TestClient, method: str, path: str, allowed: str
) -> None:
    response = client.request(method, path)
    assert response.status_code == 405
    assert response.headers["allow"] == allowed
    body = response.json()
    assert body["rule"] == "method"
    assert allowed in body["detail"]


def test_no_game_yet_is_204_not_an_error(app: FastAPI, client: TestClient) -> None:
    response = client.get("/api/games/latest")  # no cookie at all
    assert response.status_code == 204
    assert response.content == b""
    with TestClient(app, cookies={COOKIE: "a-browser-with-no-game"}) as stranger:
        assert stranger.get("/api/games/latest").status_code == 204
    game = start_game(client)["game"]
    assert client.get("/api/games/latest").json()["game"]["id"] == game["id"]


def test_a_wrong_method_on_a_static_file_is_told_get_and_head(client: TestClient) -> None:
    response = client.post("/static/app.js")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"


STORE_FREE: Final = {
    ("get", "/api/levels"): {},
    ("get", "/api/rules"): {},
    ("get", "/api/rules/check"): {"params": {"rules": "cardcouch"}},
    ("post", "/api/replays"): {"json": {"text": "not a record"}},
}
"""The routes that never read or write the store, with a request each."""


def test_the_schema_lists_the_refusals_any_route_may_answer(client: TestClient) -> None:
    """429 (the limits, checked before any route) on every operation; 403, 413
    and 415 (another page, too large a body, a form) on every one that changes
    something; 503 (a store fault) on every one that reads or writes the store.
    Each refusal is an ErrorResponse, 429 and 503 with Retry-After."""
    spec = client.get("/openapi.json").json()
    operations = [
        (method, path, operation)
        for path, methods in spec["paths"].items()
        for method, operation in methods.items()
    ]
    assert len(operations) > 30
    error = {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}
    for method, path, operation in operations:
        responses = operation["responses"]
        expected = {"429"} | ({"403", "413", "415"} if method not in ("get", "head") else set())
        if (method, path) not in STORE_FREE:
            expected.add("503")
        assert expected <= set(responses), (method, path, sorted(responses))
        assert "503" not in responses or (method, path) not in STORE_FREE
        for status in expected:
            assert responses[status]["content"]["application/json"] == error, (method, path)
        for status in {"429", "503"} & expected:
            assert "Retry-After" in responses[status]["headers"], (method, path, status)


def test_the_routes_listed_without_a_store_fault_answer_with_the_store_gone(
    app: FastAPI, client: TestClient
) -> None:
    game = start_game(client)["game"]
    repository = app.state.repository
    working = repository.engine
    repository.engine = create_engine("postgresql+psycopg://spades@127.0.0.1:9/gone")
    try:
        for (method, path), request in STORE_FREE.items():
            answered = client.request(method.upper(), path, **request)
            assert answered.status_code < 500, (method, path, answered.text)
        repository.played = type(repository.played)()  # nothing kept: a load asks the store
        assert client.get(f"/api/games/{game['id']}").status_code == 503  # it is gone indeed
    finally:
        repository.engine.dispose()
        repository.engine = working
