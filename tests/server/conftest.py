"""Fixtures for the web game: an app on a fresh database (``db_url``, from
``tests/conftest.py``: SQLite, or both databases where a module asks) and
clients for it; for the browser tests, one Chromium and one `spades serve` a
module (with the module's ``SERVE_OPTIONS``), and fresh browser contexts a test."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

# Starlette nudges TestClient users from httpx towards httpx2; httpx works and is what we pin.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from fastapi import FastAPI

from spades.core import Game
from spades.server.app import create_app
from spades.server.deps import COOKIE
from spades.server.http.rates import Limits
from spades.storage import owner_key

from .browsers import CHROMIUM, CHROMIUM_ARGS, Server


@pytest.fixture
def app(db_url: str) -> Iterator[FastAPI]:
    # The product seats the strongest level (expert, tenths of a second a move);
    # these tests play many bot moves, and test the page, not the bots.
    # Limits off: a test plays seed after seed from one client, past what a person
    # would; tests/server/test_rate_limits.py sets the limits it tests.
    # Bots inline: a hint's search runs here, not in a pool of bot processes
    # started for each test's app (test_where_work_runs.py tests the pool).
    application = create_app(db_url, default_level="normal", limits=Limits.off(), bots="inline")
    yield application
    application.state.repository.close()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def other_client(app: FastAPI) -> Iterator[TestClient]:
    """A second player (another browser) on the same server."""
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module's tests: launching it is seconds."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def browser(chromium: Any) -> Iterator[Any]:
    """The module's Chromium; every context (a person, with their own cookies) a
    test opens is closed after it, so the next test starts with none."""
    yield chromium
    for context in list(chromium.contexts):
        context.close()


@pytest.fixture(scope="module")
def module_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """`spades serve` for the module's tests, on a database of its own, with the
    module's ``SERVE_OPTIONS``: starting it is seconds, a test's cookies keep its
    games apart from the others'."""
    database = tmp_path_factory.mktemp("browser") / "browser.db"
    running = Server(f"sqlite:///{database}", *getattr(request.module, "SERVE_OPTIONS", ()))
    running.start()
    yield running
    running.close()


@pytest.fixture
def server(module_server: Server) -> Server:
    """The module's server, started again if a test before stopped it."""
    if not module_server.running:
        module_server.start()
    return module_server


def start_game(client: TestClient, seed: int = 7, **settings: Any) -> dict[str, Any]:
    """A new game for ``client``; returns the response body (game and events)."""
    response = client.post("/api/games", json={"seed": seed, **settings})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def stored_game(app: FastAPI, client: TestClient, game_id: str) -> Game:
    """The server's full game (every seat's cards): for checking, never for playing."""
    stored = app.state.repository.load(owner_key(client.cookies[COOKIE]), game_id)
    assert stored is not None
    game: Game = stored.game
    return game


def south_move(client: TestClient, game: dict[str, Any]) -> Any:
    """Send South's first legal bid or card; returns the response."""
    if game["phase"] == "bidding":
        return client.post(f"/api/games/{game['id']}/bid", json={"bid": game["legal_bids"][3]})
    return client.post(f"/api/games/{game['id']}/play", json={"card": game["legal_cards"][0]})


QUICK = {"partner": "random", "opponents": "random"}
"""Bots that answer at once, for tests about something else than the bots."""


def play_to_the_end(client: TestClient, body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every response body from the first deal to the end; South bids 6 (with a
    random partner the team is soon set below -200) and plays its first legal card."""
    bodies = [body]
    game = body["game"]
    for _ in range(400):
        if game["phase"] == "over":
            return bodies
        if game["phase"] == "bidding":
            response = client.post(f"/api/games/{game['id']}/bid", json={"bid": 6})
        else:
            card = game["legal_cards"][0]
            response = client.post(f"/api/games/{game['id']}/play", json={"card": card})
        assert response.status_code == 200, response.text
        bodies.append(response.json())
        game = bodies[-1]["game"]
    raise AssertionError("the game did not end")


def without_after(event: dict[str, Any]) -> dict[str, Any]:
    """An event as the engine names it, without the table after it (``after``)."""
    return {key: value for key, value in event.items() if key != "after"}
