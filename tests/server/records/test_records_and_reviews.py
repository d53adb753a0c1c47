"""Records in the page and post-hand reviews, through the API.

A game in progress never gives away a card South cannot see: its download
holds only finished hands and no seed, its replay shows South's cards in the
hand being played. A record file is checked by re-playing it and refused with
the line at fault. A finished hand's review arrives in the background and
judges each play by what its player could know.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.arena import play_game, seat_bots
from spades.core import SEATS, SOUTH, Game, game_from_record, game_to_record
from spades.core.cards import FULL_DECK, card_name, cards_in
from spades.core.hand import HandState
from spades.core.record import record_to_json
from spades.server.app import create_app
from spades.server.http.limits import MAX_BODY_BYTES
from spades.server.http.rates import Limits
from spades.server.records.replay_schemas import MAX_RECORD_BODY_BYTES, MAX_RECORD_CHARS
from tests.solver.hands import (
    GUESS_ENDING,
    RUFF_ENDING,
    RUFF_TRICKS,
    TRICKS_1_TO_11,
    hand_from_tricks,
)

from ..conftest import south_move, start_game, stored_game
from ..play.seen import names_in
from .stories import finished_game, revoked_record, store


@pytest.fixture
def app(db_url: str) -> Iterator[FastAPI]:
    # Reviews sample fewer deals than the product's, to keep the tests quick;
    # the hand-checked verdicts below hold with these too.
    application = create_app(
        db_url, default_level="normal", review_deals=16, limits=Limits.off()
    )  # limits off: a test opens file after file (test_rate_limits.py tests them)
    yield application
    application.state.reviewer.close()
    application.state.repository.close()


def game_of_hands(*hands: HandState) -> Game:
    """A game whose first hands are ``hands``, bid and played as they were."""
    game = Game(seed=1, preset_deals=[(h.dealer, h.deal) for h in hands])
    for hand in hands:
        for seat in hand.bid_order:
            game.bid(seat, hand.bids[seat] or 0)
        for trick in hand.tricks:
            for card in trick.cards:
                game.play(game.hand.turn, card)
    return game


def play_to_hand_two(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    while game["hand_number"] == 1:
        response = south_move(client, game)
        assert response.status_code == 200, response.text
        game = response.json()["game"]
    return game


def hidden_from_south(game: Game) -> set[str]:
    others = FULL_DECK & ~game.hand.hands[SOUTH] & ~game.hand.played
    return {card_name(c) for c in cards_in(others)}


def wait_for_review(client: TestClient, path: str, seconds: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        response = client.get(path)
        assert response.status_code in (200, 202), response.text
        body: dict[str, Any] = response.json()
        if response.status_code == 200:
            return body
        assert body["status"] == "analysing" and body["plays"] == []
        assert time.monotonic() < deadline, "the review did not arrive"
        time.sleep(0.2)


# ---------------------------------------------------------------- downloads


def test_a_game_in_progress_downloads_its_finished_hands_only(
    app: FastAPI, client: TestClient
) -> None:
    game = client.post("/api/games", json={}).json()["game"]  # a fair deal: committed seed
    early = client.get(f"/api/games/{game['id']}/record")
    assert early.status_code == 409 and early.json()["rule"] == "game-in-progress"
    assert "once hand 1 is over" in early.json()["detail"]

    game = play_to_hand_two(client, game)
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith('attachment; filename="spades-')
    record = json.loads(response.text)
    assert record["format"] == "spades-record/1" and record["seed"] is None
    full = stored_game(app, client, game["id"])
    assert full.seeding is not None and full.seeding.salt not in response.text  # secret yet
    assert "seeding" not in record
    assert len(record["hands"]) == 1 and record["winner"] is None
    assert len(response.text.splitlines()) > 20  # pretty-printed: people open it
    assert record["hands"][0] == game_to_record(full)["hands"][0]
    # Hand 1 is over, so all its cards are public; nothing of hand 2 is there.
    assert json.dumps(game_to_record(full)["hands"][1]["deal"]) not in response.text
    game_from_record(record)  # a valid record: spades replay accepts it


def test_a_finished_game_downloads_whole_with_its_seed(app: FastAPI, client: TestClient) -> None:
    start_game(client)
    done = finished_game()
    game_id = store(app, client, done)
    response = client.get(f"/api/games/{game_id}/record")
    assert (
        response.headers["content-disposition"] == f'attachment; filename="spades-{game_id}.json"'
    )
    record = response.json()
    assert record == game_to_record(done)
    assert record["seed"] == done.seed and record["winner"] in ("NS", "EW")


def test_records_are_only_the_owners(client: TestClient, other_client: TestClient) -> None:
    game = start_game(client)["game"]
    start_game(other_client)
    for path in ("record", "replay", "hands/1/review"):
        response = other_client.get(f"/api/games/{game['id']}/{path}")
        assert response.status_code == 404, path


# ------------------------------------------------------------------ replays


def test_replaying_a_game_in_progress_shows_only_souths_cards_in_play(
    app: FastAPI, client: TestClient
) -> None:
    game = play_to_hand_two(client, start_game(client)["game"])
    game = south_move(client, game).json()["game"]  # South's bid in hand 2
    response = client.get(f"/api/games/{game['id']}/replay")
    assert response.status_code == 200
    replay = response.json()
    assert replay["source"] == "game" and replay["game_id"] == game["id"]
    assert not replay["finished"] and replay["ending"] is None
    first, current = replay["hands"]
    assert first["over"] and all(len(cards) == 13 for cards in first["deal"].values())
    assert len(first["tricks"]) == 13 and first["result"]["hand"] == 1
    assert not current["over"] and current["result"] is None
    full = stored_game(app, client, game["id"])
    assert {card_name(c) for c in cards_in(full.hand.deal[SOUTH])} == set(current["deal"]["S"])
    assert current["deal"]["N"] is None and current["deal"]["E"] is None
    assert current["deal"]["W"] is None
    assert not names_in(json.dumps(current)) & hidden_from_south(full)


def test_replaying_a_finished_game_shows_every_hand(app: FastAPI, client: TestClient) -> None:
    start_game(client)
    done = finished_game(5)
    replay = client.get(f"/api/games/{store(app, client, done)}/replay").json()
    assert replay["finished"] and replay["winner"] in ("NS", "EW")
    assert replay["ending"].startswith(("North-South won", "East-West won"))
    assert len(replay["hands"]) == len(done.history)
    assert all(None not in hand["deal"].values() for hand in replay["hands"])
    assert [h["result"]["teams"][0]["total"] for h in replay["hands"]][-1] == done.totals[0]


def test_opening_a_record_file(client: TestClient) -> None:
    games = [finished_game(7), finished_game(8)]
    text = "\n".join(record_to_json(game_to_record(g)) for g in games) + "\n"
    response = client.post("/api/replays", json={"text": text, "game": 2})
    assert response.status_code == 200, response.text
    replay = response.json()
    assert replay["source"] == "file" and replay["game_id"] is None
    assert replay["games_in_file"] == 2 and replay["game_index"] == 2
    assert len(replay["hands"]) == len(games[1].history)
    assert replay["players"] == {"N": "random", "E": "random", "S": "random", "W": "random"}
    first_trick = replay["hands"][0]["tricks"][0]
    assert [c["card"] for c in first_trick["cards"]] == [
        card_name(c) for c in games[1].history[0].state.tricks[0].cards
    ]


def test_an_unfinished_record_file_keeps_the_hand_in_play_hidden(client: TestClient) -> None:
    game = Game(seed=4)
    for _ in range(4):
        game.bid(game.hand.turn, 3)
    game.play(game.hand.turn, game.hand.legal_cards()[0])
    replay = client.post("/api/replays", json={"text": json.dumps(game_to_record(game))}).json()
    (hand,) = replay["hands"]
    assert set(hand["deal"].values()) == {None} and len(hand["tricks"]) == 1


@pytest.mark.parametrize(
    ("text", "status_rule", "words"),
    [
        ("", "record", "holds no record"),
        ('{\n  "format": "spades-record/1",\n  hands: []\n}', "record", "line 3: not valid JSON"),
        ('{"format": "spades-record/9", "hands": []}', "record", "format must be"),
    ],
)
def test_a_broken_file_is_refused_with_the_line_at_fault(
    client: TestClient, text: str, status_rule: str, words: str
) -> None:
    response = client.post("/api/replays", json={"text": text})
    assert response.status_code == 422
    body = response.json()
    assert body["rule"] == status_rule and words in body["detail"]


def test_a_rule_broken_in_a_file_is_named_with_its_line_and_place(client: TestClient) -> None:
    good = record_to_json(game_to_record(finished_game(10)))
    bad = json.loads(revoked_record())
    text = good + "\n" + record_to_json(bad) + "\n"
    response = client.post("/api/replays", json={"text": text, "game": 2})
    assert response.status_code == 422
    body = response.json()
    assert body["line"] == 2 and body["rule"] in ("follow-suit", "hold-card")
    assert body["detail"].startswith("The record starting on line 2 is broken: hand 1, trick 1")
    assert client.post("/api/replays", json={"text": text, "game": 1}).status_code == 200
    too_far = client.post("/api/replays", json={"text": text, "game": 3}).json()
    assert "holds 2 games: there is no game 3" in too_far["detail"]


def test_a_refused_card_in_a_pretty_printed_record_names_its_own_line(
    client: TestClient,
) -> None:
    """The download is pretty-printed: the refusal points at the card's line, not
    the record's first, and says who broke the rule with the card in words."""
    text = revoked_record()
    body = client.post("/api/replays", json={"text": text}).json()
    line = body["line"]
    assert line > 1
    bad = json.loads(text)["hands"][0]["tricks"][0]["cards"]
    assert text.splitlines()[line - 1].strip().strip('",') in bad
    assert body["detail"].startswith(f"The record starting on line 1 is broken at line {line}:")
    assert "hand 1, trick 1, East's " in body["detail"]
    assert "You " not in body["detail"]
    assert "East must follow suit: East holds" in body["detail"] or (
        "East does not hold" in body["detail"]
    )


