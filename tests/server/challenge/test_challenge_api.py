"""The daily challenge's API: names, deals in order, one entry a day, South's
view only, no peeking, the boards, and the commitment check of a closed day."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from spades.challenge.names import check_display_name
from spades.cli.app import app as cli
from spades.core import EAST, NORTH, WEST, game_from_record
from spades.core.cards import CARD_NAMES, cards_in
from spades.server.tables.service import TableError, check_name
from spades.storage import owner_key
from tests.challenge.conftest import SetClock

from .conftest import play_whole_deal

pytestmark = pytest.mark.both_databases

DAY = "2026-12-05"


@pytest.fixture
def ann(challenge_app: FastAPI) -> Any:
    with TestClient(challenge_app) as client:
        assert client.put("/api/challenge/name", json={"name": "Ann"}).status_code == 200
        yield client


@pytest.fixture
def bob(challenge_app: FastAPI) -> Any:
    with TestClient(challenge_app) as client:
        assert client.put("/api/challenge/name", json={"name": "Bob"}).status_code == 200
        yield client


def test_a_first_visit_sees_the_commitment_and_nothing_played(challenge_app: FastAPI) -> None:
    with TestClient(challenge_app) as client:
        day = client.get("/api/challenge/days/today")
        assert day.status_code == 200
        body = day.json()
        assert body["day"] == DAY == body["today"] and body["deals"] == 8
        assert len(body["commitment"]) == 64 and body["seed"] is None and body["salt"] is None
        assert body["next_day"] == "2026-12-06" and len(body["next_commitment"]) == 64
        assert body["name"] is None and body["plays"] == [] and body["next_deal"] == 1
        assert body["closes_at"] == "2026-12-06T00:00:00+00:00"
        assert "spades_player" not in client.cookies  # looking sets no cookie
        started = client.post(f"/api/challenge/days/{DAY}/deals/1")
        assert started.status_code == 422 and started.json()["rule"] == "name"


@pytest.mark.parametrize(
    "name",
    [
        "Ann",
        "  O'Neil   & Co (!) ",
        "",
        "<b>x</b>",
        "x" * 25,
        "Zoë",
        "a\tb",
        "semi;colon",
        "é" * 24,
    ],
)
def test_a_name_is_checked_as_a_table_name_is(name: str) -> None:
    try:
        table: str | None = check_name(name)
    except TableError:
        table = None
    try:
        ours: str | None = check_display_name(name)
    except ValueError:
        ours = None
    assert ours == table


def test_a_bad_name_changes_nothing(challenge_app: FastAPI) -> None:
    with TestClient(challenge_app) as client:
        refused = client.put("/api/challenge/name", json={"name": "<script>alert(1)</script>"})
        assert refused.status_code == 422 and refused.json()["rule"] == "name"
        assert client.get("/api/challenge/days/today").json()["name"] is None
        unknown = client.put("/api/challenge/name", json={"name": "Ann", "admin": True})
        assert unknown.status_code == 422
        kept = client.put("/api/challenge/name", json={"name": " Ann  Lee "})
        assert kept.json() == {"name": "Ann Lee"}
        assert client.get("/api/challenge/days/today").json()["name"] == "Ann Lee"


def test_the_table_shows_souths_cards_only(ann: Any, challenge_app: FastAPI) -> None:
    table = ann.post(f"/api/challenge/days/{DAY}/deals/1").json()
    assert len(table["hand"]) == 13 and table["phase"] == "bidding" and table["your_turn"]
    owner = owner_key(ann.cookies["spades_player"])
    (play,) = challenge_app.state.repository.challenge.plays(date(2026, 12, 5), owner)
    dealt = game_from_record(play.record).hand.deal
    hidden = {CARD_NAMES[card] for seat in (NORTH, EAST, WEST) for card in cards_in(dealt[seat])}
    shown = set(re.findall(r'"([0-9TJQKA]{1,2}[SHDC])"', json.dumps(table)))
    assert shown and not shown & hidden  # no card of another hand, before any is played


def test_deals_in_order_once_each_and_bad_input_refused(ann: Any) -> None:
    assert ann.post(f"/api/challenge/days/{DAY}/deals/2").status_code == 409
    assert ann.post(f"/api/challenge/days/{DAY}/deals/9").status_code == 404
    assert ann.post(f"/api/challenge/days/{DAY}/deals/0").status_code == 422
    assert ann.get("/api/challenge/days/2026-13-01").status_code == 404
    assert ann.get("/api/challenge/days/yesterday").status_code == 404
    assert ann.get("/api/challenge/days/2026-12-09").status_code == 404  # not set yet
    table = ann.post(f"/api/challenge/days/{DAY}/deals/1").json()
    zero = ann.post(f"/api/challenge/days/{DAY}/deals/1/bid", json={"bid": 0})
    assert zero.status_code == 422 and "nil" in zero.json()["detail"]
    early = ann.post(f"/api/challenge/days/{DAY}/deals/1/play", json={"card": table["hand"][0]})
    assert early.status_code == 409 and "bid" in early.json()["detail"]  # bidding first
    assert ann.get(f"/api/challenge/days/{DAY}/deals/1").json() == {**table, "events": []}
    finished = play_whole_deal(ann, DAY, 1)  # started already: the same deal goes on
    assert finished["result"]["finished"] and finished["result"]["score"] is not None
    again = ann.post(f"/api/challenge/days/{DAY}/deals/1")
    assert again.status_code == 409 and again.json()["rule"] == "deal-order"
    over = ann.post(f"/api/challenge/days/{DAY}/deals/1/bid", json={"bid": 3})
    assert over.status_code == 409


def test_no_peeking_before_finishing_a_deal(ann: Any, bob: Any) -> None:
    mine = play_whole_deal(ann, DAY, 1)
    for path in ("results", "replay", "replay?of=par"):
        refused = bob.get(f"/api/challenge/days/{DAY}/deals/1/{path}")
        assert refused.status_code == 409 and refused.json()["rule"] == "finish-first", path
    assert bob.get(f"/api/challenge/days/{DAY}/leaderboard").status_code == 409
    assert bob.get(f"/api/challenge/days/{DAY}/deals/1").status_code == 404  # not started
    assert bob.get(f"/api/challenge/days/{DAY}/record").status_code == 409  # the day is open
    results = ann.get(f"/api/challenge/days/{DAY}/deals/1/results").json()
    assert results["players"] == 1 and results["yours"]["score"] == mine["result"]["score"]
    assert results["yours"]["percent"] is None  # alone so far
    assert results["par"] is not None and results["par"]["versus"] == (
        mine["result"]["score"] - results["par"]["score"]
    )
    replay = ann.get(f"/api/challenge/days/{DAY}/deals/1/replay?of=par").json()
    assert len(replay["hands"]) == 1 and replay["hands"][0]["over"]
    assert replay["players"]["S"] == "par"


@pytest.mark.slow
def test_two_players_a_whole_day_the_boards_and_the_closed_days_check(
    challenge_app: FastAPI, ann: Any, bob: Any, clock: SetClock, tmp_path: Path
) -> None:
    ann_scores, bob_scores = [], []
    for number in range(1, 9):
        ann_scores.append(play_whole_deal(ann, DAY, number)["result"]["score"])
        bob_scores.append(play_whole_deal(bob, DAY, number, greedy=True)["result"]["score"])
    assert ann.post(f"/api/challenge/days/{DAY}/deals/9").status_code == 404

    def percent(mine: int, theirs: int) -> float:
        return 100.0 if mine > theirs else 50.0 if mine == theirs else 0.0

    ann_percent = sum(map(percent, ann_scores, bob_scores)) / 8
    board = ann.get(f"/api/challenge/days/{DAY}/leaderboard").json()
    lines = {line["name"]: line for line in board["lines"]}
    assert lines["Ann"]["percent"] == pytest.approx(ann_percent) and lines["Ann"]["you"]
    assert lines["Bob"]["percent"] == pytest.approx(100 - ann_percent) and not lines["Bob"]["you"]
    assert lines["Ann"]["matchpoints"] + lines["Bob"]["matchpoints"] == 8  # one point a deal
    week = bob.get(f"/api/challenge/weeks/{DAY}/leaderboard").json()
    assert week["first_day"] == "2026-11-30" and week["counted"] == [DAY]
    history = ann.get("/api/challenge/history").json()["days"]
    assert history == [
        {
            "day": DAY,
            "deals": 8,
            "finished": 8,
            "percent": pytest.approx(ann_percent),
            "versus_par": lines["Ann"]["versus_par"],
            "rank": lines["Ann"]["rank"],
            "players": 2,
        }
    ]
    deal = ann.get(f"/api/challenge/days/{DAY}/deals/2/results").json()
    assert sorted(line["score"] for line in deal["field"]) == sorted([ann_scores[1], bob_scores[1]])

    clock.advance(days=1)  # the day closes: its seed is revealed, its deals checkable
    day = ann.get(f"/api/challenge/days/{DAY}").json()
    assert day["closed"] and day["seed"] is not None and day["salt"] is not None
    records = bob.get(f"/api/challenge/days/{DAY}/record")
    assert records.status_code == 200 and len(records.text.splitlines()) == 8
    path = tmp_path / "day.jsonl"
    path.write_text(records.text)
    args = ["replay", str(path), "--seed", str(day["seed"]), "--salt", day["salt"]]
    checked = CliRunner().invoke(cli, [*args, "--commitment", day["commitment"], "-q"])
    assert checked.exit_code == 0, checked.output
    assert (
        checked.output.count("deal verified") == 8
        and "8 record(s) checked: all valid" in checked.output
    )
    wrong = CliRunner().invoke(cli, [*args, "--commitment", "0" * 64, "-q"])
    assert wrong.exit_code == 1 and "not the commitment" in wrong.output
    shifted = tmp_path / "shifted.jsonl"
    lines_of = records.text.splitlines()
    shifted.write_text(lines_of[0].replace('"deal":1', '"deal":2') + "\n")
    moved = CliRunner().invoke(
        cli, ["replay", str(shifted), *args[2:], "--commitment", day["commitment"]]
    )
    assert moved.exit_code == 1 and "not deal 2 of seed" in moved.output
