"""Record files built to hurt the server: nested too deep to decode, or long
enough to cost seconds of CPU. Each is refused with a reason, no 500."""

from __future__ import annotations

import json
from dataclasses import replace

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import game_to_record
from spades.server.http.rates import Limits

from ..conftest import QUICK, play_to_the_end, start_game, stored_game


def test_a_record_nested_too_deep_is_refused_naming_the_line(client: TestClient) -> None:
    response = client.post("/api/replays", json={"text": "[" * 20000 + "]" * 20000})
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["line"] == 1 and "nested deeper than 64" in body["detail"]


def test_a_record_with_more_hands_than_the_cap_is_refused_before_it_is_replayed(
    app: FastAPI, client: TestClient
) -> None:
    body = start_game(client, seed=3, **QUICK)
    play_to_the_end(client, body)
    record = game_to_record(stored_game(app, client, body["game"]["id"]))
    hands = len(record["hands"])
    assert hands >= 2
    app.state.limits = replace(Limits.off(), record_hands=hands - 1)
    refused = client.post("/api/replays", json={"text": json.dumps(record)})
    assert refused.status_code == 422 and refused.json()["rule"] == "too-many-hands"
    assert f"at most {hands - 1}" in refused.json()["detail"]
    app.state.limits = replace(Limits.off(), record_hands=hands)
    assert client.post("/api/replays", json={"text": json.dumps(record)}).status_code == 200
