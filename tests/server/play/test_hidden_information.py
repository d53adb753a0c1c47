"""No response ever names a card South cannot see.

A whole game is played through the API. After every request the server's full
game is consulted (the test may look; the page may not): every card name in
the response body must be South's own, or already played in a hand this
response covers, or the card the request itself named.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import spades.server
from spades.core import SOUTH, Game, card_name
from spades.core.cards import FULL_DECK, cards_in

from ..conftest import start_game, stored_game
from .seen import names_in, visible_to_south


def hidden_now(game: Game) -> set[str]:
    """Cards other seats hold unplayed right now (all of them are unseen by South)."""
    if game.hand.is_over:
        return set()
    others = FULL_DECK & ~game.hand.hands[SOUTH] & ~game.hand.played
    return {card_name(c) for c in cards_in(others)}


def check(
    response: Any, app: FastAPI, client: TestClient, game_id: str, hand_before: int,
    requested: str | None = None,
) -> None:  # fmt: skip
    game = stored_game(app, client, game_id)
    allowed = visible_to_south(game, range(hand_before, game.hand_number + 1))
    if requested:
        allowed.add(requested)
    named = names_in(response.text)
    leaked = named - allowed
    assert not leaked, f"response names cards South cannot see: {sorted(leaked)}"
    if game.hand_number == hand_before:
        # Within one hand, nothing another seat still holds is named (but the request's card).
        assert not named & hidden_now(game) - {requested}


@pytest.mark.slow
def test_no_response_names_a_card_south_cannot_see(app: FastAPI, client: TestClient) -> None:
    # The test's own sanity: the patterns catch both spellings.
    assert names_in('"QH" and the 10 of spades, "TD"') == {"QH", "TS", "TD"}

    body = start_game(client, seed=11)
    game_id = body["game"]["id"]
    game = stored_game(app, client, game_id)
    assert not names_in(str(body)) - visible_to_south(game, range(1, 2))

    requests = 0
    state = body["game"]
    while state["phase"] != "over":
        hand_before = state["hand_number"]
        url = f"/api/games/{game_id}"
        check(client.get(url), app, client, game_id, hand_before)
        check(client.get("/api/games/latest"), app, client, game_id, hand_before)
        if requests % 4 == 0:  # the strongest level thinks for a while: ask now and then
            check(client.get(f"{url}/hint"), app, client, game_id, hand_before)
        if state["phase"] == "bidding":
            check(client.post(f"{url}/play", json={"card": "AS"}), app, client, game_id,
                  hand_before, "AS")  # fmt: skip
            response = client.post(f"{url}/bid", json={"bid": 2})
        else:
            # An illegal try first, naming a card some other seat may hold.
            engine = stored_game(app, client, game_id)
            for someone_elses in sorted(hidden_now(engine))[:1]:
                check(client.post(f"{url}/play", json={"card": someone_elses}), app, client,
                      game_id, hand_before, someone_elses)  # fmt: skip
            response = client.post(f"{url}/play", json={"card": state["legal_cards"][-1]})
        assert response.status_code == 200, response.text
        check(response, app, client, game_id, hand_before)
        state = response.json()["game"]
        requests += 1
    assert requests > 13, "a whole game was played"
    check(client.get("/api/games"), app, client, game_id, state["hand_number"])


def test_page_source_names_no_card(client: TestClient) -> None:
    scripts = sorted((Path(spades.server.__file__).parent / "static").glob("*.js"))
    assert len(scripts) > 10  # the page's modules
    for path in ("/", *(f"/static/{script.name}" for script in scripts)):
        text = client.get(path).text
        assert not names_in(text), path