def test_bad_requests_to_open_a_file_are_refused_with_a_reason(client: TestClient) -> None:
    huge = client.post("/api/replays", json={"text": " " * (MAX_RECORD_CHARS + 1)})
    assert huge.status_code == 422 and "at most 2,000,000 characters" in huge.json()["detail"]
    assert len(huge.text) < 1000  # the input is not echoed back
    assert client.post("/api/replays", json={"text": 5}).status_code == 422
    zero = client.post("/api/replays", json={"text": "{}", "game": 0})
    assert zero.status_code == 422 and "whole number from 1" in zero.json()["detail"]


# ------------------------------------------------------------------ reviews


@pytest.mark.slow
def test_a_hand_is_reviewed_in_the_background(app: FastAPI, client: TestClient) -> None:
    game = start_game(client)["game"]
    assert client.get(f"/api/games/{game['id']}/hands/1/review").status_code == 409
    game = play_to_hand_two(client, game)
    path = f"/api/games/{game['id']}/hands/1/review"
    first = client.get(path)
    # The work is not done in the request: it answers "analysing" while another
    # process reviews (seconds of solving; a bound on the request's own time would
    # only say how busy the machine is).
    assert first.status_code == 202 and first.json()["status"] == "analysing"
    review = wait_for_review(client, path)
    assert review["status"] == "ready" and review["hand"] == 1 and review["deals"] == 16
    assert review["judged"] > 10
    for play in review["plays"]:
        assert play["verdict"] in ("mistake", "double-dummy only")
        assert play["yours"] == (play["seat"] == "S") and play["explanation"]
        if play["verdict"] == "mistake":
            assert play["lost"] and play["better"]
        else:
            assert play["double_dummy"]["mistake"] and "could not have known" in play["explanation"]
    assert client.get(path).json() == review  # kept
    assert client.get(f"/api/games/{game['id']}/hands/2/review").status_code == 409
    assert client.get(f"/api/games/{game['id']}/hands/9/review").status_code == 404


