"""Records holding undos and claims, in the replay viewer and in downloads.

Undos leave only the moves that stood, so a replay shows what was actually
played; a claim that held ends its hand where it was made, and the replay says
so. While the game goes on, neither its download, its replay nor a review
names a card South never saw: the hand being played stays out (with its
claims), and so do the cards a claim left unplayed (server/records.py).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import SEATS, SOUTH, game_from_record, game_to_record
from spades.core.cards import card_name, cards_in
from spades.core.seats import SEAT_LETTERS

from ..conftest import start_game
from .stories import Story, a_story, store


def check_hand_one(hand: dict[str, Any], story: Story, *, line: bool = True) -> None:
    """Hand 1 of a replay: what stood, ending where the claim held. With
    ``line``, the record held the refused claim's defence, which names a card
    never played, so the notes say only that there is one."""
    state = story.game.history[0].state
    played = [c["card"] for trick in hand["tricks"] for c in trick["cards"]]
    assert len(played) == story.held_at
    stood = [card_name(c) for trick in state.tricks for c in trick.cards]
    stood += [card_name(c) for c in state.trick]
    assert played == stood  # what was actually played, not the card taken back
    assert hand["over"] and hand["result"]["hand"] == 1
    claim = hand["claim"]
    assert claim["seat"] == "S" and claim["left"] == 13 - len(state.tricks)
    assert sum(claim["awarded"].values()) == claim["left"]
    won_in_play = {SEAT_LETTERS[s]: 0 for s in SEATS}
    for trick in hand["tricks"]:
        if trick["winner"]:
            won_in_play[trick["winner"]] += 1
    for team in hand["result"]["teams"]:
        for seat, tricks in team["tricks"].items():
            assert tricks == won_in_play[seat] + claim["awarded"][seat]
    notes = " ".join(hand["result"]["notes"])
    assert "the claim held" in notes and "refused" in notes
    assert "You took back a move in this hand." in notes
    assert ("never played in this hand" in notes) is line  # the line itself stays out


def test_a_record_with_an_undo_and_claims_opens_in_the_replay_api(client: TestClient) -> None:
    story = a_story()
    record = game_to_record(story.game)
    assert record["hands"][0]["undos"] and len(record["hands"][0]["claims"]) == 2
    assert record["hands"][1]["claims"][0]["held"] is False
    text = json.dumps(record, indent=2)
    assert story.undone in text  # the undo keeps what it took back

    response = client.post("/api/replays", json={"text": text})
    assert response.status_code == 200, response.text
    replay = response.json()
    assert replay["source"] == "file" and not replay["finished"]
    first, second = replay["hands"]
    check_hand_one(first, story)
    assert all(len(cards) == 13 for cards in first["deal"].values())
    assert not second["over"] and second["claim"] is None and second["result"] is None
    assert all(cards is None for cards in second["deal"].values())  # a file has no viewer


def test_a_hand_a_claim_ended_keeps_its_unplayed_cards_hidden_while_the_game_goes_on(
    app: FastAPI, client: TestClient
) -> None:
    """One policy (server/records.py, docs/record-format.md) for the replay,
    the download and the review: until the game is over, no other seat's card
    a claim left unplayed is shown."""
    start_game(client)
    story = a_story()
    game = story.game
    game_id = store(app, client, game)

    replay = client.get(f"/api/games/{game_id}/replay").json()
    first, current = replay["hands"]
    check_hand_one(first, story)
    assert [first["deal"][seat] for seat in "NEW"] == [None, None, None]  # drawn as backs
    assert len(first["deal"]["S"]) == 13
    assert current["claim"] is None and current["result"] is None
    assert [current["deal"][seat] for seat in "NEW"] == [None, None, None]
    assert set(current["deal"]["S"]) == {card_name(c) for c in cards_in(game.hand.deal[SOUTH])}
    unplayed = [
        card_name(card)
        for seat in SEATS
        if seat != SOUTH
        for card in cards_in(game.history[0].state.deal[seat] & ~game.history[0].state.played)
    ]
    assert unplayed, "the claim left cards unplayed"
    every_answer = json.dumps(first)  # hand 2 is another deal: its cards share the names

    download = client.get(f"/api/games/{game_id}/record")
    assert download.status_code == 409 and download.json()["rule"] == "game-in-progress"
    review = client.get(f"/api/games/{game_id}/hands/1/review")
    assert review.status_code == 409 and review.json()["rule"] == "claimed-hand"
    every_answer += download.text + review.text
    named = [card for card in unplayed if f'"{card}"' in every_answer]
    assert named == [], "a card never played was shown"


def test_once_the_game_is_over_a_claimed_hand_is_shown_in_full(
    app: FastAPI, client: TestClient
) -> None:
    start_game(client)
    story = a_story()
    game = story.game.clone()
    game.forfeit(SEATS[1], "East left the table")  # the game is over
    game_id = store(app, client, game)
    replay = client.get(f"/api/games/{game_id}/replay").json()
    assert all(len(cards) == 13 for cards in replay["hands"][0]["deal"].values())
    download = client.get(f"/api/games/{game_id}/record")
    assert download.status_code == 200
    record = download.json()
    assert record["seed"] is not None
    assert record["hands"][0]["claims"][0]["defence"]  # the refused claim's line, in full
    assert record["hands"][0]["undos"]
    game_from_record(record)  # still a record spades replay accepts
    reopened = client.post("/api/replays", json={"text": download.text}).json()
    check_hand_one(reopened["hands"][0], story, line=True)
