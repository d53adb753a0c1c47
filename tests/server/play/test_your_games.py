"""Your games: a browser lists its unfinished games and resumes any of them."""

from __future__ import annotations

from datetime import datetime

import pytest
from fastapi.testclient import TestClient

from ..conftest import QUICK, play_to_the_end, south_move, start_game

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


def test_unfinished_games_are_listed_to_resume_most_recent_first(
    client: TestClient, other_client: TestClient
) -> None:
    practice = start_game(client, seed=1, **QUICK)["game"]
    fair = client.post("/api/games", json=QUICK).json()["game"]
    after_moves = south_move(client, fair).json()["game"]
    finished = play_to_the_end(client, client.post("/api/games", json=QUICK).json())[-1]["game"]

    listed = client.get("/api/games", params={"unfinished": "true"}).json()["games"]
    assert [g["id"] for g in listed] == [fair["id"], practice["id"]]
    latest = listed[0]
    assert latest["hand_number"] == after_moves["hand_number"]
    assert latest["scores"] == {t["team"]: t["score"] for t in after_moves["teams"]}
    assert (latest["practice"], listed[1]["practice"]) == (False, True)
    assert not latest["finished"] and latest["winner"] is None
    assert (latest["partner"], latest["opponents"]) == ("random", "random")
    for moment in (latest["started_at"], latest["updated_at"]):
        assert datetime.fromisoformat(moment).utcoffset() is not None, "a time says its zone"

    everything = client.get("/api/games").json()["games"]
    assert [g["id"] for g in everything] == [finished["id"], fair["id"], practice["id"]]
    assert everything[0]["finished"] and everything[0]["scores"] == finished["game_over"]["totals"]

    # Resuming the older one: it is exactly as it was left.
    resumed = client.get(f"/api/games/{practice['id']}").json()
    assert resumed["game"] == practice and resumed["events"] == []

    # Another browser sees none of them.
    assert other_client.get("/api/games", params={"unfinished": "true"}).json() == {"games": []}


def test_the_list_is_bounded(client: TestClient) -> None:
    for seed in range(3):
        start_game(client, seed=seed, **QUICK)
    assert len(client.get("/api/games", params={"limit": 2}).json()["games"]) == 2
    for bad in (0, 101, "many"):
        response = client.get("/api/games", params={"limit": bad})
        assert response.status_code == 422
        assert response.json()["rule"] == "request"
