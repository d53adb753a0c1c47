"""South's moves through the API, each checked to be answered, and the games
they lead to: a game in play, a late position to claim in."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import SOUTH, claim_terms
from spades.solver import Solver

from ..conftest import start_game, stored_game


def bid(client: TestClient, game: dict[str, Any], value: Any = 3) -> dict[str, Any]:
    response = client.post(f"/api/games/{game['id']}/bid", json={"bid": value})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play(client: TestClient, game: dict[str, Any], card: str | None = None) -> dict[str, Any]:
    card = card or game["legal_cards"][-1]
    response = client.post(f"/api/games/{game['id']}/play", json={"card": card})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def undo(client: TestClient, game: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game['id']}/undo")


def in_play(client: TestClient, seed: int = 7, cards: int = 4, **settings: Any) -> dict[str, Any]:
    """A game with South's bid made and ``cards`` cards of South's played."""
    game: dict[str, Any] = bid(client, start_game(client, seed=seed, **settings)["game"])["game"]
    for _ in range(cards):
        game = play(client, game)["game"]
    return game


def claim(client: TestClient, game: dict[str, Any], tricks: Any) -> Any:
    return client.post(f"/api/games/{game['id']}/claim", json={"tricks": tricks})


def best_for_south(app: FastAPI, client: TestClient, game: dict[str, Any]) -> tuple[int, int]:
    """The most tricks South's claim can hold (double dummy) and the tricks left."""
    state = stored_game(app, client, game["id"]).hand
    left = game["claim"]["tricks_left"]
    terms = claim_terms(state, SOUTH, left)
    return Solver().tricks(state, terms.counted), left


def late_position(
    app: FastAPI, client: TestClient, *, short_of_all: bool, seed: int = 3
) -> dict[str, Any]:
    """A game with a few tricks left where South's side takes all of them double
    dummy (``short_of_all`` false) or not all of them (true); no Nil for North-South."""
    for attempt in range(12):
        game: dict[str, Any] = bid(client, start_game(client, seed=seed + attempt)["game"], 3)[
            "game"
        ]
        if game["seats"][0]["bid"] == "nil":
            continue
        hand = game["hand_number"]
        while game["hand_number"] == hand and game["phase"] == "playing":
            if game["tricks_played"] >= 9:
                best, left = best_for_south(app, client, game)
                if (best < left) == short_of_all and best >= 1 and left >= 2:
                    return game
            game = play(client, game)["game"]
    raise AssertionError("no such position in the games tried")  # pragma: no cover
