"""North, West and East each play the level chosen for them; databases made
before a setting existed keep working."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.bots import BOT_LEVELS, make_bot
from spades.core import EAST, NORTH, WEST
from spades.server.app import create_app
from spades.storage import SchemaError, database_engine, upgrade

from ..conftest import south_move, start_game, stored_game


def test_each_seat_plays_the_level_chosen_for_it(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[str, str]] = []

    def recording(level: str, seed: Any = None, **options: Any) -> Any:
        asked.append((str(seed).split(":")[1], level))
        return make_bot(level, seed, **options)

    monkeypatch.setattr("spades.session.deciders.make_bot", recording)
    body = start_game(client, partner="easy", opponents="normal", west="random")
    game = body["game"]
    assert game["settings"] == {
        "partner": "easy",
        "opponents": "random/normal",
        "west": "random",
        "east": "normal",
        "undo": True,
    }
    players = {seat["seat"]: seat["player"] for seat in game["seats"]}
    assert players == {"N": "easy", "E": "normal", "S": "you", "W": "random"}
    assert stored_game(app, client, game["id"]).players == {
        NORTH: "easy", EAST: "normal", 2: "human", WEST: "random",
    }  # fmt: skip
    for _ in range(6):
        game = south_move(client, game).json()["game"]
    assert set(asked) == {("N", "easy"), ("E", "normal"), ("W", "random")}
    listed = client.get("/api/games").json()["games"][0]
    assert listed["partner"] == "easy" and listed["opponents"] == "random/normal"


def test_east_alone_may_differ(client: TestClient) -> None:
    game = start_game(client, east="hard", opponents="easy")["game"]
    assert (game["settings"]["west"], game["settings"]["east"]) == ("easy", "hard")


def test_an_unknown_level_for_a_seat_is_refused_naming_it(client: TestClient) -> None:
    response = client.post("/api/games", json={"west": "grandmaster"})
    assert response.status_code == 422
    assert response.json() == {
        "detail": f"Unknown bot level 'grandmaster' for West: choose {', '.join(BOT_LEVELS)}",
        "rule": "settings",
    }
    response = client.post("/api/games", json={"east": 3})
    assert response.json()["detail"] == "East's level must be the name of a bot level."


def test_levels_describe_each_level_for_the_dialog(client: TestClient) -> None:
    summaries = client.get("/api/levels").json()["summaries"]
    assert set(summaries) == set(BOT_LEVELS) and all(summaries.values())


def test_a_database_from_before_undo_gains_the_setting_when_upgraded(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    first = create_app(url, default_level="random")
    with TestClient(first) as client:
        game = start_game(client, seed=5)["game"]
        cookies = dict(client.cookies)
    first.state.repository.close()
    with sqlite3.connect(tmp_path / "old.db") as connection:  # as a version before undo made it
        connection.executescript(
            """ALTER TABLE games DROP COLUMN undo;
            ALTER TABLE games DROP COLUMN seating;
            DROP TABLE table_changes;  -- (tables with friends across processes came later)
            DROP TABLE hand_reviews;
            DROP TABLE challenge_days;  -- (and the daily challenge later still)
            DROP TABLE challenge_players;
            DROP TABLE challenge_plays;
            DROP TABLE challenge_pars;
            DROP TABLE table_seats;  -- (and the seats people took at tables, later)
            DROP TABLE rate_buckets;  -- (and the limits' counts, later still)
            DROP TABLE alembic_version;  -- (before migrations, too)
            DROP INDEX ix_games_owner_updated_at;
            CREATE INDEX ix_games_owner ON games (owner);
            CREATE INDEX ix_games_updated_at ON games (updated_at);"""
        )
    with pytest.raises(SchemaError, match="spades db upgrade"):
        create_app(url, default_level="random")
    engine = database_engine(url)
    upgrade(engine)  # what `spades db upgrade` does
    engine.dispose()
    second = create_app(url, default_level="random")
    try:
        with TestClient(second, cookies=cookies) as client:
            again = client.get(f"/api/games/{game['id']}").json()["game"]
            assert again["settings"]["undo"] is True
            assert again["hand"] == game["hand"]
            assert client.post(f"/api/games/{game['id']}/bid", json={"bid": 3}).status_code == 200
    finally:
        second.state.repository.close()
