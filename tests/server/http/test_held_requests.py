"""The test-only hook that holds a request in flight (server/http/held_requests.py):
off unless the server starts with its variable set, and then it holds exactly the
request named, at the point named, until the test lets it go."""

from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from spades.server.app import create_app
from spades.server.http.held_requests import HOLD_HEADER, HOLDS_VARIABLE, HeldRequests

from ..conftest import QUICK

HOLD = HOLD_HEADER.decode()


def test_without_the_variable_nothing_is_held(db_url: str) -> None:
    app = create_app(db_url, default_level="normal")
    assert not any(middleware.cls is HeldRequests for middleware in app.user_middleware)
    with TestClient(app) as client:
        answer = client.post("/api/games", json=QUICK, headers={HOLD: "before:new"})
    assert answer.status_code == 201


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_named_request_waits_at_its_point_until_the_test_lets_it_go(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, when: str
) -> None:
    monkeypatch.setenv(HOLDS_VARIABLE, str(tmp_path))
    app = create_app(db_url, default_level="normal")
    with TestClient(app) as client:
        assert client.get("/api/levels").status_code == 200  # the others pass
        answers: list[Any] = []
        sending = threading.Thread(
            target=lambda: answers.append(
                client.post("/api/games", json=QUICK, headers={HOLD: f"{when}:new"})
            )
        )
        sending.start()
        held = tmp_path / "new.held"
        deadline = time.monotonic() + 30
        while not held.exists():  # written once the request is held
            assert time.monotonic() < deadline and sending.is_alive(), answers
            time.sleep(0.01)
        assert held.read_text().isdigit()  # the process that holds it, for a test to kill
        # Held: no answer until the test lets it go (whether the move is stored by
        # then is test_many_processes.py's kill test, across real processes).
        assert sending.is_alive() and answers == []
        (tmp_path / "new.go").touch()
        sending.join(timeout=30)
        assert not sending.is_alive() and answers[0].status_code == 201


def _held(path: Path, sending: threading.Thread, answers: list[Any]) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():  # written once the request is held
        assert time.monotonic() < deadline and sending.is_alive(), answers
        time.sleep(0.01)


def test_a_move_held_once_its_game_is_loaded_is_refused_as_stale_when_another_saved_first(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOLDS_VARIABLE, str(tmp_path))
    app = create_app(db_url, default_level="normal")
    with TestClient(app) as client:
        game = client.post("/api/games", json={"seed": 3, **QUICK}).json()["game"]
        first, second = (game["legal_bids"][2], game["legal_bids"][3])
        path = f"/api/games/{game['id']}/bid"
        answers: list[Any] = []
        sending = threading.Thread(
            target=lambda: answers.append(
                client.post(path, json={"bid": first}, headers={HOLD: "loaded:bid"})
            )
        )
        sending.start()
        _held(tmp_path / "bid.held", sending, answers)
        saved = client.post(path, json={"bid": second})  # the same game, saved meanwhile
        assert saved.status_code == 200, saved.text
        (tmp_path / "bid.go").touch()
        sending.join(timeout=30)
        assert not sending.is_alive()
        assert answers[0].status_code == 409 and answers[0].json()["rule"] == "stale"
        kept = client.get(f"/api/games/{game['id']}").json()["game"]
        assert kept == saved.json()["game"], "only the move saved first is kept"


def test_a_malformed_hold_is_refused(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOLDS_VARIABLE, str(tmp_path))
    app = create_app(db_url, default_level="normal")
    with (
        TestClient(app, raise_server_exceptions=True) as client,
        pytest.raises(ValueError, match="before:NAME, loaded:NAME or after:NAME"),
    ):
        client.get("/api/levels", headers={HOLD: "during:../etc"})
