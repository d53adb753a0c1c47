"""``spades solve`` and ``spades analyze`` on written deals and game records."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spades.cli.app import app
from spades.core import Game, game_to_record
from spades.core.hand import HandState
from tests.solver.hands import (
    GUESS_ENDING,
    NIL_HAND,
    RUFF_ENDING,
    RUFF_TRICKS,
    TRICKS_1_TO_11,
    hand_from_tricks,
    played,
)

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A record of one game whose first hand is NIL_HAND (dealer East)."""
    state = played(NIL_HAND)
    game = Game(seed=1, preset_deals=[(state.dealer, state.deal)])
    for seat, bid in zip(state.bid_order, (state.bids[s] for s in state.bid_order), strict=True):
        game.bid(seat, bid or 0)
    for trick in state.tricks:
        for card in trick.cards:
            game.play(game.hand.turn, card)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_to_record(game)))
    return path


def test_solve_a_written_deal_prints_every_legal_card() -> None:
    code, out = run("solve", "--deal", "N:KC AS E:JD JS S:KD QH W:QC TD", "--leader", "N")
    assert code == 0, out
    assert "KC" in out and "AS" not in out.split("North-South tricks")[1]  # not a legal lead
    assert "North-South take 1 of the 2 tricks left" in out
    code, out = run(
        "solve", "--deal", "N:KC AS E:JD JS S:KD QH W:QC TD", "--leader", "n", "--broken"
    )
    assert code == 0 and "AS *" in out and "take 2 of the 2" in out


def test_solve_judges_the_nils_asked_for() -> None:
    code, out = run(
        "solve", "--deal", "N:AH 3C E:QH 4C S:KH 2C W:JH 5C", "--leader", "E", "--nil", "S"
    )
    assert code == 0, out
    assert "S Nil" in out and "holds" in out


def test_solve_a_record_position_mid_trick(record: Path) -> None:
    code, out = run("solve", str(record), "--hand", "1", "--trick", "9", "--card", "3")
    assert code == 0, out
    assert "On the table: S 6D, W AC" in out and "Trick 9, North to play" in out
    assert "N Nil" in out  # North bid Nil in this hand
    assert "for the hand" in out
    assert "AD *" in out and "fails" in out  # North must win with its AD now


def test_solve_shows_the_nil_that_a_card_throws_away(record: Path) -> None:
    # South leads trick 9: the KC keeps North's Nil, the 6D does not.
    code, out = run("solve", str(record), "--trick", "9")
    assert code == 0, out
    lines = {line.split()[0]: line for line in out.splitlines() if line[:2].strip()}
    assert "holds" in lines["KC"] and "fails" in lines["6D"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give a RECORD file or --deal"),
        (("--deal", "N:AS E:KS S:QS"), "no hand for W"),
        (("--deal", "N:AS E:KS S:QS W:JS"), "--leader is needed"),
        (("--deal", "N:AS E:KS S:QS W:JS", "--leader", "Q"), "'Q' is not a seat"),
        (("missing.json",), "cannot read missing.json"),
    ],
)
def test_solve_refuses_bad_input_with_status_2(args: tuple[str, ...], message: str) -> None:
    code, out = run("solve", *args)
    assert code == 2
    assert message in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--game", "2"), "holds 1 game(s)"),
        (("--hand", "5"), "has 1 hand(s)"),
        (("--trick", "14"), "--trick is 1 to 13"),
        (("--card", "5"), "--card is 1 to 4"),
    ],
)
def test_solve_refuses_positions_the_record_does_not_have(
    record: Path, args: tuple[str, ...], message: str
) -> None:
    code, out = run("solve", str(record), *args)
    assert code == 2 and message in out


def test_solve_refuses_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "spades-record/1", "hands": []}')
    code, out = run("solve", str(path))
    assert code == 2 and "is broken" in out


def test_analyze_names_the_mistakes_and_totals_them(record: Path) -> None:
    code, out = run("analyze", str(record), "--from-trick", "8")
    assert code == 0, out
    assert "Hand 1" in out and "from trick 8" in out
    assert "South's 6 of diamonds cost North's Nil: the King of clubs kept it safe" in " ".join(
        out.split()
    )
    assert "tricks lost" in out


def test_analyze_refuses_bad_options(record: Path) -> None:
    assert run("analyze", str(record), "--hand", "3")[0] == 2
    assert run("analyze", str(record), "--from-trick", "0")[0] == 2
    assert run("analyze", "nowhere.json")[0] == 2


def record_of(state: HandState, path: Path) -> Path:
    """A one-hand game record of a hand written trick by trick."""
    game = Game(seed=1, preset_deals=[(state.dealer, state.deal)])
    for seat in state.bid_order:
        game.bid(seat, state.bids[seat] or 0)
    for trick in state.tricks:
        for card in trick.cards:
            game.play(game.hand.turn, card)
    path.write_text(json.dumps(game_to_record(game)))
    return path


def test_analyze_by_information_spares_a_guess_that_lost(tmp_path: Path) -> None:
    path = record_of(hand_from_tricks(TRICKS_1_TO_11 + GUESS_ENDING), tmp_path / "guess.json")
    code, out = run("analyze", str(path), "--by-information", "--from-trick", "12")
    text = " ".join(out.split())
    assert code == 0, out
    assert "by information" in text
    assert "no play was a mistake on what its player could know" in text
    assert (
        "trick 12: double dummy only, not a mistake on what South could know: "
        "South's Queen of clubs cost a trick: discarding the Queen of diamonds was better" in text
    )
    # Without the option the same card is blamed.
    plain = " ".join(run("analyze", str(path), "--from-trick", "12")[1].split())
    assert "South's Queen of clubs cost a trick" in plain and "double dummy only" not in plain


def test_analyze_by_information_names_a_real_mistake(tmp_path: Path) -> None:
    path = record_of(hand_from_tricks(RUFF_TRICKS + RUFF_ENDING), tmp_path / "ruff.json")
    code, out = run("analyze", str(path), "--by-information", "--from-trick", "12", "--deals", "12")
    text = " ".join(out.split())
    assert code == 0, out
    assert "up to 12 deals a play" in text
    assert (
        "trick 12: South's Queen of diamonds cost 1.0 trick on average: ruffing with the "
        "2 of spades was better" in text
    )
    assert "double dummy: agrees" in text
    assert "tricks lost on average" in text


def test_analyze_by_information_refuses_zero_deals(record: Path) -> None:
    code, out = run("analyze", str(record), "--by-information", "--deals", "0")
    assert code == 2 and "--deals" in out


def test_the_spades_command_names_cards_in_words(record: Path) -> None:
    """Through the installed ``spades`` command, as a person runs it: the review's
    sentences name each card in words, never by its code."""
    command = Path(sys.executable).parent / "spades"
    done = subprocess.run(
        [str(command), "analyze", str(record), "--from-trick", "8"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "South's 6 of diamonds cost North's Nil: the King of clubs kept it safe" in text
    sentences = [line for line in done.stdout.splitlines() if line.strip().startswith("trick")]
    assert sentences and not any(re.search(r"\b[2-9TJQKA][SHDC]\b", line) for line in sentences)