@pytest.mark.slow
def test_the_review_spares_a_guess_and_names_a_real_mistake(
    app: FastAPI, client: TestClient
) -> None:
    """The hand-checked hands of tests/solver/test_information.py, each the
    first hand of a stored game: South's lost guess is a double-dummy opinion only;
    South's discard of a sure trick is a mistake, and the second opinion agrees."""
    start_game(client)
    guess = hand_from_tricks(TRICKS_1_TO_11 + GUESS_ENDING)
    ruff = hand_from_tricks(RUFF_TRICKS + RUFF_ENDING)
    game_id = store(app, client, game_of_hands(guess))
    review = wait_for_review(client, f"/api/games/{game_id}/hands/1/review")
    spared = next(p for p in review["plays"] if p["trick"] == 12 and p["seat"] == "S")
    assert spared["verdict"] == "double-dummy only" and spared["card"] == "QC"
    assert spared["yours"] and spared["double_dummy"]["better"] == ["QD"]
    assert "But you could not have known it" in spared["explanation"]
    assert spared["explanation"].endswith("no card did clearly better than the Queen of clubs.")

    second = store(app, client, game_of_hands(ruff))
    review = wait_for_review(client, f"/api/games/{second}/hands/1/review")
    blamed = next(p for p in review["plays"] if p["trick"] == 12 and p["seat"] == "S")
    assert blamed["verdict"] == "mistake" and blamed["card"] == "QD"
    assert blamed["lost"] == ["tricks"] and blamed["better"] == "2S"
    assert blamed["tricks_lost"] == 1.0 and blamed["double_dummy"]["mistake"]
    # In the page's words: the card by its name, South as "you".
    assert blamed["explanation"].startswith(
        "Your Queen of diamonds cost 1.0 trick on average: ruffing with the 2 of spades"
    )
    assert review["tricks_lost"]["S"] >= 1.0


