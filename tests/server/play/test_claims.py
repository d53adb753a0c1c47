"""Claims in the web game: checked double dummy against every defence; a held
claim ends the hand, a refused one changes nothing and says no more than it may."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import SOUTH, game_to_record
from spades.solver import SearchLimitError

from ..conftest import start_game, stored_game
from .moves import best_for_south, bid, claim, late_position, play
from .seen import names_in, visible_to_south


def test_a_claim_is_offered_when_south_is_to_play(client: TestClient) -> None:
    game = start_game(client, seed=7)["game"]
    assert game["claim"] is None  # bidding
    game = bid(client, game)["game"]
    offer = game["claim"]
    assert offer["tricks_left"] == 13 - game["tricks_played"]
    assert offer["available"] and offer["choices"][-1] == offer["tricks_left"]
    assert offer["note"]


def test_a_claim_that_holds_ends_the_hand_with_the_tricks(app: FastAPI, client: TestClient) -> None:
    game = late_position(app, client, short_of_all=False)
    left = game["claim"]["tricks_left"]
    tricks_before = {s["seat"]: s["tricks"] for s in game["seats"]}
    response = claim(client, game, left)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["claim"]["held"] is True
    words = "both tricks left" if left == 2 else f"all {left} tricks left"
    assert body["claim"]["message"] == f"Claim accepted: you and North take {words}."

    event = body["events"][0]
    assert event["type"] == "claim" and event["tricks"] == left
    assert event["awarded"]["S"] == left and sum(event["awarded"].values()) == left
    # The table after the claim counts the tricks it gave: the engine's contracts.
    teams = event["after"]["teams"]
    team_before = {t["team"]: t["tricks"] for t in game["teams"]}
    assert teams["NS"]["tricks"] == team_before["NS"] + left
    assert teams["NS"]["tricks"] + teams["EW"]["tricks"] == 13
    assert body["events"][1]["type"] == "hand_over"
    hand_over = body["events"][1]
    assert hand_over["tricks_won"]["S"] == tricks_before["S"] + left
    sheet = body["game"]["score_sheet"][-1]
    assert sheet["hand"] == game["hand_number"]
    assert any("the claim held" in note for note in sheet["notes"])
    record = game_to_record(stored_game(app, client, game["id"]))
    assert record["hands"][game["hand_number"] - 1]["claims"][-1]["held"] is True


def test_a_refused_claim_changes_nothing_and_names_no_hidden_card(
    app: FastAPI, client: TestClient
) -> None:
    game = late_position(app, client, short_of_all=True)
    left = game["claim"]["tricks_left"]
    response = claim(client, game, left)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["claim"] == {
        "held": False,
        "tricks": left,
        "left": left,
        "message": body["claim"]["message"],
    }
    assert "Claim refused" in body["claim"]["message"]
    assert body["events"] == []
    after = body["game"]
    assert {k: v for k, v in after.items() if k not in ("version", "claim")} == {
        k: v for k, v in game.items() if k not in ("version", "claim")
    }
    engine = stored_game(app, client, game["id"])
    assert not names_in(response.text) - visible_to_south(
        engine, range(game["hand_number"], game["hand_number"] + 1)
    )
    assert engine.claims[-1].defence  # kept for after the hand

    # One claim a trick: the next waits for a card.
    assert after["claim"]["available"] is False
    again = claim(client, after, 1)
    assert again.status_code == 422 and again.json()["rule"] == "claim-again"
    after = play(client, after)["game"]
    while after["phase"] == "playing" and after["hand_number"] == game["hand_number"]:
        if after["claim"] and after["tricks_played"] > game["tricks_played"]:
            assert after["claim"]["available"]
        after = play(client, after)["game"]

    # Once the hand is over, its summary shows the defence that beat the claim.
    sheet = next(h for h in after["score_sheet"] if h["hand"] == game["hand_number"])
    note = next(n for n in sheet["notes"] if "refused" in n)
    assert "The defence that beat it: trick" in note and "wins)" in note


@pytest.mark.parametrize(
    ("tricks", "status", "rule", "words"),
    [
        (0, 422, "request", "Claim a whole number of tricks"),
        (14, 422, "request", "Claim a whole number of tricks"),
        ("all", 422, "request", "Claim a whole number of tricks"),
        (None, 422, "request", "Claim a whole number of tricks"),
    ],
)
def test_malformed_claims_are_refused(
    client: TestClient, tricks: Any, status: int, rule: str, words: str
) -> None:
    game = bid(client, start_game(client)["game"])["game"]
    response = claim(client, game, tricks)
    assert response.status_code == status
    assert response.json() == {"detail": words + ", from 1 to the tricks left.", "rule": rule}


def test_a_claim_of_more_tricks_than_are_left_is_refused(client: TestClient) -> None:
    game = bid(client, start_game(client)["game"])["game"]
    for _ in range(3):
        game = play(client, game)["game"]
    left = game["claim"]["tricks_left"]
    response = claim(client, game, left + 1)
    assert response.status_code == 422
    assert response.json() == {
        "detail": f"{left} tricks are left: claim from 1 to {left} of them",
        "rule": "claim",
    }
    assert client.get(f"/api/games/{game['id']}").json()["game"] == game


def test_no_claim_during_the_bidding(client: TestClient) -> None:
    game = start_game(client)["game"]
    response = claim(client, game, 5)
    assert response.status_code == 409 and response.json()["rule"] == "turn"


def test_a_claim_too_early_to_check_in_time_says_so(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def too_long(*_args: Any, **_options: Any) -> None:
        raise SearchLimitError("gave up after trying 1000000 cards")

    monkeypatch.setattr("spades.session.claims.check_claim", too_long)
    game = bid(client, start_game(client)["game"])["game"]
    before = game_to_record(stored_game(app, client, game["id"]))
    response = claim(client, game, 13)
    assert response.status_code == 422
    assert response.json() == {
        "detail": "Too much of the hand is left to check a claim in time: "
        "play a trick or two, then claim",
        "rule": "claim-too-early",
    }
    assert game_to_record(stored_game(app, client, game["id"])) == before


def test_a_hand_ended_by_a_claim_keeps_its_unplayed_cards_hidden(
    app: FastAPI, client: TestClient
) -> None:
    game = late_position(app, client, short_of_all=True)
    hand = game["hand_number"]
    claim(client, game, game["claim"]["tricks_left"])  # refused: its defence is kept
    game = play(client, game)["game"]
    while game["hand_number"] == hand:
        best, _left = best_for_south(app, client, game)
        if best:
            response = claim(client, game, best)
            assert response.json()["claim"]["held"]
            break
        game = play(client, game)["game"]  # pragma: no cover - depends on the deal
    engine = stored_game(app, client, game["id"])
    sheet = next(h for h in response.json()["game"]["score_sheet"] if h["hand"] == hand)
    assert any("refused" in note for note in sheet["notes"])
    # Only cards South saw in that hand (its own, those played) are named.
    assert not names_in(str(sheet["notes"])) - visible_to_south(engine, range(hand, hand + 1))
    assert names_in(response.text) <= visible_to_south(engine, range(hand, hand + 2))


def test_with_norths_nil_only_every_trick_may_be_claimed_for_south() -> None:
    from spades.core import NIL, Game, IllegalClaimError
    from spades.server.play.claims import claim_offer, judge_claim

    game = Game(seed=3)
    while game.phase.value == "bidding":
        game.bid(game.to_act or 0, NIL if game.to_act == 0 else 3)
    while game.to_act != SOUTH:
        game.play(game.to_act or 0, game.legal_cards()[0])
    offer = claim_offer(game)
    assert offer is not None and offer.choices == [offer.tricks_left]
    assert offer.note == (
        f"With North's Nil in play you may claim only all {offer.tricks_left} tricks left, for you."
    )
    with pytest.raises(IllegalClaimError, match="With North's Nil in play, claim all"):
        judge_claim(game, offer.tricks_left - 1)
    assert game.claims == []


def test_the_notes_of_a_refused_claim_without_a_line_say_only_that() -> None:
    from spades.core import Claim, HandState
    from spades.core.hand import deal_from_seed
    from spades.server.play.claims import claim_notes

    state = HandState(0, deal_from_seed(1))
    assert claim_notes([Claim(1, SOUTH, 8, 16, held=False)], state) == [
        "You claimed 8 of the 9 tricks left at trick 5: refused."
    ]
