"""Provably fair deals: the commitment fixes the seed, the seed fixes every deal,
and a record whose deals or commitment were changed is refused."""

from __future__ import annotations

import copy
import hashlib
import random
import subprocess
from typing import Any

import pytest

from spades.core import (
    Game,
    RecordError,
    Seeding,
    commitment,
    game_from_record,
    game_to_record,
    seeded_deals,
)

SALT = "0123456789abcdef0123456789abcdef"


def play_out(game: Game, hands: int, seed: int) -> Game:
    """Random legal moves until ``hands`` hands are scored or the game ends."""
    rng = random.Random(seed)
    while not game.is_over and len(game.history) < hands:
        seat = game.to_act
        assert seat is not None
        if game.phase.value == "bidding":
            game.bid(seat, rng.randint(1, 4))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
    return game


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63 - 1])
def test_seeded_deals_are_the_deals_a_game_with_that_seed_deals(seed: int) -> None:
    game = play_out(Game(seed=seed), hands=4, seed=seed)
    dealt = game.deals()
    assert len(dealt) >= 2
    assert dealt == [deal for deal, _ in zip(seeded_deals(seed), dealt, strict=False)]


def test_the_commitment_is_the_sha256_of_seed_colon_salt() -> None:
    expected = hashlib.sha256(f"123:{SALT}".encode()).hexdigest()
    assert commitment(123, SALT) == expected
    # What the docs tell a player to type.
    shell = subprocess.run(
        ["sh", "-c", f"printf '%s' '123:{SALT}' | sha256sum"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shell.stdout.split()[0] == expected


def committed_record(seed: int = 77, hands: int = 3) -> dict[str, Any]:
    game = Game(seed=seed, seeding=Seeding.commit(seed, SALT))
    return game_to_record(play_out(game, hands=hands, seed=seed))


def test_a_committed_record_keeps_and_checks_its_commitment() -> None:
    record = committed_record()
    assert record["seeding"] == {
        "kind": "committed",
        "commitment": commitment(77, SALT),
        "salt": SALT,
    }
    game = game_from_record(record)
    assert game.seeding == Seeding.commit(77, SALT)
    assert game_to_record(game) == record


def refused(record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as error:
        game_from_record(record)
    return error.value


def test_a_changed_seed_salt_or_commitment_is_refused() -> None:
    record = committed_record()
    for field, value in (("seed", 78), ("salt", "ff" * 16), ("commitment", "0" * 64)):
        changed = copy.deepcopy(record)
        if field == "seed":
            changed["seed"] = value
        else:
            changed["seeding"][field] = value
        error = refused(changed)
        assert error.rule == "commitment" and error.where == "seeding", error
        assert "SHA-256" in str(error)


def test_a_deal_changed_after_the_commitment_is_refused() -> None:
    record = committed_record(hands=3)
    changed = copy.deepcopy(record)
    # Swap a card between North and East in hand 2: still a valid deal of 52 cards.
    deal = changed["hands"][1]["deal"]
    deal["N"][0], deal["E"][0] = deal["E"][0], deal["N"][0]
    error = refused(changed)
    assert (error.where, error.rule) == ("hand 2, deal", "commitment")
    assert "not dealt from seed 77" in str(error)


def test_a_forged_commitment_for_other_deals_is_refused() -> None:
    """Someone who deals from seed 5 and then publishes seed 5's commitment
    for a game dealt otherwise is caught at the first hand."""
    record = committed_record(seed=5)
    other = committed_record(seed=6)
    other["seeding"] = record["seeding"]
    other["seed"] = 5
    error = refused(other)
    assert (error.where, error.rule) == ("hand 1, deal", "commitment")


def test_a_practice_record_says_so_and_is_not_checked_against_its_seed() -> None:
    game = play_out(Game(seed=42, seeding=Seeding.practice()), hands=1, seed=1)
    record = game_to_record(game)
    assert record["seeding"] == {"kind": "practice"}
    assert game_from_record(record).seeding == Seeding.practice()


def test_records_without_seeding_read_as_before() -> None:
    record = game_to_record(play_out(Game(seed=3), hands=1, seed=3))
    assert "seeding" not in record
    assert game_from_record(record).seeding is None


@pytest.mark.parametrize(
    ("seeding", "words"),
    [
        ({"kind": "secret"}, "kind must be"),
        ({"kind": "committed", "commitment": "abc", "salt": SALT}, "64 lower-case hex"),
        ({"kind": "committed", "commitment": "0" * 64}, "salt must be"),
        ("committed", "expected an object"),
    ],
)
def test_a_malformed_seeding_is_refused(seeding: Any, words: str) -> None:
    record = committed_record(hands=1)
    record["seeding"] = seeding
    error = refused(record)
    assert error.where == "seeding" and words in str(error)


def test_undos_and_claims_leave_a_committed_record_checkable() -> None:
    """Undos and claims change the play, never the deals: a committed record that
    holds both still checks against its seed, and a changed deal is still caught."""
    from spades.core import SOUTH, verify_commitment

    seed = 2024
    game = Game(seed=seed, seeding=Seeding.commit(seed, SALT))
    rng = random.Random(seed)
    while game.phase.value == "bidding":
        game.bid(game.to_act, 3)  # type: ignore[arg-type]
    south_cards = 0
    while south_cards < 3:  # a few tricks in, with two of South's cards taken back
        seat = game.to_act
        assert seat is not None
        game.play(seat, rng.choice(game.legal_cards()))
        south_cards += seat == SOUTH
        if seat == SOUTH and south_cards == 2 and not game.undos:
            game.undo(SOUTH)
            south_cards -= 1
    while game.to_act != SOUTH:
        game.play(game.to_act, rng.choice(game.legal_cards()))  # type: ignore[arg-type]
    left = 13 - len(game.hand.tricks)
    game.refuse_claim(SOUTH, left)
    game.claim(SOUTH, 1)  # held (whether it really holds is the solver's question)
    play_out(game, hands=3, seed=seed)

    record = game_to_record(game)
    assert record["hands"][0]["undos"] and len(record["hands"][0]["claims"]) == 2
    again = game_from_record(record)
    dealt = again.deals()
    assert dealt == [deal for deal, _ in zip(seeded_deals(seed), dealt, strict=False)]
    verify_commitment(dealt, seed=seed, salt=SALT, digest=commitment(seed, SALT))

    changed = copy.deepcopy(record)
    deal = changed["hands"][0]["deal"]  # the hand the claim ended, with cards never played
    deal["N"][-1], deal["E"][-1] = deal["E"][-1], deal["N"][-1]
    error = refused(changed)
    assert (error.where, error.rule) == ("hand 1, deal", "commitment")
