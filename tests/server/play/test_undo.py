"""Undo in the web game: South takes back its last bid or card and the bots'
moves after it; the bots learn nothing from it, and the record keeps it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import SOUTH, game_to_record

from ..conftest import start_game, stored_game
from .moves import bid, in_play, play, undo
from .seen import names_in, visible_to_south

TABLE = ("hand", "trick", "last_trick", "seats", "teams", "legal_cards", "legal_bids", "turn")


def table(game: dict[str, Any]) -> dict[str, Any]:
    """What the table shows, without the bookkeeping (version, undo and claim offers)."""
    return {key: game[key] for key in TABLE}


def test_undo_takes_back_the_card_and_the_bots_moves_after_it(
    app: FastAPI, client: TestClient
) -> None:
    before = in_play(client)
    assert before["undo"] == {"enabled": True, "available": True}
    played = play(client, before)
    response = undo(client, before)
    assert response.status_code == 200, response.text
    body = response.json()
    assert table(body["game"]) == table(before)
    assert body["events"] == []
    taken = body["taken_back"]
    assert taken[0] == {"seat": "S", "bid": None, "card": before["legal_cards"][-1]}
    bots_after = [
        {"seat": e["seat"], "bid": None, "card": e["card"]}
        for e in played["events"]
        if e["type"] == "card_played"
    ]
    assert taken == bots_after  # exactly what South saw played, in order
    record = game_to_record(stored_game(app, client, before["id"]))
    assert record["hands"][0]["undos"][0]["taken_back"][0] == ["S", taken[0]["card"]]


def test_undo_shows_no_card_south_has_not_seen(app: FastAPI, client: TestClient) -> None:
    before = in_play(client, seed=12)
    played = play(client, before)
    seen = names_in(str(played["events"]))
    response = undo(client, before)
    game = stored_game(app, client, before["id"])
    assert names_in(str(response.json()["game"])) <= visible_to_south(game, range(1, 2))
    assert names_in(str(response.json()["taken_back"])) <= seen


def test_the_bots_answer_as_before_when_south_plays_the_same_card(client: TestClient) -> None:
    before = in_play(client, seed=9)
    card = before["legal_cards"][0]
    first = play(client, before, card)
    undo(client, before)
    again = play(client, before, card)
    assert again["events"] == first["events"]
    assert table(again["game"]) == table(first["game"])


def test_undoing_a_bid_reopens_the_bidding(client: TestClient) -> None:
    game = start_game(client, seed=7)["game"]
    after = bid(client, game, 4)["game"]
    assert after["undo"]["available"]
    body = undo(client, game).json()
    assert body["game"]["phase"] == "bidding" and body["game"]["your_turn"]
    assert body["taken_back"][0] == {"seat": "S", "bid": 4, "card": None}
    assert body["game"]["seats"][2]["bid"] is None
    assert bid(client, body["game"], "nil")["game"]["seats"][2]["bid"] == "nil"


def test_undo_twice_goes_back_two_moves(client: TestClient) -> None:
    first = in_play(client, cards=2)
    second = play(client, first)["game"]
    play(client, second)
    undo(client, first)
    body = undo(client, first).json()
    assert table(body["game"]) == table(first)


def test_nothing_to_take_back_is_refused_and_changes_nothing(
    app: FastAPI, client: TestClient
) -> None:
    game = start_game(client, seed=7)["game"]  # South has not bid yet
    assert game["undo"] == {"enabled": True, "available": False}
    before = game_to_record(stored_game(app, client, game["id"]))
    response = undo(client, game)
    assert response.status_code == 422
    assert response.json()["rule"] == "undo"
    assert "nothing to take back" in response.json()["detail"]
    assert game_to_record(stored_game(app, client, game["id"])) == before


def test_undo_can_be_turned_off_for_a_game(client: TestClient) -> None:
    game = in_play(client, undo=False)
    assert game["settings"]["undo"] is False
    assert game["undo"] == {"enabled": False, "available": False}
    response = undo(client, game)
    assert response.status_code == 422 and "Undo is off" in response.json()["detail"]
    assert client.get(f"/api/games/{game['id']}").json()["game"] == game


def test_undo_is_refused_with_a_reason_for_a_bad_setting(client: TestClient) -> None:
    response = client.post("/api/games", json={"undo": "yes"})
    assert response.status_code == 422
    assert response.json()["detail"] == "undo must be true or false."


def test_another_players_game_cannot_be_undone(
    client: TestClient, other_client: TestClient
) -> None:
    game = in_play(client, cards=1)
    start_game(other_client)
    assert undo(other_client, game).status_code == 404
    assert client.get(f"/api/games/{game['id']}").json()["game"] == game


def test_the_undo_survives_a_reload(app: FastAPI, client: TestClient) -> None:
    before = in_play(client, cards=3)
    play(client, before)
    undone = undo(client, before).json()["game"]
    reloaded = client.get(f"/api/games/{before['id']}").json()["game"]
    assert reloaded == undone
    assert stored_game(app, client, before["id"]).undos[0].seat == SOUTH
