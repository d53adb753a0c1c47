"""`spades replay --seed --salt --commitment`: checking a web game's deals against
the commitment the page showed and the seed it revealed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from spades.core import Game, Seeding, commitment, game_to_record

from .commands import run

SEED = 8_123_456_789
SALT = "5a1f00d2c0ffee5a1f00d2c0ffee0001"


def finished_game(seeding: Seeding | None, seed: int = SEED) -> Game:
    game = Game(seed=seed, seeding=seeding)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        if game.phase.value == "bidding":
            game.bid(seat, rng.randint(2, 5))
        else:
            game.play(seat, rng.choice(game.legal_cards()))
    return game


def write(tmp_path: Path, game: Game) -> str:
    path = tmp_path / "spades-game.json"
    path.write_text(json.dumps(game_to_record(game)))
    return str(path)


def test_the_command_the_page_shows_verifies_every_deal(tmp_path: Path) -> None:
    game = finished_game(Seeding.commit(SEED, SALT))
    shown = commitment(SEED, SALT)
    result = run(
        "replay", write(tmp_path, game),
        "--seed", str(SEED), "--salt", SALT, "--commitment", shown,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f'deals verified: the SHA-256 of "{SEED}:{SALT}" is the commitment {shown}' in (
        " ".join(result.stdout.split())
    )
    assert f"seed {SEED} deals all {len(game.history)} hands" in " ".join(result.stdout.split())
    assert "1 record(s) checked: all valid" in result.stdout


def test_a_commitment_other_than_the_one_shown_fails(tmp_path: Path) -> None:
    path = write(tmp_path, finished_game(Seeding.commit(SEED, SALT)))
    other = commitment(SEED + 1, SALT)  # what a server that changed its seed would show
    result = run("replay", path, "--commitment", other)
    assert result.returncode == 1
    assert "the deals do not check out" in result.stderr
    assert "not the commitment" in result.stderr


def test_a_revealed_seed_that_did_not_deal_the_game_fails(tmp_path: Path) -> None:
    """A server could reveal a seed and salt matching its commitment but deal
    from another seed: the deals give it away."""
    dealt_from_elsewhere = finished_game(None, seed=SEED + 7)
    path = write(tmp_path, dealt_from_elsewhere)
    result = run(
        "replay", path,
        "--seed", str(SEED), "--salt", SALT, "--commitment", commitment(SEED, SALT),
    )  # fmt: skip
    assert result.returncode == 1
    assert "hand 1, deal: not dealt from seed" in " ".join(result.stderr.split())


@pytest.mark.slow
def test_a_practice_game_has_no_commitment_to_check(tmp_path: Path) -> None:
    path = write(tmp_path, finished_game(Seeding.practice()))
    plain = run("replay", path)
    assert plain.returncode == 0
    assert "practice deals: the seed was chosen by the player" in plain.stdout
    result = run("replay", path, "--commitment", commitment(SEED, SALT))
    assert result.returncode == 1
    assert "give --salt" in result.stderr
