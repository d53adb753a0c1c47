"""`spades play`: undo and claim in the terminal, answers piped to stdin.

The engine replica of ``test_play`` finds the moments to act at (a claim that
holds, one the defence beats); the command must then do what the web game does:
``Game.undo``, and claims judged by the solver, kept in the record and replayed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from spades.core import SOUTH, Game, IllegalClaimError, Phase
from spades.core.claims import tricks_left
from spades.solver import SearchLimitError
from spades.solver.claims import check_claim

from .terminal import SEED, run_play, run_spades, south_turns

pytestmark = pytest.mark.slow  # whole terminal games


def bids_after(out: str, south_bid: str) -> list[list[str]]:
    """The bid lines that follow each ``South bids <south_bid>`` line of a transcript."""
    runs = []
    for match in re.finditer(rf"^South bids {south_bid}$", out, re.MULTILINE):
        following = re.findall(r"^(?:West|North|East) bids \S+$", out[match.end() :], re.MULTILINE)
        runs.append(following[:3])
    return runs


def test_undo_takes_back_a_bid_and_the_bots_answer_it_again_as_before() -> None:
    result = run_play(SEED, "u\n3\nu\n3\n1\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # Nothing of South's to take back at first: the engine says so, and asks again.
    assert "South has not bid or played in this hand yet: there is nothing to take back" in out
    assert "Taken back: your bid of 3" in out
    first, second = bids_after(out, "3")
    assert first == second  # seeded by the position, the bots learned nothing
    assert out.count("South plays ") == 1


def test_undo_takes_back_a_card_and_the_trick_goes_on_as_before(tmp_path: Path) -> None:
    record_file = tmp_path / "undone.jsonl"
    result = run_play(SEED, "3\n1\nu\n1\nquit\n", "--out", str(record_file))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    taken = re.search(r"^Taken back: your (\w\w)", out, re.MULTILINE)
    assert taken is not None
    plays = re.findall(rf"^South plays {taken.group(1)}$", out, re.MULTILINE)
    assert len(plays) == 2  # played, taken back, played again
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert record["hands"][0]["undos"]  # kept in the record
    replayed = run_spades("replay", str(record_file))
    assert replayed.returncode == 0, replayed.stderr


def claim_moments() -> tuple[list[str], int, list[str], int]:
    """South's answers up to a claim that holds and how many tricks it claims,
    then up to one the defence beats: the first of ``SEED``'s game, late enough
    in a hand for the solver to answer at once."""
    held: tuple[list[str], int] | None = None
    refused: tuple[list[str], int] | None = None
    answers: list[str] = []
    for game in south_turns(SEED):
        if game.phase is Phase.PLAYING and len(game.hand.tricks) >= 6:
            left = tricks_left(game.hand)
            for tricks in (left, 1):
                verdict = _verdict(game, tricks)
                if verdict is True and held is None:
                    held = (answers[:], tricks)
                if verdict is False and refused is None:
                    refused = (answers[:], tricks)
        if held is not None and refused is not None:
            return held[0], held[1], refused[0], refused[1]
        answers.append("3" if game.phase is Phase.BIDDING else "1")
    raise AssertionError("pick another seed for this test")


def _verdict(game: Game, tricks: int) -> bool | None:
    try:
        return check_claim(game.hand, SOUTH, tricks).holds
    except (IllegalClaimError, SearchLimitError):
        return None


def test_a_claim_that_holds_ends_the_hand_and_replays(tmp_path: Path) -> None:
    answers, tricks, _, _ = claim_moments()
    record_file = tmp_path / "claimed.jsonl"
    stdin = "\n".join([*answers, f"claim {tricks}", "quit"]) + "\n"
    result = run_play(SEED, stdin, "--out", str(record_file))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Claim accepted: you and North take " in out
    accepted = out.index("Claim accepted")
    assert out.index("Score sheet", accepted) > accepted  # the hand is scored at once
    assert re.search(r"^You claimed .* the claim held\.$", out, re.MULTILINE)  # under the sheet
    record = json.loads(record_file.read_text(encoding="utf-8"))
    assert any(hand.get("claims") for hand in record["hands"])
    replayed = run_spades("replay", str(record_file))  # re-checks the claim with the solver
    assert replayed.returncode == 0, replayed.stderr


def test_a_refused_claim_changes_nothing_and_waits_for_the_next_trick() -> None:
    _, _, answers, tricks = claim_moments()
    stdin = "\n".join([*answers, f"claim {tricks}", "c", "claim 99", "1", "quit"]) + "\n"
    result = run_play(SEED, stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Claim refused: West and East have a defence that stops" in out
    assert "Play on: the end of the hand will show it." in out
    assert "Your claim was refused this trick: play a card before you claim again" in out
    assert out.count("South plays ") == answers.count("1") + 1  # the game went on


def test_a_claim_is_only_for_south_to_play() -> None:
    result = run_play(SEED, "claim\nclaim two\n3\nclaim two\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("You may claim when it is your turn to play a card") == 2
    assert "'two' is not a number of tricks: type claim for every trick left" in out
    assert "Claim accepted" not in out and "Claim refused" not in out
