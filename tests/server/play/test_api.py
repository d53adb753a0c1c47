"""The web API: every route, and every kind of bad input refused with a reason
while the game stays as it was."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.bots import BOT_LEVELS
from spades.core import SOUTH, card_name, game_to_record
from spades.core.cards import SUIT_MASKS, SUIT_OF, cards_in
from spades.server.app import create_app

from ..conftest import south_move, start_game, stored_game, without_after

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


def snapshot(app: FastAPI, client: TestClient, game_id: str) -> dict[str, Any]:
    return game_to_record(stored_game(app, client, game_id))


def test_page_and_assets_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for asset in ("app.js", "cards.js", "style.css"):
        assert client.get(f"/static/{asset}").status_code == 200
    assert client.get("/favicon.ico").status_code == 200
    assert client.head("/").status_code == 200


def test_openapi_docs_are_served_without_a_cdn(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200
    assert "cdn" not in docs.text.lower()
    schema = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/bid", "/api/games/{game_id}/hint"} <= set(
        schema["paths"]
    )


def test_levels_lists_bot_levels(client: TestClient) -> None:
    body = client.get("/api/levels").json()
    assert body["levels"] == list(BOT_LEVELS)
    assert body["default"] == "normal"  # as the test app was told (see conftest)
    assert body["hint"] in BOT_LEVELS
    assert set(body["summaries"]) == set(BOT_LEVELS) and all(body["summaries"].values())


def test_new_games_seat_the_strongest_level_within_a_second_by_default(db_url: str) -> None:
    application = create_app(db_url)  # as `spades serve` starts it
    try:
        with TestClient(application) as fresh:
            assert fresh.get("/api/levels").json()["default"] == "expert"
    finally:
        application.state.repository.close()


def test_new_game_sets_an_http_only_cookie_and_lets_bots_bid_first(client: TestClient) -> None:
    response = client.post("/api/games", json={"seed": 7, "partner": "easy"})
    assert response.status_code == 201
    cookie = response.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    body = response.json()
    game = body["game"]
    assert game["turn"] == "S" and game["your_turn"] and game["phase"] == "bidding"
    first_bidder = "NESW"[("NESW".index(game["dealer"]) + 1) % 4]
    assert body["events"][0] == {
        "type": "hand_dealt",
        "hand": 1,
        "dealer": game["dealer"],
        # Each event carries the table just after it, from the engine.
        "after": {
            "hand": 1,
            "phase": "bidding",
            "turn": first_bidder,
            "tricks_played": 0,
            "spades_broken": False,
            "teams": {
                team: {"bid": None, "nil_seats": [], "tricks": 0, "left": 0}
                for team in ("NS", "EW")
            },
            "scores": {"NS": 0, "EW": 0},
            "bags": {"NS": 0, "EW": 0},
        },
    }
    bidders = [e["seat"] for e in body["events"] if e["type"] == "bid_made"]
    # Everyone left of the dealer up to South has bid, in order.
    order = "NESW"
    expected = []
    seat = order[(order.index(game["dealer"]) + 1) % 4]
    while seat != "S":
        expected.append(seat)
        seat = order[(order.index(seat) + 1) % 4]
    assert bidders == expected
    assert len(game["hand"]) == 13
    assert game["settings"] == {
        "partner": "easy",
        "opponents": "normal",
        "west": "normal",
        "east": "normal",
        "undo": True,
    }


def test_same_seed_and_moves_give_the_same_game(client: TestClient) -> None:
    first = start_game(client, seed=99)
    second = start_game(client, seed=99)
    assert first["events"] == second["events"]
    assert first["game"]["hand"] == second["game"]["hand"]


def test_get_latest_and_list(client: TestClient) -> None:
    assert client.get("/api/games").json() == {"games": []}
    older = start_game(client, seed=1)["game"]["id"]
    newer = start_game(client, seed=2)["game"]["id"]
    assert client.get("/api/games/latest").json()["game"]["id"] == newer
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [newer, older]
    fetched = client.get(f"/api/games/{older}").json()
    assert fetched["events"] == [] and fetched["game"]["id"] == older


def test_bid_then_bots_play_until_south(app: FastAPI, client: TestClient) -> None:
    game = start_game(client)["game"]
    response = client.post(f"/api/games/{game['id']}/bid", json={"bid": 3})
    assert response.status_code == 200
    body = response.json()
    assert without_after(body["events"][0]) == {"type": "bid_made", "seat": "S", "bid": 3}
    after = body["game"]
    assert after["your_turn"] or after["phase"] == "over"
    assert after["seats"][2]["bid"] == 3
    assert after["version"] == game["version"] + 1
    engine = stored_game(app, client, game["id"])
    assert engine.to_act == SOUTH
    assert sorted(after["legal_cards"]) == sorted(card_name(c) for c in engine.legal_cards())


def test_nil_bid_by_name(client: TestClient) -> None:
    game = start_game(client)["game"]
    body = client.post(f"/api/games/{game['id']}/bid", json={"bid": "Nil"}).json()
    assert without_after(body["events"][0]) == {"type": "bid_made", "seat": "S", "bid": "nil"}
    assert body["game"]["teams"][0]["nil_seats"] == ["S"]


def test_play_a_card(client: TestClient) -> None:
    game = client.post(f"/api/games/{start_game(client)['game']['id']}/bid", json={"bid": 2})
    state = game.json()["game"]
    card = state["legal_cards"][0]
    body = client.post(f"/api/games/{state['id']}/play", json={"card": card.lower()}).json()
    assert {"type": "card_played", "seat": "S", "card": card} in map(without_after, body["events"])
    assert card not in body["game"]["hand"]


def test_hint_for_bid_and_card(client: TestClient) -> None:
    game = start_game(client)["game"]
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["kind"] == "bid" and hint["reason"]
    assert hint["bid"] in game["legal_bids"]
    assert hint["level"] in BOT_LEVELS
    state = client.post(f"/api/games/{game['id']}/bid", json={"bid": 3}).json()["game"]
    hint = client.get(f"/api/games/{game['id']}/hint").json()
    assert hint["kind"] == "card" and hint["card"] in state["legal_cards"]
    assert hint["card_name"] and hint["reason"]
    # Asking changes nothing.
    assert client.get(f"/api/games/{game['id']}").json()["game"] == state


# ----------------------------------------------------------------- bad input


def assert_refused(
    response: Any, status: int, rule: str, words: str, app: FastAPI, client: TestClient,
    game_id: str, before: dict[str, Any],
) -> None:  # fmt: skip
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"detail", "rule"}
    assert body["rule"] == rule
    assert words.lower() in body["detail"].lower()
    assert snapshot(app, client, game_id) == before, "a refused request changed the game"


@pytest.mark.parametrize(
    ("bid", "status", "rule", "words"),
    [
        (0, 422, "bid", 'bid "nil"'),
        (14, 422, "bid", "A bid is Nil or a number from 1 to 13, not 14"),
        (-1, 422, "bid", "from 1 to 13"),
        ("pass", 422, "bid", "is not a bid"),
        (3.5, 422, "request", "whole number"),
        (True, 422, "request", "whole number"),
        (None, 422, "request", "whole number"),
    ],
)
def test_illegal_bids_are_refused(
    app: FastAPI, client: TestClient, bid: Any, status: int, rule: str, words: str
) -> None:
    game_id = start_game(client)["game"]["id"]
    before = snapshot(app, client, game_id)
    response = client.post(f"/api/games/{game_id}/bid", json={"bid": bid})
    assert_refused(response, status, rule, words, app, client, game_id, before)


def test_malformed_requests_are_refused(app: FastAPI, client: TestClient) -> None:
    game_id = start_game(client)["game"]["id"]
    before = snapshot(app, client, game_id)
    url = f"/api/games/{game_id}/bid"
    json_headers = {"content-type": "application/json"}
    cases = [
        (client.post(url, content="{bid: 3", headers=json_headers), "not valid JSON"),
        (client.post(url, content="[3]", headers=json_headers), "JSON object"),
        (client.post(url, content="", headers=json_headers), "needs a JSON body"),
        (client.post(url, json={}), "missing 'bid'"),
        (client.post(url, json={"bid": 3, "seat": "N"}), "Unknown field 'seat'"),
        (client.post(f"/api/games/{game_id}/play", json={"card": 12}), "rank then suit"),
        (client.post("/api/games", json={"seed": -1}), "seed"),
        (client.post("/api/games", json={"seed": "x"}), "seed"),
    ]
    for response, words in cases:
        assert_refused(response, 422, "request", words, app, client, game_id, before)
    # A body that is not JSON is refused before any route (server/guards.py): a page
    # elsewhere may post text or a form without asking the browser's leave.
    plain = client.post(url, content="bid=3", headers={"content-type": "text/plain"})
    assert_refused(plain, 415, "content-type", "JSON", app, client, game_id, before)


def test_unknown_settings_are_refused(client: TestClient) -> None:
    response = client.post("/api/games", json={"partner": "grandmaster"})
    assert response.status_code == 422
    assert response.json()["rule"] == "settings"
    assert "grandmaster" in response.json()["detail"]


def test_out_of_turn_and_wrong_phase(app: FastAPI, client: TestClient) -> None:
    game = start_game(client)["game"]
    before = snapshot(app, client, game["id"])
    response = client.post(f"/api/games/{game['id']}/play", json={"card": game["hand"][0]})
    assert_refused(response, 409, "turn", "bidding is not over", app, client, game["id"], before)
    state = client.post(f"/api/games/{game['id']}/bid", json={"bid": 3}).json()["game"]
    before = snapshot(app, client, game["id"])
    response = client.post(f"/api/games/{game['id']}/bid", json={"bid": 3})
    assert_refused(response, 409, "turn", "bidding is over", app, client, game["id"], before)
    assert state["your_turn"]


def test_illegal_cards_carry_the_engines_message_and_rule(app: FastAPI, client: TestClient) -> None:
    game = start_game(client)["game"]
    game_id = game["id"]
    client.post(f"/api/games/{game_id}/bid", json={"bid": 3})
    engine = stored_game(app, client, game_id)
    view = engine.view(SOUTH)
    before = snapshot(app, client, game_id)
    unheld = next(c for c in cards_in(~view.hand & ((1 << 52) - 1)) if not view.played >> c & 1)
    response = client.post(f"/api/games/{game_id}/play", json={"card": card_name(unheld)})
    assert_refused(response, 422, "hold-card", "You do not hold the", app, client, game_id, before)
    response = client.post(f"/api/games/{game_id}/play", json={"card": "ZZ"})
    assert_refused(response, 422, "card", "is not a card", app, client, game_id, before)
    if view.trick:
        led = SUIT_OF[view.trick[0]]
        off_suit = [c for c in cards_in(view.hand) if SUIT_OF[c] != led]
        if view.hand & SUIT_MASKS[led] and off_suit:
            response = client.post(
                f"/api/games/{game_id}/play", json={"card": card_name(off_suit[0])}
            )
            assert_refused(
                response, 422, "follow-suit", "You must follow suit", app, client, game_id, before
            )


def test_leading_a_spade_before_spades_are_broken(app: FastAPI, client: TestClient) -> None:
    # Find a seed where South leads trick 1 holding a spade and another suit.
    for seed in range(200):
        game = start_game(client, seed=seed)["game"]
        state = client.post(f"/api/games/{game['id']}/bid", json={"bid": 3}).json()["game"]
        spades = [c for c in state["hand"] if c.endswith("S")]
        if not state["trick"]["cards"] and state["tricks_played"] == 0 and spades:
            before = snapshot(app, client, game["id"])
            response = client.post(f"/api/games/{game['id']}/play", json={"card": spades[0]})
            assert_refused(
                response, 422, "first-lead", "may not lead a spade", app, client, game["id"], before
            )
            return
    pytest.fail("no seed below 200 lets South lead the first trick")


def test_unknown_game_is_404(client: TestClient) -> None:
    start_game(client)
    for method, path, body in [
        ("GET", "/api/games/nope", None),
        ("POST", "/api/games/nope/bid", {"bid": 3}),
        ("POST", "/api/games/nope/play", {"card": "AS"}),
        ("GET", "/api/games/nope/hint", None),
    ]:
        response = client.request(method, path, json=body)
        assert response.status_code == 404
        assert response.json() == {
            "detail": "No such game: it does not exist or it is not yours.",
            "rule": "not-found",
        }


def test_without_a_cookie_there_is_no_game(client: TestClient, other_client: TestClient) -> None:
    start_game(client)
    assert other_client.get("/api/games/latest").status_code == 204
    assert other_client.get("/api/games").json() == {"games": []}


def test_unknown_route_and_method(client: TestClient) -> None:
    assert client.get("/api/nothing").json() == {"detail": "Not Found", "rule": "http"}
    assert client.delete("/api/games").status_code == 405


def test_finished_game_refuses_moves_and_hints(app: FastAPI, client: TestClient) -> None:
    # A game to 100 points: over in a few hands (one to 500 was most of this module's time).
    game = start_game(client, seed=3, rules="cardcouch,target=100")["game"]
    while game["phase"] != "over":
        response = south_move(client, game)
        assert response.status_code == 200, response.text
        game = response.json()["game"]
    over = game["game_over"]
    assert over["winner"] in ("NS", "EW") and over["reason"]
    assert max(over["totals"].values()) >= 100 or min(over["totals"].values()) <= -200
    before = snapshot(app, client, game["id"])
    for response in (
        client.post(f"/api/games/{game['id']}/bid", json={"bid": 3}),
        client.post(f"/api/games/{game['id']}/play", json={"card": "AS"}),
        client.get(f"/api/games/{game['id']}/hint"),
    ):
        assert_refused(
            response, 409, "game-over", "The game is over", app, client, game["id"], before
        )
    assert game["legal_cards"] == [] and game["legal_bids"] == [] and not game["your_turn"]
    sheet = game["score_sheet"]
    assert len(sheet) >= 2
    assert [hand["hand"] for hand in sheet] == list(range(1, len(sheet) + 1))
    assert sheet[-1]["teams"][0]["total"] == over["totals"]["NS"]


def test_stale_write_is_refused(app: FastAPI, client: TestClient) -> None:
    game_id = start_game(client)["game"]["id"]
    service = app.state.service
    owner = app.state.repository
    from spades.server.deps import COOKIE
    from spades.storage import StaleGameError, owner_key

    key = owner_key(client.cookies[COOKIE])
    first = owner.load(key, game_id)
    second = owner.load(key, game_id)
    owner.save(key, first)
    with pytest.raises(StaleGameError):
        owner.save(key, second)
    assert service is not None
