"""`spades simulate` and `spades replay`: each through the real console script
once (``run_script``), the rest by the command line's entry point (``run``)."""

import json
from pathlib import Path
from typing import Any

import pytest

from spades.core import Game, game_to_record
from spades.core.cards import CARD_NAMES, SPADES, SUIT_MASKS, card_long_name, cards_in, suit_of
from spades.core.seats import SEAT_NAMES

from .commands import run, run_script


@pytest.mark.slow
def test_simulate_writes_one_record_a_line_deterministically(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert (
        run_script("simulate", "--games", "5", "--seed", "9", "--out", str(first)).returncode == 0
    )
    assert run("simulate", "--games", "5", "--seed", "9", "--out", str(second)).returncode == 0
    lines = first.read_text().splitlines()
    assert len(lines) == 5 and first.read_text() == second.read_text()
    assert all(json.loads(line)["winner"] in ("NS", "EW") for line in lines)
    other = tmp_path / "c.jsonl"
    run("simulate", "--games", "5", "--seed", "10", "--out", str(other))
    assert other.read_text() != first.read_text()


@pytest.mark.slow
def test_replay_accepts_simulated_games_and_summarises(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    run("simulate", "--games", "3", "--seed", "1", "--out", str(records))
    result = run_script("replay", str(records), "--tricks")
    assert result.returncode == 0, result.stderr
    assert "3 record(s) checked: all valid" in result.stdout
    assert "Game 3" in result.stdout and "leads:" in result.stdout


def bid_everyone(game: Game) -> None:
    for _ in range(4):
        game.bid(game.to_act or 0, 3)


def write(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return path


def test_replay_rejects_a_revoke(tmp_path: Path) -> None:
    for seed in range(100):
        game = Game(seed=seed)
        bid_everyone(game)
        lead = game.legal_cards()[0]
        game.play(game.to_act or 0, lead)
        second = game.to_act or 0
        hand = game.hand.hands[second]
        led = SUIT_MASKS[suit_of(lead)]
        if hand & led and hand & ~led:
            break
    revoke = next(cards_in(hand & ~led))
    record = game_to_record(game)
    record["hands"][0]["tricks"][0]["cards"].append(CARD_NAMES[revoke])
    result = run("replay", str(write(tmp_path, record)))
    assert result.returncode == 1
    assert "game 1 (line 1) is broken: hand 1, trick 1" in result.stderr
    # Said to the record's reader, who is not the player: East by name, the card in words.
    name = SEAT_NAMES[second]
    assert f"{name} must follow suit: {name} holds" in result.stderr
    assert f"{name}'s {card_long_name(revoke)}" in result.stderr
    assert "You " not in result.stderr and "rule: follow-suit" in result.stderr


def test_replay_rejects_a_spade_led_before_spades_are_broken(tmp_path: Path) -> None:
    game = Game(seed=0)
    bid_everyone(game)
    leader = game.to_act or 0
    hand = game.hand.hands[leader]
    spade = next(cards_in(hand & SUIT_MASKS[SPADES]))
    record = game_to_record(game)
    record["hands"][0]["tricks"] = [
        {"leader": "NESW"[leader], "cards": [CARD_NAMES[spade]], "winner": None}
    ]
    result = run("replay", str(write(tmp_path, record)))
    assert result.returncode == 1
    assert "may not lead a spade to the first trick" in result.stderr
    assert "rule: first-lead" in result.stderr


@pytest.mark.slow
def test_replay_rejects_a_wrong_score_and_a_wrong_dealer(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    run("simulate", "--games", "1", "--seed", "2", "--out", str(records))
    record = json.loads(records.read_text())
    record["hands"][0]["score"]["EW"]["total"] += 5
    result = run("replay", str(write(tmp_path, record)))
    assert result.returncode == 1 and "hand 1, score: EW total is" in result.stderr

    record = json.loads(records.read_text())
    record["hands"][1:] = [dict(record["hands"][0])]  # a second hand dealt by the same seat
    record["winner"] = None
    result = run("replay", str(write(tmp_path, record)))
    assert result.returncode == 1
    assert "hand 2: the dealer is" in result.stderr and "rule: dealer" in result.stderr


def test_replay_names_a_line_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "spades-record/1"\n')
    result = run("replay", str(path))
    assert result.returncode == 1 and "line 1: not valid JSON" in result.stderr


def test_replay_of_a_missing_file_says_so(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nope.jsonl"))
    assert result.returncode == 2 and "Cannot read" in result.stderr


def claimed_game(*, holds: bool) -> Game:
    """A game whose first hand South ended by claiming the tricks left with three
    tricks to go: a claim that holds double dummy, or one that does not (the
    engine takes a claim as given; only the solver can say)."""
    from spades.core import SOUTH, claim_terms
    from spades.solver import Solver

    for seed in range(200):
        game = Game(seed=seed)
        bid_everyone(game)
        while len(game.hand.tricks) < 10 or game.to_act != SOUTH:
            if game.hand.is_over or len(game.hand.tricks) > 10:
                break
            game.play(game.to_act or 0, game.legal_cards()[0])
        if game.to_act != SOUTH or len(game.hand.tricks) != 10:
            continue
        terms = claim_terms(game.hand, SOUTH, 3)
        if (Solver().tricks(game.hand, terms.counted) == 3) == holds:
            game.claim(SOUTH, 3)
            return game
    raise AssertionError("no such game")  # pragma: no cover


@pytest.mark.slow
def test_replay_checks_each_claim_that_ended_a_hand(tmp_path: Path) -> None:
    good = write(tmp_path, game_to_record(claimed_game(holds=True)))
    result = run("replay", str(good))
    assert result.returncode == 0, result.stderr
    assert "South claimed 3 of the 3 tricks left at trick 11 (held: the hand ended)" in (
        " ".join(result.stdout.split())
    )

    bad = write(tmp_path, game_to_record(claimed_game(holds=False)))
    result = run("replay", str(bad))
    assert result.returncode == 1
    assert "hand 1, claim 1: the claim does not hold" in result.stderr
    assert "(rule: claim)" in result.stderr


@pytest.mark.slow
def test_replay_accepts_and_lists_undos(tmp_path: Path) -> None:
    from spades.core import SOUTH

    game = Game(seed=4)
    while game.to_act != SOUTH:
        game.bid(game.to_act or 0, 3)
    game.bid(SOUTH, 5)
    game.undo(SOUTH)
    game.bid(SOUTH, 4)
    result = run("replay", str(write(tmp_path, game_to_record(game))))
    assert result.returncode == 0, result.stderr
    assert "South took back 1 move" in result.stdout


def test_replay_names_the_line_of_text_nested_too_deep_without_a_traceback(
    tmp_path: Path,
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("\n" + "[" * 20000 + "]" * 20000 + "\n")
    result = run_script("replay", str(path))  # the process's own stack
    assert result.returncode == 1
    assert "line 2: brackets nested deeper than 64" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "RecursionError" not in result.stderr + result.stdout


def test_replay_of_a_pretty_printed_record_names_the_line_of_a_bad_bid_or_deal(
    tmp_path: Path,
) -> None:
    """A record opened and edited by hand (pretty-printed): the bad bid's line and
    the line of a card dealt twice, not the record's first."""
    game = Game(seed=21)
    record = game_to_record(game)
    first = game.to_act or 0
    record["hands"][0]["bids"] = [["NESW"[first], 3], ["NESW"[(first + 1) & 3], 14]]
    text = json.dumps(record, indent=2)
    bad = next(n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "14")
    path = tmp_path / "bad-bid.json"
    path.write_text(text)
    result = run("replay", str(path))
    assert result.returncode == 1
    assert f"game 1 (line 1) is broken at line {bad}: hand 1, bid 2: a bid is" in result.stderr

    record = game_to_record(game)
    deal = record["hands"][0]["deal"]
    deal["E"][4] = deal["N"][0].lower()  # East loses a card; North's first is dealt twice
    text = json.dumps(record, indent=2)
    bad = next(
        n for n, line in enumerate(text.splitlines(), 1) if line.strip(" ,") == f'"{deal["E"][4]}"'
    )
    path = tmp_path / "bad-deal.json"
    path.write_text(text)
    result = run("replay", str(path))
    assert result.returncode == 1
    assert f"game 1 (line 1) is broken at line {bad}: hand 1, deal: " in result.stderr
    assert "dealt twice (rule: deal)" in result.stderr