def test_openapi_describes_the_new_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {
        "/api/games/{game_id}/record",
        "/api/games/{game_id}/replay",
        "/api/replays",
        "/api/games/{game_id}/hands/{number}/review",
    } <= set(paths)


def test_the_page_loads_its_new_modules(client: TestClient) -> None:
    page = client.get("/").text
    assert '<link rel="stylesheet" href="/static/extras.css">' in page
    for asset in ("records.js", "replay.js", "review.js", "sound.js", "extras.css"):
        assert client.get(f"/static/{asset}").status_code == 200, asset


def test_a_review_process_that_dies_is_retried_then_reported(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review process killed mid-work: the review is started again; if that
    one dies too, the page is told it failed instead of waiting for ever."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from spades.server.records import reviews

    started: list[int] = []

    def dying(self: reviews.HandReviewer, *_args: object, **_kwargs: object) -> Future[Any]:
        started.append(1)
        future: Future[Any] = Future()
        future.set_exception(BrokenProcessPool("killed"))
        return future

    monkeypatch.setattr(reviews.HandReviewer, "_submit", dying)
    start_game(client)
    game_id = store(app, client, game_of_hands(hand_from_tricks(RUFF_TRICKS + RUFF_ENDING)))
    path = f"/api/games/{game_id}/hands/1/review"
    assert client.get(path).status_code == 202  # died: started again
    failed = client.get(path)
    assert failed.status_code == 200 and failed.json()["status"] == "failed"
    assert "the review process stopped" in failed.json()["detail"]
    assert len(started) == 2


def test_a_whole_game_file_opens_though_larger_than_other_requests(client: TestClient) -> None:
    """Bodies are capped at 64 KiB, but a file of two pretty-printed games (or
    one long game) is larger: opening a record file has a cap of its own, and
    past it a 413 says so."""
    games = [play_game(seat_bots(dict.fromkeys(SEATS, "normal"), s), seed=s) for s in (1, 2)]
    text = json.dumps([game_to_record(game) for game in games], indent=2)
    assert len(json.dumps({"text": text})) > MAX_BODY_BYTES  # the case this test is about
    response = client.post("/api/replays", json={"text": text, "game": 2})
    assert response.status_code == 200, response.text[:200]
    assert len(response.json()["hands"]) == len(games[1].history)
    huge = client.post(
        "/api/replays",
        content=b'{"text": "' + b" " * MAX_RECORD_BODY_BYTES + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert huge.status_code == 413 and "at most 4096 KiB" in huge.json()["detail"]
    other = client.post("/api/games", content=b" " * (MAX_BODY_BYTES + 1))
    assert other.status_code == 413 and "at most 64 KiB" in other.json()["detail"]
