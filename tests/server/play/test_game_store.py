"""The game store under load: moves do not re-play records, SQLite does not wait
for the disk, kept games play exactly as their records, and nothing the server
acknowledged is lost when it is killed."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

import spades.storage.repository as repository_module
from spades.server.app import create_app
from spades.server.deps import COOKIE
from spades.storage import GameRepository, owner_key
from spades.storage.repository import PlayedGames

from ..conftest import QUICK, south_move, start_game
from ..serving import ServeProcess, serve_on_a_free_port


@pytest.mark.both_databases
def test_moves_do_not_replay_the_record(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-playing a whole record through the checked engine was most of a move's
    cost: the server keeps the games it stored."""
    replays: list[object] = []
    replay = repository_module.game_from_record
    monkeypatch.setattr(
        repository_module, "game_from_record", lambda record: replays.append(1) or replay(record)
    )
    app = create_app(db_url, default_level="random")
    with TestClient(app) as client:
        game = start_game(client, seed=3)["game"]
        for _ in range(20):
            game = south_move(client, game).json()["game"]
        assert client.get(f"/api/games/{game['id']}").json()["game"] == game
    app.state.repository.close()
    assert replays == []


def _play(app: Any) -> list[Any]:
    """The bodies of a seeded game's moves to its end (game ids left out)."""
    bodies = []
    with TestClient(app) as client:
        body = start_game(client, seed=12, **QUICK)
        while body["game"]["phase"] != "over":
            body = south_move(client, body["game"]).json()
            bodies.append({**body, "game": {**body["game"], "id": None}})
    return bodies


def test_a_kept_game_plays_exactly_as_its_replayed_record(tmp_path: Path) -> None:
    kept = create_app(f"sqlite:///{tmp_path / 'kept.db'}")
    replayed = create_app(f"sqlite:///{tmp_path / 'replayed.db'}")
    replayed.state.repository.played = PlayedGames(size=0)  # every load re-plays the record
    try:
        bodies = _play(kept)
        assert len(bodies) > 20
        assert bodies == _play(replayed)
    finally:
        kept.state.repository.close()
        replayed.state.repository.close()


@pytest.mark.both_databases
def test_a_game_moved_on_by_another_server_is_read_anew(db_url: str) -> None:
    """Two servers on one file: each keeps its own copies, which the version
    check retires as soon as the other server saves."""
    first, second = create_app(db_url), create_app(db_url)
    with TestClient(first) as one:
        game = start_game(one, seed=4, **QUICK)["game"]
        with TestClient(second, cookies={COOKIE: one.cookies[COOKIE]}) as two:
            for _ in range(3):
                game = south_move(one, game).json()["game"]
                assert two.get(f"/api/games/{game['id']}").json()["game"] == game
                game = south_move(two, game).json()["game"]
                assert one.get(f"/api/games/{game['id']}").json()["game"] == game
    first.state.repository.close()
    second.state.repository.close()


@pytest.mark.both_databases
def test_changing_a_loaded_game_leaves_the_kept_copy(db_url: str) -> None:
    app = create_app(db_url, default_level="random")
    repository: GameRepository = app.state.repository
    with TestClient(app) as client:
        game_id = start_game(client, seed=6)["game"]["id"]
        owner = owner_key(client.cookies[COOKIE])
    loaded = repository.load(owner, game_id)
    assert loaded is not None
    loaded.game.bid(loaded.game.to_act, 4)  # not saved
    again = repository.load(owner, game_id)
    assert again is not None
    assert again.game.log == loaded.game.log[:-1]
    repository.close()


def test_sqlite_commits_to_the_log_without_waiting_for_the_disk(db_url: str) -> None:
    """WAL with synchronous=NORMAL: no fsync a move (kill -9 safety is tested below)."""
    repository = GameRepository(db_url)
    with repository.engine.connect() as connection:
        assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert connection.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
    repository.close()


def test_kept_games_are_bounded() -> None:
    from spades.core import Game

    played = PlayedGames(size=2)
    for number in range(3):
        played.put(f"game-{number}", 1, Game(seed=number))
    assert len(played) == 2
    assert played.get("game-0", 1) is None  # the least recently used went first
    assert played.get("game-2", 1) is not None
    assert played.get("game-2", 2) is None  # another version is another game


# ----------------------------------------------------------------- kill -9


def _serve(database: Path) -> tuple[ServeProcess, str]:
    """`spades serve` on the database, on a port it picks, once it answers."""
    return serve_on_a_free_port([f"--db=sqlite:///{database}", "--level=random"], patience=60)


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="kill -9 is a POSIX signal")
def test_every_acknowledged_move_survives_kill_9(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    server, url = _serve(database)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            game = client.post("/api/games", json={"seed": 9}).json()["game"]
            for _ in range(15):
                response = south_move(client, game)  # type: ignore[arg-type]
                assert response.status_code == 200, response.text
                game = response.json()["game"]
            cookie = client.cookies[COOKIE]
    finally:
        server.process.send_signal(signal.SIGKILL)  # no shutdown, no checkpoint
        server.stop()
    server, url = _serve(database)
    try:
        with httpx.Client(base_url=url, cookies={COOKIE: cookie}, timeout=30) as client:
            assert client.get("/api/games/latest").json()["game"] == game
    finally:
        server.stop()
