"""Provably fair deals through the API, end to end.

An ordinary game shows a commitment from the first deal, the same in every
response, and hides its seed until the game is over; then the seed and salt
hash to that commitment, every deal (South's hands as the page showed them
included) comes from the seed, and the command the page shows verifies the
downloaded record. A game dealt from a seed the player chose is marked practice.
"""

from __future__ import annotations

import hashlib
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spades.core import SOUTH, card_name, game_from_record, seeded_deals
from spades.core.cards import cards_in

from ..conftest import QUICK, play_to_the_end, stored_game


def south_hands_shown(bodies: list[dict[str, Any]]) -> dict[int, set[str]]:
    """South's 13 cards of each hand, as the responses showed them."""
    shown: dict[int, set[str]] = {}
    for body in bodies:
        game = body["game"]
        if len(game["hand"]) == 13:
            shown.setdefault(game["hand_number"], set(game["hand"]))
    return shown


def test_a_fair_game_commits_to_its_seed_and_reveals_it_at_the_end(
    app: FastAPI, client: TestClient, tmp_path: Path
) -> None:
    # Random bots can sink a side below -200 in the first hand; the deals are
    # checked over a game of several hands (most are), so deal until there is one.
    for _attempt in range(10):
        first = client.post("/api/games", json=QUICK)
        assert first.status_code == 201
        game_id = first.json()["game"]["id"]
        fairness = first.json()["game"]["fairness"]
        commitment = fairness["commitment"]
        assert re.fullmatch(r"[0-9a-f]{64}", commitment)
        assert fairness == {
            "practice": False, "commitment": commitment, "seed": None, "salt": None,
            "record": None, "record_file": None, "verify": None,
        }  # fmt: skip

        secret = stored_game(app, client, game_id)
        seed, salt = str(secret.seed), secret.seeding.salt if secret.seeding else None
        assert salt is not None

        # While the game is on: the same commitment everywhere, the seed and salt nowhere.
        refused = client.get(f"/api/games/{game_id}/record")
        assert refused.status_code == 409 and refused.json()["rule"] == "game-in-progress"
        for path in ("/api/games", f"/api/games/{game_id}", "/api/games/latest"):
            text = client.get(path).text
            assert seed not in text and salt not in text, path
        bodies = play_to_the_end(client, first.json())
        if bodies[-1]["game"]["hand_number"] > 1:
            break
    else:
        pytest.fail("ten games in a row ended in their first hand")
    for body in bodies[:-1]:
        assert body["game"]["fairness"]["commitment"] == commitment
        text = str(body)
        assert seed not in text and salt not in text, "the seed leaked before the end"

    # The end: seed and salt revealed, and they hash to the commitment seen at the start.
    revealed = bodies[-1]["game"]["fairness"]
    assert revealed["commitment"] == commitment
    assert (revealed["seed"], revealed["salt"]) == (seed, salt)
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == commitment

    # The record: every deal is the one the seed gives, South's as the page showed them.
    download = client.get(revealed["record"])
    assert download.status_code == 200
    assert download.headers["content-disposition"] == (
        f'attachment; filename="{revealed["record_file"]}"'
    )
    record = download.json()
    assert record["seeding"] == {"kind": "committed", "commitment": commitment, "salt": salt}
    deals = game_from_record(record).deals()
    assert deals == [deal for deal, _ in zip(seeded_deals(int(seed)), deals, strict=False)]
    shown = south_hands_shown(bodies)
    assert len(shown) == len(deals)
    for number, (_dealer, hands) in enumerate(deals, start=1):
        assert shown[number] == {card_name(c) for c in cards_in(hands[SOUTH])}

    # The command the page shows, run as a player would, on the downloaded file.
    (tmp_path / revealed["record_file"]).write_bytes(download.content)
    words = shlex.split(revealed["verify"])
    assert words[:3] == ["spades", "replay", revealed["record_file"]]
    spades = str(Path(sys.executable).parent / "spades")
    result = subprocess.run(
        [spades, *words[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "deals verified" in result.stdout


def test_a_seed_chosen_by_the_player_makes_a_practice_game(
    app: FastAPI, client: TestClient
) -> None:
    body = client.post("/api/games", json={"seed": 42, **QUICK}).json()
    fairness = body["game"]["fairness"]
    assert fairness["practice"] is True
    assert fairness["seed"] == "42" and fairness["commitment"] is None
    stored = stored_game(app, client, body["game"]["id"])
    assert stored.seeding is not None and stored.seeding.is_practice


def test_only_the_owner_downloads_a_record(client: TestClient, other_client: TestClient) -> None:
    body = client.post("/api/games", json=QUICK).json()
    bodies = play_to_the_end(client, body)
    record = bodies[-1]["game"]["fairness"]["record"]
    assert client.get(record).status_code == 200
    other_client.post("/api/games", json=QUICK)
    assert other_client.get(record).status_code == 404


def test_undos_and_claims_keep_a_fair_game_secret_and_checkable(
    app: FastAPI, client: TestClient, tmp_path: Path
) -> None:
    """Undos and claims go into the record, yet the seed and salt stay on the server
    until the game is over (a download before then holds the finished hands only,
    without either), and the revealed values still verify every deal."""
    body = client.post("/api/games", json=QUICK).json()
    game_id = body["game"]["id"]
    secret = stored_game(app, client, game_id)
    assert secret.seeding is not None and secret.seeding.salt is not None
    seed, salt = str(secret.seed), secret.seeding.salt
    bodies = [body]

    def send(path: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        response = client.post(f"/api/games/{game_id}/{path}", json=payload)
        assert response.status_code == 200, response.text
        bodies.append(response.json())
        return bodies[-1]["game"]  # type: ignore[no-any-return]

    game = send("bid", {"bid": 3})
    game = send("play", {"card": game["legal_cards"][0]})
    game = send("undo")
    claimed = claim_ended_first = False
    while game["phase"] != "over":
        if game["phase"] == "bidding":
            game = send("bid", {"bid": 3})
        elif (
            not claimed
            and game["tricks_played"] == 11
            and 1 in (offer := game["claim"] or {"available": False, "choices": []})["choices"]
            and offer["available"]
        ):
            # Claim one of the last two tricks, when the hand's terms allow it (with a
            # Nil in the team, say, they may not): held or refused, it goes into the record.
            claimed = True
            hand = game["hand_number"]
            game = send("claim", {"tricks": 1})
            # A hand a claim ended keeps its unplayed cards until the end (records.py).
            claim_ended_first = hand == 1 and bodies[-1]["claim"]["held"]
        else:
            game = send("play", {"card": game["legal_cards"][0]})
        if game["phase"] != "over":
            for path in ("/api/games", f"/api/games/{game_id}", "/api/statistics"):
                text = client.get(path).text
                assert seed not in text and salt not in text, path
            download = client.get(f"/api/games/{game_id}/record")
            if not game["score_sheet"] or claim_ended_first:  # no whole hand to download
                assert download.status_code == 409
            else:
                assert download.status_code == 200
                assert seed not in download.text and salt not in download.text
                assert download.json()["seed"] is None and "seeding" not in download.json()
    for earlier in bodies[:-1]:
        text = str(earlier)
        assert seed not in text and salt not in text, "the seed leaked before the end"

    revealed = bodies[-1]["game"]["fairness"]
    assert (revealed["seed"], revealed["salt"]) == (seed, salt)
    download = client.get(revealed["record"])
    record = download.json()
    assert record["hands"][0]["undos"]
    assert not claimed or any("claims" in hand for hand in record["hands"])
    (tmp_path / revealed["record_file"]).write_bytes(download.content)
    spades = str(Path(sys.executable).parent / "spades")
    words = shlex.split(revealed["verify"])
    result = subprocess.run(
        [spades, *words[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "deals verified" in result.stdout
