"""Each browser sees only its own games, and games outlive the server."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import text

from spades.server.app import create_app
from spades.server.deps import COOKIE
from spades.storage import default_database_url

from ..conftest import south_move, start_game

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


def test_another_players_cookie_gets_404_everywhere(
    client: TestClient, other_client: TestClient
) -> None:
    game = start_game(client)["game"]
    start_game(other_client, seed=8)  # the other player has a cookie and a game of their own
    assert client.cookies[COOKIE] != other_client.cookies[COOKIE]
    game_id = game["id"]
    for method, path, body in [
        ("GET", f"/api/games/{game_id}", None),
        ("POST", f"/api/games/{game_id}/bid", {"bid": 3}),
        ("POST", f"/api/games/{game_id}/play", {"card": game["hand"][0]}),
        ("GET", f"/api/games/{game_id}/hint", None),
    ]:
        response = other_client.request(method, path, json=body)
        assert response.status_code == 404, (method, path)
        assert response.json()["rule"] == "not-found"
    assert game_id not in {g["id"] for g in other_client.get("/api/games").json()["games"]}
    assert other_client.get("/api/games/latest").json()["game"]["id"] != game_id
    # The owner's game is untouched.
    assert client.get(f"/api/games/{game_id}").json()["game"] == game


def test_a_forged_cookie_owns_nothing(app: FastAPI, client: TestClient) -> None:
    game_id = start_game(client)["game"]["id"]
    with TestClient(app, cookies={COOKIE: "guess"}) as forger:
        assert forger.get(f"/api/games/{game_id}").status_code == 404
    with TestClient(app, cookies={COOKIE: "x" * 500}) as forger:
        assert forger.get(f"/api/games/{game_id}").status_code == 404


def test_the_database_stores_no_token(app: FastAPI, client: TestClient, db_url: str) -> None:
    start_game(client)
    token = client.cookies[COOKIE]
    with app.state.repository.engine.connect() as connection:
        rows = connection.execute(text("SELECT * FROM games")).all()
    assert rows and token not in repr(rows)
    if db_url.startswith("sqlite:///"):  # and nowhere in the file, free pages included
        assert token.encode() not in Path(db_url.removeprefix("sqlite:///")).read_bytes()


def test_a_new_server_on_the_same_file_resumes_the_game(db_url: str) -> None:
    first = create_app(db_url, default_level="normal")
    with TestClient(first) as client:
        game = start_game(client, seed=21)["game"]
        for _ in range(6):  # the bid and a few cards
            game = south_move(client, game).json()["game"]
        cookie = client.cookies[COOKIE]
    first.state.repository.close()

    second = create_app(db_url, default_level="normal")
    with TestClient(second, cookies={COOKIE: cookie}) as client:
        resumed = client.get("/api/games/latest").json()
        assert resumed["game"] == game
        assert resumed["events"] == []
        # And play goes on from there.
        after = south_move(client, resumed["game"])
        assert after.status_code == 200
    second.state.repository.close()


def test_resumed_bots_play_as_they_would_have(tmp_path: Path) -> None:
    """The bots' moves depend on the record alone: restarting changes nothing.
    (For the levels that decide without a clock: the search levels think
    against a deadline, so a busier machine may cut one search shorter.)"""
    runs = []
    for restart in (False, True):
        url = f"sqlite:///{tmp_path / f'run-{restart}.db'}"
        app = create_app(url, default_level="normal")
        client = TestClient(app)
        game = start_game(client, seed=5)["game"]
        events = []
        for step in range(30):
            if restart and step % 7 == 0:
                cookie = client.cookies[COOKIE]
                app.state.repository.close()
                app = create_app(url, default_level="normal")
                client = TestClient(app, cookies={COOKIE: cookie})
            body = south_move(client, game).json()
            events.append(body["events"])
            game = body["game"]
        runs.append(events)
        app.state.repository.close()
    assert runs[0] == runs[1]


def test_many_players_at_once(app: FastAPI) -> None:
    errors: list[str] = []

    def player(seed: int) -> None:
        with TestClient(app) as client:
            game = start_game(client, seed=seed)["game"]
            for _ in range(10):
                response = south_move(client, game)
                if response.status_code != 200:
                    errors.append(response.text)
                    return
                game = response.json()["game"]
            if client.get("/api/games/latest").json()["game"] != game:
                errors.append("a player's game changed under them")

    threads = [threading.Thread(target=player, args=(seed,)) for seed in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_default_database_lives_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'data' / 'spades' / 'spades.db'}"
    app = create_app(None)
    assert (tmp_path / "data" / "spades" / "spades.db").exists()  # the folder was created
    app.state.repository.close()
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'home/.local/share/spades/spades.db'}"
