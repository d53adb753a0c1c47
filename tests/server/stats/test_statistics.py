"""Statistics across the browser player's games, from the games kept."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.arena import play_game, seat_bots
from spades.core import NIL, SOUTH, Game, game_to_record, score_hand
from spades.server.deps import COOKIE
from spades.server.stats.statistics import player_statistics
from spades.storage import PlayedRecord, owner_key

from ..conftest import start_game, stored_game
from ..play.moves import bid, claim, in_play, late_position, play, undo

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


def finished_game(seed: int, levels: tuple[str, str, str, str]) -> Game:
    """A whole game of quick bots, seats N, E, S, W playing ``levels``."""
    game = play_game(seat_bots(dict(enumerate(levels)), seed), seed=seed)
    assert game.is_over
    return game


def keep(app: FastAPI, client: TestClient, game: Game, opponents: str) -> None:
    """Store ``game`` as one of ``client``'s games."""
    app.state.repository.create(
        owner_key(client.cookies[COOKIE]), game, partner_level="random", opponent_level=opponents
    )


def expected_hands(games: list[Game]) -> dict[str, Any]:
    """The hand counts worked out from the engine's own games, independently."""
    hands = made = set_ = nil_tried = nil_made = points = bags = 0
    for game in games:
        for scored in game.history:
            state = scored.state
            ns = score_hand([NIL if b is None else b for b in state.bids], state.tricks_won)[0]
            hands += 1
            points += scored.scores[0].delta
            bags += ns.bags_taken
            if ns.made is not None:
                made += ns.made
                set_ += not ns.made
            if state.bids[SOUTH] == NIL:
                nil_tried += 1
                nil_made += state.tricks_won[SOUTH] == 0
    return {
        "hands": hands,
        "contracts_made": made,
        "contracts_set": set_,
        "nil_tried": nil_tried,
        "nil_made": nil_made,
        "points_per_hand": round(points / hands, 1),
        "bags_per_hand": round(bags / hands, 2),
    }


def test_a_new_visitor_has_empty_statistics(client: TestClient) -> None:
    body = client.get("/api/statistics").json()
    assert body["games"] == 0 and body["hands"] == 0 and body["by_level"] == []
    assert body["points_per_hand"] is None and body["recent"] == []


def test_results_by_level_and_every_hand_count(app: FastAPI, client: TestClient) -> None:
    start_game(client)  # an unfinished game: counted as started, not as won or lost
    games = [
        finished_game(1, ("random", "random", "random", "random")),
        finished_game(2, ("random", "easy", "random", "easy")),
        finished_game(3, ("random", "random", "random", "random")),
    ]
    keep(app, client, games[0], "random")
    keep(app, client, games[1], "easy")
    keep(app, client, games[2], "random")
    body = client.get("/api/statistics").json()
    assert body["games"] == 4 and body["finished"] == 3
    wins = [g.outcome.winner == 0 for g in games if g.outcome]
    assert body["won"] == sum(wins) and body["lost"] == 3 - sum(wins)
    assert body["by_level"] == [
        {"opponents": "easy", "played": 1, "won": int(wins[1]), "lost": int(not wins[1])},
        {
            "opponents": "random",
            "played": 2,
            "won": int(wins[0]) + int(wins[2]),
            "lost": 2 - int(wins[0]) - int(wins[2]),
        },
    ]
    assert {key: body[key] for key in expected_hands(games)} == expected_hands(games)
    assert len(body["recent"]) == min(40, body["hands"])
    last = games[2].history[-1]
    assert body["recent"][-1]["points"] == last.scores[0].delta


def test_undos_and_claims_are_counted(app: FastAPI, client: TestClient) -> None:
    game = in_play(client, cards=2)
    play(client, game)
    undo(client, game)
    play(client, game)
    undo(client, game)
    late = late_position(app, client, short_of_all=True)
    claim(client, late, late["claim"]["tricks_left"])
    body = client.get("/api/statistics").json()
    assert body["undos"] == 2 and body["games_with_undos"] == 1
    assert body["claims"] == 1 and body["claims_held"] == 0
    assert stored_game(app, client, game["id"]).undos


def test_the_statistics_are_the_callers_own(client: TestClient, other_client: TestClient) -> None:
    bid(client, start_game(client)["game"])
    start_game(other_client)
    assert client.get("/api/statistics").json()["games"] == 1
    assert other_client.get("/api/statistics").json()["games"] == 1


def test_a_damaged_record_counts_for_nothing() -> None:
    good = finished_game(4, ("random", "random", "random", "random"))
    damaged = game_to_record(good)
    damaged["hands"][-1]["score"] = "lost"
    stats = player_statistics(
        PlayedRecord("S", record) for record in (game_to_record(good), damaged, {"hands": None})
    )
    assert stats.games == 1 and stats.hands == len(good.history)
