"""The web game with its daily challenge on a clock the test sets, and the
pars played at once (no background thread to wait for)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI

from spades.challenge import ChallengeService
from spades.session import InlineDecider
from tests.challenge.conftest import SetClock

LEVEL = "normal"


@pytest.fixture
def clock() -> SetClock:
    return SetClock(datetime(2026, 12, 5, 9, 30, tzinfo=UTC))


def with_challenge(app: FastAPI, clock: SetClock) -> FastAPI:
    """``app`` with a challenge read from ``clock`` (as the routes would make it, but for the clock)."""
    app.state.challenge = ChallengeService(
        app.state.repository.challenge,
        level=LEVEL,
        decide=InlineDecider(),
        clock=clock,
        run_in_background=lambda work: work(),
    )
    return app


@pytest.fixture
def challenge_app(app: FastAPI, clock: SetClock) -> Iterator[FastAPI]:
    yield with_challenge(app, clock)


def play_whole_deal(client: Any, day: str, number: int, *, greedy: bool = False) -> dict[str, Any]:
    """Start deal ``number`` and play it through the API: South bids the lowest
    bid (``greedy``: the highest) and plays its first legal card (the last)."""
    response = client.post(f"/api/challenge/days/{day}/deals/{number}")
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    for _ in range(20):
        if table["phase"] == "over":
            return table
        assert table["your_turn"], table
        if table["phase"] == "bidding":
            bids = [bid for bid in table["legal_bids"] if bid != "nil"]
            response = client.post(
                f"/api/challenge/days/{day}/deals/{number}/bid",
                json={"bid": max(bids) if greedy else min(bids)},
            )
        else:
            card = table["legal_cards"][-1 if greedy else 0]
            response = client.post(
                f"/api/challenge/days/{day}/deals/{number}/play", json={"card": card}
            )
        assert response.status_code == 200, response.text
        table = response.json()
    raise AssertionError("the deal did not end")
