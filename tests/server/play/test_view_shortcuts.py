"""The view's shortcuts give what the long way gives: kept score sheet lines and
the claim choices asked of the rules twice instead of once a trick."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import spades.server.play.views as views_module
from spades.core import SOUTH, Game, IllegalClaimError, claim_terms
from spades.core.claims import tricks_left
from spades.core.hand import Phase
from spades.server.play.claims import claim_choices
from spades.server.play.views import ScoreSheets, hand_result

from ..conftest import start_game, stored_game


def test_claim_choices_agree_with_asking_the_rules_about_each_number() -> None:
    rng = random.Random(11)
    positions = 0
    nil_positions = 0
    for seed in range(60):
        game = Game(seed=seed)
        while not game.is_over and game.hand_number <= 2:
            seat = game.to_act
            assert seat is not None
            if game.phase is Phase.BIDDING:
                bids = game.legal_bids()  # Nil among them, often: it changes the terms
                game.bid(seat, rng.choice([bids[0], *bids[:5]]))
                continue
            if seat == SOUTH:
                hand = game.hand
                left = tricks_left(hand)
                asked = []
                for tricks in range(1, left + 1):
                    try:
                        claim_terms(hand, SOUTH, tricks)
                    except IllegalClaimError:
                        continue
                    asked.append(tricks)
                assert claim_choices(hand, left) == asked, (seed, hand.bids, left)
                positions += 1
                nil_positions += 0 in hand.bids
            game.play(seat, rng.choice(game.legal_cards()))
    assert positions > 1000 and nil_positions > 200


def fresh_sheet(game: Game) -> list[Any]:
    return [
        hand_result(scored, game.rules, claims=game.claims, undos=game.undos).model_dump(
            mode="json"
        )
        for scored in game.history
    ]


def test_kept_score_sheets_read_as_made_anew_through_undos_and_claims(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines_made: list[int] = []
    make_line = views_module.hand_result

    def counting(scored: Any, *args: Any, **kwargs: Any) -> Any:
        lines_made.append(scored.number)
        return make_line(scored, *args, **kwargs)

    monkeypatch.setattr(views_module, "hand_result", counting)
    rng = random.Random(2)
    game = start_game(client, seed=21, partner="normal", opponents="random")["game"]
    undone = claimed = checked = 0
    while game["phase"] != "over" and len(game["score_sheet"]) < 4:
        path = f"/api/games/{game['id']}"
        if game["undo"]["available"] and rng.random() < 0.1:
            response = client.post(f"{path}/undo")
            undone += 1
        elif game["claim"] and game["claim"]["available"] and game["claim"]["tricks_left"] <= 2:
            response = client.post(f"{path}/claim", json={"tricks": game["claim"]["choices"][-1]})
            claimed += 1
        elif game["phase"] == "bidding":
            response = client.post(f"{path}/bid", json={"bid": rng.choice([3, 4, "nil"])})
        else:
            response = client.post(f"{path}/play", json={"card": rng.choice(game["legal_cards"])})
        assert response.status_code == 200, response.text
        game = response.json()["game"]
        engine = stored_game(app, client, game["id"])
        assert game["score_sheet"] == fresh_sheet(engine)
        checked += 1
    assert undone and claimed and len(game["score_sheet"]) >= 3
    # The test's own lines come from the function itself, not the counted one:
    # the server made each hand's line once, in all those responses.
    assert lines_made == list(range(1, len(game["score_sheet"]) + 1))
    assert checked > 50


def test_a_kept_sheet_for_an_id_never_outgrows_its_game() -> None:
    """A sheet holding more hands than the game was scored (it cannot happen to
    one game: hands are never un-scored) is made anew, not trusted."""
    sheets = ScoreSheets()
    rng = random.Random(4)
    long_game, short_game = Game(seed=1), Game(seed=2)
    for game, hands in ((long_game, 3), (short_game, 1)):
        while len(game.history) < hands and not game.is_over:
            seat = game.to_act
            assert seat is not None
            if game.phase is Phase.BIDDING:
                game.bid(seat, 3)
            else:
                game.play(seat, rng.choice(game.legal_cards()))
    assert len(sheets.sheet("same-id", long_game)) == len(long_game.history)
    short = sheets.sheet("same-id", short_game)
    assert [line.model_dump() for line in short] == [
        hand_result(scored, short_game.rules).model_dump() for scored in short_game.history
    ]
