"""Games with friends through the API: a table, invites, joining, live play over
the WebSocket and by polling, people leaving and coming back, and no seat ever
sent another seat's hidden cards."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from spades.core import Game
from spades.core.cards import CARD_NAMES, cards_in
from spades.core.seats import SEAT_LETTERS
from spades.server.app import create_app
from spades.server.tables.routes import COOKIE
from spades.server.tables.service import TABLE_OWNER

from ..clocks import ManualClock

pytestmark = pytest.mark.both_databases

SHORT = "cardcouch,target=1"
"""A game that ends after the hand a team first scores in: a whole game, quickly."""
TABLE = {"seats": {"N": "person", "E": "random", "S": "person", "W": "random"}, "rules": SHORT}


@pytest.fixture
def clock() -> ManualClock:
    """The tables' time: it stands still until a test moves it on."""
    return ManualClock()


@pytest.fixture
def app(db_url: str, clock: ManualClock) -> Iterator[FastAPI]:
    """The app of ``conftest.py``, its live tables on ``clock``: a wait or a turn
    timer runs out when the test says, and two quick requests are never a second apart."""
    application = create_app(db_url, default_level="normal", clock=clock, timer=clock.timer)
    yield application
    application.state.repository.close()


@pytest.fixture
def third_client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def new_table(client: TestClient, **changes: Any) -> dict[str, Any]:
    response = client.post(
        "/api/tables", json={**TABLE, "host_seat": "S", "name": "Ann", **changes}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def join(client: TestClient, table: dict[str, Any], seat: str, name: str) -> dict[str, Any]:
    invite = table["invites"][seat]
    response = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": seat, "invite": invite, "name": name}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def engine_game(app: FastAPI, table_id: str) -> Game:
    """The server's whole game, every seat's cards: for checking, never for playing."""
    stored = app.state.repository.load(TABLE_OWNER, table_id)
    assert stored is not None
    game: Game = stored.game
    return game


def card_names(message: Any) -> set[str]:
    """Every string in a message that names a card."""
    found: set[str] = set()
    if isinstance(message, dict):
        for value in message.values():
            found |= card_names(value)
    elif isinstance(message, list):
        for value in message:
            found |= card_names(value)
    elif isinstance(message, str) and message in CARD_NAMES:
        found.add(message)
    return found


def check_hidden(app: FastAPI, table_id: str, seat: str, message: dict[str, Any]) -> None:
    """``message`` names no card but ``seat``'s own, those played, and those passed to it."""
    game = engine_game(app, table_id)
    index = SEAT_LETTERS.index(seat)
    played = {
        CARD_NAMES[card]
        for _dealer, _deal in game.deals()
        for card in range(52)
        if any(
            card in trick.cards
            for state in [*(h.state for h in game.history), game.hand]
            for trick in state.tricks
        )
        or card in game.hand.trick
    }
    view = game.view(index)
    own = {CARD_NAMES[c] for c in cards_in(view.hand | view.passed | view.received)}
    leaked = card_names(message) - played - own
    assert not leaked, f"{seat} was sent another seat's cards: {sorted(leaked)}"


def move(client: TestClient, table_id: str, game: dict[str, Any], rng: random.Random) -> Any:
    """A legal move for the seat whose view ``game`` is."""
    if game["phase"] == "bidding":
        bid = rng.choice(game["legal_bids"] or ["nil"])
        return client.post(f"/api/tables/{table_id}/bid", json={"bid": bid})
    if game["phase"] == "passing":
        count = game["passing"]["count"]
        return client.post(f"/api/tables/{table_id}/pass", json={"cards": game["hand"][:count]})
    return client.post(
        f"/api/tables/{table_id}/play", json={"card": rng.choice(game["legal_cards"])}
    )


def seat_of(message: dict[str, Any], seat: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in message["table"]["seats"] if s["seat"] == seat)
    return found


def until(socket: Any, wanted: Any, most: int = 100) -> dict[str, Any]:
    """The first message on ``socket`` that is ``wanted`` (of the next ``most``)."""
    for _ in range(most):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == "update" and wanted(message):
            return message
    raise AssertionError("no such message came")


# ------------------------------------------------------------------- setting up


def test_a_table_gives_the_host_a_seat_a_scoped_http_only_cookie_and_invites(
    client: TestClient,
) -> None:
    response = client.post("/api/tables", json={**TABLE, "host_seat": "S", "name": " Ann  Lee "})
    assert response.status_code == 201, response.text
    cookie = response.headers["set-cookie"]
    table = response.json()
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert f"Path=/api/tables/{table['id']}" in cookie
    assert table["host"] and table["you"] == "S" and not table["started"]
    assert set(table["invites"]) == {"N"}  # the host's seat is taken, bots need none
    seats = {seat["seat"]: seat for seat in table["seats"]}
    assert seats["S"]["name"] == "Ann Lee" and seats["N"]["name"] is None
    assert seats["E"] == {
        "seat": "E", "kind": "bot", "name": None, "level": "random",
        "connected": False, "away_seconds_left": None, "stood_in": False,
    }  # fmt: skip
    assert table["rules"] == SHORT


def test_an_invite_opens_its_seat_once_and_names_are_checked(
    client: TestClient, other_client: TestClient, third_client: TestClient
) -> None:
    table = new_table(client)
    table_id = table["id"]
    assert other_client.get(f"/api/tables/{table_id}").status_code == 404
    wrong = other_client.get(f"/api/tables/{table_id}", params={"seat": "N", "invite": "nope"})
    assert wrong.status_code == 404
    seen = other_client.get(
        f"/api/tables/{table_id}", params={"seat": "N", "invite": table["invites"]["N"]}
    )
    assert seen.status_code == 200 and seen.json()["invites"] == {} and not seen.json()["host"]
    bad = other_client.post(
        f"/api/tables/{table_id}/join",
        json={"seat": "N", "invite": table["invites"]["N"], "name": "<script>"},
    )
    assert bad.status_code == 422 and bad.json()["rule"] == "name"
    blank = other_client.post(
        f"/api/tables/{table_id}/join",
        json={"seat": "N", "invite": table["invites"]["N"], "name": "   "},
    )
    assert blank.status_code == 422 and "name" in blank.json()["detail"]
    joined = join(other_client, table, "N", "Bo")
    assert joined["you"] == "N" and not joined["host"]
    assert join(other_client, table, "N", "Bo")["you"] == "N"  # joining again: the same seat
    # A spent invite opens nothing: not the seat, not the table's names or presence.
    taken = third_client.post(
        f"/api/tables/{table_id}/join",
        json={"seat": "N", "invite": table["invites"]["N"], "name": "Cy"},
    )
    assert taken.status_code == 404 and taken.json()["rule"] == "not-found"
    assert "Bo" not in taken.text
    peek = third_client.get(
        f"/api/tables/{table_id}", params={"seat": "N", "invite": table["invites"]["N"]}
    )
    assert peek.status_code == 404 and "Bo" not in peek.text
    assert (
        other_client.get(f"/api/tables/{table_id}").json()["you"] == "N"
    )  # Bo's cookie still works
    # The host's lobby now shows Bo, and no invite is left to give.
    lobby = client.get(f"/api/tables/{table_id}").json()
    assert {s["seat"]: s["name"] for s in lobby["seats"]}["N"] == "Bo"
    assert lobby["invites"] == {}


def test_bad_tables_are_refused_with_a_reason(client: TestClient) -> None:
    bot_seat = client.post("/api/tables", json={**TABLE, "host_seat": "E", "name": "Ann"})
    assert bot_seat.status_code == 422 and "bot's seat" in bot_seat.json()["detail"]
    level = client.post("/api/tables", json={**TABLE, "seats": {"N": "wizard"}})
    assert level.status_code == 422 and "wizard" in level.json()["detail"]
    rules = client.post("/api/tables", json={**TABLE, "rules": "cardcouch,trumps=on"})
    assert rules.status_code == 422 and "trumps" in rules.json()["detail"]
    timer = client.post("/api/tables", json={**TABLE, "turn_seconds": 1})
    assert timer.status_code == 422 and "turn timer" in timer.json()["detail"]
    nameless = client.post("/api/tables", json={**TABLE, "host_seat": "S"})
    assert nameless.status_code == 422 and nameless.json()["rule"] == "name"


def test_only_the_host_starts_and_no_one_moves_before(
    client: TestClient, other_client: TestClient
) -> None:
    table = new_table(client)
    join(other_client, table, "N", "Bo")
    early = other_client.post(f"/api/tables/{table['id']}/bid", json={"bid": 3})
    assert early.status_code == 409 and early.json()["rule"] == "not-started"
    refused = other_client.post(f"/api/tables/{table['id']}/start")
    assert refused.status_code == 403 and refused.json()["rule"] == "host"
    started = client.post(f"/api/tables/{table['id']}/start")
    assert started.status_code == 200, started.text
    update = started.json()
    assert update["table"]["started"] and update["game"]["you"] == "S"
    assert update["events"][0]["type"] == "hand_dealt"
    assert client.post(f"/api/tables/{table['id']}/start").status_code == 409


# ------------------------------------------------------------------------ play


def test_two_people_play_a_whole_game_and_the_record_says_who_played(
    app: FastAPI, client: TestClient, other_client: TestClient
) -> None:
    table = new_table(client)
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    players = {"S": client, "N": other_client}
    update = client.post(f"/api/tables/{table_id}/start").json()
    rng = random.Random(3)
    for _ in range(400):
        game = update["game"]
        if game["phase"] == "over":
            break
        seat = game["turn"]
        assert seat in players, "the bots answer before a person's turn comes back"
        view = players[seat].get(f"/api/tables/{table_id}/game").json()
        check_hidden(app, table_id, seat, view)
        assert view["game"]["your_turn"] and view["game"]["you"] == seat
        other = "N" if seat == "S" else "S"
        refused = players[other].post(f"/api/tables/{table_id}/bid", json={"bid": 2})
        assert refused.status_code == 409  # never the other person's turn
        response = move(players[seat], table_id, view["game"], rng)
        assert response.status_code == 200, response.text
        update = response.json()
        check_hidden(app, table_id, seat, update)
    assert update["game"]["phase"] == "over" and update["game"]["game_over"] is not None
    record = engine_game(app, table_id)
    assert record.players == {0: "Bo", 1: "random", 2: "Ann", 3: "random"}
    who = update["table"]["played_by"]
    assert who and all(hand["N"] == ["Bo"] and hand["E"] == ["random"] for hand in who)
    download = client.get(f"/api/tables/{table_id}/record")
    assert download.status_code == 200
    assert download.json()["players"] == {"N": "Bo", "E": "random", "S": "Ann", "W": "random"}
    assert download.json()["played_by"] == who


def test_the_websocket_pushes_each_move_with_the_state_after_it(
    app: FastAPI, client: TestClient, other_client: TestClient
) -> None:
    table = new_table(client, seats={"N": "person", "E": "person", "S": "person", "W": "person"})
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    with other_client.websocket_connect(f"/api/tables/{table_id}/ws") as socket:
        first = socket.receive_json()
        assert first["type"] == "update" and first["table"]["you"] == "N"
        assert first["game"] is None  # the lobby: nothing dealt to show
        joined = {
            s["seat"]: s["connected"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]
        }
        assert joined["N"] and not joined["E"]
        started = client.post(f"/api/tables/{table_id}/start").json()
        pushed = socket.receive_json()
        check_hidden(app, table_id, "N", pushed)
        assert pushed["game"]["you"] == "N" and pushed["events"][0]["type"] == "hand_dealt"
        # E and W took no seat: the stand-in bids for them, and South's bid is pushed to North.
        game = started["game"]
        while game["turn"] not in ("S", "N"):
            game = client.get(f"/api/tables/{table_id}/game").json()["game"]
        if game["turn"] == "S":
            client.post(f"/api/tables/{table_id}/bid", json={"bid": 3})
            message = socket.receive_json()
            check_hidden(app, table_id, "N", message)
            bid = message["events"][0]
            assert bid["type"] == "bid_made" and bid["seat"] == "S" and bid["bid"] == 3
            assert bid["after"]["phase"] == "bidding" and bid["after"]["turn"] == "W"
            assert message["log"] == len(engine_game(app, table_id).log)


def test_no_seat_is_ever_sent_another_seats_cards(
    app: FastAPI, client: TestClient, other_client: TestClient
) -> None:
    """Every message of a whole game, over HTTP and the WebSocket, to both people."""
    table = new_table(client, rules="cardcouch,target=1,nil_pass=2")
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    players = {"S": client, "N": other_client}
    sockets = {
        seat: player.websocket_connect(f"/api/tables/{table_id}/ws")
        for seat, player in players.items()
    }
    opened = {seat: socket.__enter__() for seat, socket in sockets.items()}
    try:
        for seat, socket in opened.items():
            check_hidden(app, table_id, seat, socket.receive_json())
        update = client.post(f"/api/tables/{table_id}/start").json()
        rng = random.Random(11)
        messages = 0
        for _ in range(400):
            for seat, socket in opened.items():  # each socket was sent this change
                message = socket.receive_json()
                while message["log"] < len(engine_game(app, table_id).log):
                    message = socket.receive_json()
                check_hidden(app, table_id, seat, message)
                messages += 1
            game = update["game"]
            if game["phase"] == "over":
                break
            seat = game["turn"]
            view = players[seat].get(f"/api/tables/{table_id}/game").json()
            check_hidden(app, table_id, seat, view)
            update = move(players[seat], table_id, view["game"], rng).json()
            check_hidden(app, table_id, seat, update)
        assert update["game"]["phase"] == "over" and messages > 20
    finally:
        for socket in sockets.values():
            socket.__exit__(None, None, None)


def test_polling_sends_the_events_since_the_count_given(
    app: FastAPI, client: TestClient, other_client: TestClient
) -> None:
    table = new_table(client)
    join(other_client, table, "N", "Bo")
    table_id = table["id"]
    client.post(f"/api/tables/{table_id}/start")
    everything = other_client.get(f"/api/tables/{table_id}/game", params={"since": 0}).json()
    count = everything["log"]
    assert count == len(engine_game(app, table_id).log)
    assert len(everything["events"]) == count and not everything["resync"]
    later = other_client.get(f"/api/tables/{table_id}/game", params={"since": count}).json()
    assert later["events"] == [] and later["log"] == count
    assert other_client.get(f"/api/tables/{table_id}/game", params={"since": -1}).status_code == 422


def test_a_person_who_leaves_is_waited_for_then_a_bot_plays_until_they_return(
    app: FastAPI, client: TestClient, other_client: TestClient, clock: ManualClock
) -> None:
    table = new_table(
        client, away_seconds=5, seats={"N": "person", "E": "random", "S": "person", "W": "random"}
    )
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as south:
        south.receive_json()
        with other_client.websocket_connect(f"/api/tables/{table_id}/ws") as north:
            north.receive_json()
            south.receive_json()  # North is here
            update = client.post(f"/api/tables/{table_id}/start").json()
            rng = random.Random(5)
            while update["game"]["turn"] != "N":  # South plays until it is North's turn
                update = move(client, table_id, update["game"], rng).json()
            # North closes the page. The server sees the socket go on the event loop of
            # North's client, then sets the stand-in's wake-up: the test waits for it
            # there (leaving the block cancels whatever that loop is still running, and
            # whether it had set the wake-up by then was a race the test once lost).
            set_before = clock.wake_ups_set
            north.close()
            clock.wait_for_wake_up(after=set_before)
        # South is told, with the countdown. (Read by polling from here on: the test
        # client runs each of its clients on an event loop of its own, which the
        # server's one loop never does.)
        message = client.get(f"/api/tables/{table_id}/game").json()
        north_seat = seat_of(message, "N")
        assert not north_seat["connected"] and 0 < north_seat["away_seconds_left"] <= 5
        assert not north_seat["stood_in"]
        log_before = len(engine_game(app, table_id).log)
        # The wait runs out: the stand-in plays North's turn.
        assert clock.advance(5.5, client.portal.call) == 1
        message = client.get(f"/api/tables/{table_id}/game", params={"since": log_before}).json()
        assert message["log"] > log_before
        assert message["events"][0]["seat"] == "N"
        north_seat = seat_of(message, "N")
        assert north_seat["stood_in"] and north_seat["away_seconds_left"] == 0
        # Bo comes back (a reload): the seat is theirs again, the game exactly as it stands.
        back = other_client.get(f"/api/tables/{table_id}/game").json()
        assert back["table"]["you"] == "N"
        hand = engine_game(app, table_id).view(0).hand
        assert set(back["game"]["hand"]) == {CARD_NAMES[c] for c in cards_in(hand)}
        seats = {s["seat"]: s for s in back["table"]["seats"]}
        assert not seats["N"]["stood_in"] and seats["N"]["away_seconds_left"] is None
    who = engine_game(app, table_id)
    stored = app.state.repository.load(TABLE_OWNER, table_id)
    assert "normal for Bo" in stored.seating["played_by"][-1]["N"]  # the server's level
    assert who.players[0] == "Bo"


def test_reactions_reach_every_seat_and_are_rate_limited(
    client: TestClient, other_client: TestClient
) -> None:
    table = new_table(client)
    join(other_client, table, "N", "Bo")
    with other_client.websocket_connect(f"/api/tables/{table['id']}/ws") as north:
        north.receive_json()
        assert (
            client.post(f"/api/tables/{table['id']}/react", json={"reaction": "nice"}).status_code
            == 204
        )
        assert north.receive_json() == {
            "type": "reaction",
            "seat": "S",
            "name": "Ann",
            "reaction": "nice",
        }
        again = client.post(f"/api/tables/{table['id']}/react", json={"reaction": "wow"})
        assert again.status_code == 429
        chat = client.post(f"/api/tables/{table['id']}/react", json={"reaction": "hello there"})
        assert chat.status_code == 422 and "nice, oops" in chat.json()["detail"]


def test_a_stranger_reaches_nothing(
    app: FastAPI, client: TestClient, other_client: TestClient
) -> None:
    table = new_table(client)
    table_id = table["id"]
    client.post(f"/api/tables/{table_id}/start")
    assert other_client.get(f"/api/tables/{table_id}/game").status_code == 404
    assert other_client.post(f"/api/tables/{table_id}/bid", json={"bid": 3}).status_code == 404
    with (
        pytest.raises(WebSocketDisconnect),
        other_client.websocket_connect(f"/api/tables/{table_id}/ws") as socket,
    ):
        socket.receive_json()
    # And the single-player routes never reach a table's game.
    other_client.post("/api/games", json={"seed": 1, "partner": "random", "opponents": "random"})
    assert other_client.get(f"/api/games/{table_id}").status_code == 404


def test_the_turn_timer_lets_the_stand_in_move_for_a_person_who_stalls(
    app: FastAPI, client: TestClient, other_client: TestClient, clock: ManualClock
) -> None:
    table = new_table(client, turn_seconds=5)
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    with other_client.websocket_connect(f"/api/tables/{table_id}/ws") as north:
        north.receive_json()
        update = client.post(f"/api/tables/{table_id}/start").json()
        rng = random.Random(9)
        while update["game"]["turn"] != "N":
            update = move(client, table_id, update["game"], rng).json()
        waiting = until(north, lambda m: m["game"] is not None and m["game"]["your_turn"])
        left = waiting["table"]["turn_seconds_left"]
        assert left is not None and 0 < left <= 5
        log_before = waiting["log"]
        # Bo is here, but does not move: when the timer runs out the stand-in moves once
        # (on the event loop of Bo's client, whose socket it pushes to).
        clock.advance(5.5, other_client.portal.call)
        later = other_client.get(f"/api/tables/{table_id}/game", params={"since": log_before})
        message = later.json()
        assert message["log"] > log_before
        assert message["events"][0]["seat"] == "N"
        assert not seat_of(message, "N")["stood_in"]  # still Bo's seat: one move only
    stored = app.state.repository.load(TABLE_OWNER, table_id)
    assert "normal for Bo" in stored.seating["played_by"][0]["N"]


def test_the_host_frees_the_seat_of_someone_who_left_for_good(
    app: FastAPI,
    client: TestClient,
    other_client: TestClient,
    third_client: TestClient,
    clock: ManualClock,
) -> None:
    table = new_table(client, seats={"N": "person", "E": "random", "S": "person", "W": "random"})
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    started = client.post(f"/api/tables/{table_id}/start").json()
    assert started["game"] is not None
    # Only the host, only a person's seat someone holds, never the host's own.
    assert other_client.post(f"/api/tables/{table_id}/seats/N/free").status_code == 403
    for seat, words in (("E", "bot's seat"), ("S", "your own seat"), ("X", "")):
        refused = client.post(f"/api/tables/{table_id}/seats/{seat}/free")
        assert refused.status_code in (409, 422), (seat, refused.text)
        assert words in refused.json()["detail"]
    with other_client.websocket_connect(f"/api/tables/{table_id}/ws") as north:
        assert north.receive_json()["table"]["you"] == "N"
        freed = client.post(f"/api/tables/{table_id}/seats/N/free")
        assert freed.status_code == 200, freed.text
        info = freed.json()
        north_seat = next(s for s in info["seats"] if s["seat"] == "N")
        assert north_seat["name"] is None and north_seat["stood_in"]
        # A new invite for the seat; Bo's socket is closed before anyone takes it.
        assert info["invites"]["N"] != table["invites"]["N"]
        with pytest.raises(WebSocketDisconnect) as closed:
            north.receive_json()
        assert closed.value.code == 4403
    # Bo's cookie and old link open nothing now; the new link seats someone else.
    assert other_client.get(f"/api/tables/{table_id}/game").status_code == 404
    old = {"seat": "N", "invite": table["invites"]["N"], "name": "Bo"}
    assert other_client.post(f"/api/tables/{table_id}/join", json=old).status_code == 404
    cy = join(third_client, info, "N", "Cy")
    assert cy["you"] == "N"
    assert engine_game(app, table_id).players[0] == "Cy"
    assert client.post(f"/api/tables/{table_id}/seats/N/free").status_code == 200
    assert third_client.get(f"/api/tables/{table_id}/game").status_code == 404


# ------------------------------------------------------------------ statistics


def play_to_the_end(
    table_id: str, update: dict[str, Any], players: dict[str, TestClient]
) -> dict[str, Any]:
    """Each person's moves, at random, until the game is over; the last update."""
    rng = random.Random(5)
    for _ in range(400):
        if update["game"]["phase"] == "over":
            return update
        seat = update["game"]["turn"]
        view = players[seat].get(f"/api/tables/{table_id}/game").json()
        response = move(players[seat], table_id, view["game"], rng)
        assert response.status_code == 200, response.text
        update = response.json()
    raise AssertionError("the game did not end")


def test_a_finished_table_game_counts_in_each_players_statistics_from_their_seat(
    app: FastAPI, client: TestClient, other_client: TestClient, third_client: TestClient
) -> None:
    """Ann (the host, South) and Bo (East, her opponent) each find the table's
    game in their statistics once it is over, counted once, from their own
    seat and side; someone who never sat there does not."""
    table = new_table(client, seats={"N": "random", "E": "person", "S": "person", "W": "random"})
    table_id = table["id"]
    join(other_client, table, "E", "Bo")
    join(other_client, table, "E", "Bo")  # joining again is a no-op, and counts once
    update = client.post(f"/api/tables/{table_id}/start").json()
    assert client.get("/api/statistics").json()["games"] == 0  # not over yet: not counted
    update = play_to_the_end(table_id, update, {"S": client, "E": other_client})
    start_solo = client.post("/api/games", json={"seed": 4, "opponents": "random"})
    assert start_solo.status_code == 201, start_solo.text  # and one game of Ann's own

    game = engine_game(app, table_id)
    assert game.outcome is not None
    for person, seat, own_games in ((client, 2, 1), (other_client, 1, 0)):
        team = seat & 1
        body = person.get("/api/statistics").json()
        deltas = [scored.scores[team].delta for scored in game.history]
        won = int(game.outcome.winner == team)
        assert body["games"] == 1 + own_games and body["finished"] == 1
        assert (body["won"], body["lost"]) == (won, 1 - won)
        assert body["hands"] == len(game.history)
        assert body["points_per_hand"] == round(sum(deltas) / len(deltas), 1)
        assert [hand["points"] for hand in body["recent"]] == deltas
        assert body["nil_tried"] == sum(
            scored.state.bids[seat] in (0, -1) for scored in game.history
        )
        assert body["by_level"] == [
            {"opponents": "friends", "played": 1, "won": won, "lost": 1 - won}
        ]
        assert card_names(body) == set()  # totals only: no card of anyone's
    assert third_client.get("/api/statistics").json()["games"] == 0


def test_a_freed_seat_no_longer_counts_for_the_one_who_left(
    app: FastAPI, client: TestClient, other_client: TestClient, third_client: TestClient
) -> None:
    """The host frees Bo's seat and Cy takes it: the finished game is Cy's, not Bo's."""
    table = new_table(client)
    table_id = table["id"]
    join(other_client, table, "N", "Bo")
    freed = client.post(f"/api/tables/{table_id}/seats/N/free")
    assert freed.status_code == 200, freed.text
    join(third_client, freed.json(), "N", "Cy")
    update = client.post(f"/api/tables/{table_id}/start").json()
    play_to_the_end(table_id, update, {"S": client, "N": third_client})
    assert third_client.get("/api/statistics").json()["games"] == 1
    assert other_client.get("/api/statistics").json()["games"] == 0
    assert client.get("/api/statistics").json()["games"] == 1
