"""`spades play` with answers piped to stdin: one whole game through the real
console script, the other runs by the command's entry point in this process.

The tests re-play the very game the command deals (same seed, same bots seeded
from it) with the engine, so they know South's cards and which answers are
legal at every prompt.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from rich.console import Console
from rich.text import TextType

from spades.bots import Bot, BotFailure, RandomBot, strongest_level
from spades.cli.play import (
    TerminalGame,
    default_level,
    parse_card_choice,
    read_typed_bid,
)
from spades.core import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Card,
    Event,
    Game,
    IllegalCardError,
    Phase,
    PlayerView,
    Rules,
    card_name,
)
from spades.core.cards import sorted_for_display
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES, TEAM_LONG_NAMES

from .terminal import (
    LEVELS,
    SEED,
    first_numbered,
    run_play,
    run_spades,
    south_turns,
    whole_game,
)


def first_card_turn(seed: int) -> Game:
    """The game at South's first card prompt (after bidding 3)."""
    for game in south_turns(seed):
        if game.phase is Phase.PLAYING:
            return game
    raise AssertionError("South never plays")


def refused_card(rule: str) -> tuple[int, Card, str]:
    """A seed and a card South's first play is refused under ``rule``, with the engine's message."""
    for seed in range(1, 200):
        game = first_card_turn(seed)
        for card in range(52):
            try:
                game.verify_play(SOUTH, card)
            except IllegalCardError as error:
                if error.rule == rule:
                    return seed, card, error.message
    raise AssertionError(f"no seed below 200 breaks rule {rule!r} on South's first card")


# ------------------------------------------------------------------- the tests


class FinishedRun(NamedTuple):
    game: Game
    answers: list[str]
    result: subprocess.CompletedProcess[str]
    record_file: Path


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> FinishedRun:
    """One whole game played through the command, its record written with --out."""
    game, answers = whole_game(SEED)
    record_file = tmp_path_factory.mktemp("play") / "game.jsonl"
    # Through the real console script: the other runs are in this process.
    result = run_play(SEED, "\n".join(answers) + "\n", "--out", str(record_file), script=True)
    return FinishedRun(game, answers, result, record_file)


def test_whole_game_answering_3_to_bids_and_1_to_cards(finished: FinishedRun) -> None:
    game, answers, result = finished.game, finished.answers, finished.result
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert game.outcome is not None
    winner, loser = game.outcome.winner, 1 - game.outcome.winner
    assert (
        f"Game over: {TEAM_LONG_NAMES[winner]} win "
        f"{game.totals[winner]} to {game.totals[loser]}" in out
    )
    assert "Score sheet" in out
    assert f"Totals: North-South {game.totals[0]} " in out
    assert out.count("South bids 3") == len(game.history)
    assert out.count("South plays ") == answers.count("1")
    assert "Game stopped" not in out


def test_whole_game_shows_bots_tricks_and_the_table(finished: FinishedRun) -> None:
    out = finished.result.stdout
    for seat in (WEST, NORTH, EAST):
        assert f"{SEAT_NAMES[seat]} bids " in out
    trick = finished.game.history[0].state.tricks[0]
    for position, card in enumerate(trick.cards):
        seat = (trick.leader + position) & 3
        assert f"{SEAT_NAMES[seat]} plays {card_name(card)}" in out
    assert f"{SEAT_NAMES[trick.winner]} wins the trick with" in out
    assert "dealer" in out and "<- to play" in out and "<- to bid" in out
    assert "Spades broken" in out
    assert "[1] " in out  # legal cards are numbered


def test_out_writes_a_record_that_replay_accepts(finished: FinishedRun) -> None:
    assert finished.result.returncode == 0, finished.result.stderr
    record = json.loads(finished.record_file.read_text(encoding="utf-8"))
    assert record["players"] == {"N": "random", "E": "random", "S": "human", "W": "random"}
    assert record["seed"] == SEED
    assert finished.game.outcome is not None
    assert record["winner"] == ("NS", "EW")[finished.game.outcome.winner]
    replayed = run_spades("replay", str(finished.record_file))
    assert replayed.returncode == 0, replayed.stderr
    assert "1 record(s) checked: all valid" in replayed.stdout


@pytest.mark.parametrize("rule", ["follow-suit", "hold-card", "first-lead"])
def test_an_illegal_card_is_refused_with_the_rule_and_the_game_goes_on(rule: str) -> None:
    seed, card, message = refused_card(rule)
    legal = card_name(first_numbered(first_card_turn(seed)))
    result = run_play(seed, f"3\n{card_name(card).lower()}\n1\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert message in out
    assert f"South plays {card_name(card)}" not in out
    assert out.index(message) < out.index(f"South plays {legal}")


def test_a_malformed_bid_is_refused_and_nothing_changes() -> None:
    result = run_play(SEED, "14\nabc\n0\n3\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "A bid is Nil or a number from 1 to 13, not 14" in out  # the engine's own words
    assert "'abc' is not a bid" in out
    assert "0 is not a bid: to promise to take no tricks, bid nil" in out
    assert out.count("South bids") == 1 and "South bids 3" in out


def test_a_card_number_or_name_that_is_no_card_is_refused() -> None:
    result = run_play(SEED, "3\n99\nZZ\n1\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "There is no card numbered 99" in result.stdout
    assert "'ZZ' is not a card" in result.stdout
    assert result.stdout.count("South plays") == 1


@pytest.mark.parametrize("stdin", ["quit\n", "q\n", ""], ids=["quit", "q", "end-of-input"])
def test_quitting_ends_the_game_cleanly(stdin: str) -> None:
    result = run_play(SEED, stdin)
    assert result.returncode == 0
    assert result.stderr == ""
    assert "Game stopped during hand 1" in result.stdout
    assert "South bids" not in result.stdout


def test_help_lists_the_commands_and_asks_again() -> None:
    result = run_play(SEED, "help\nquit\n")
    assert "Commands:" in result.stdout
    assert result.stdout.count("Your bid (") == 2


def test_out_saves_an_unfinished_game_on_quit(tmp_path: Path) -> None:
    out = tmp_path / "unfinished.jsonl"
    result = run_play(SEED, "3\n1\n1\nquit\n", "--out", str(out))
    assert result.returncode == 0, result.stderr
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["winner"] is None
    assert run_spades("replay", str(out)).returncode == 0


@pytest.mark.parametrize(
    ("option", "value", "complaint"),
    [
        ("--partner", "genius", "unknown bot level 'genius'"),
        ("--opponents", "genius", "unknown bot level 'genius'"),
        ("--out", "/no/such/dir/game.jsonl", "no directory"),
    ],
)
def test_bad_options_are_usage_errors_before_any_play(
    option: str, value: str, complaint: str
) -> None:
    result = run_spades("play", option, value, stdin="quit\n")
    assert result.returncode == 2
    assert complaint in result.stderr
    assert "bids" not in result.stdout


# ------------------------------------------------------------- in-process units


def test_default_level_is_the_strongest_within_the_decision_budget() -> None:
    assert default_level() == strongest_level() == "expert"


def test_parse_bid_leaves_the_range_to_the_engine() -> None:
    assert read_typed_bid("NIL") == 0 and read_typed_bid(" 13 ") == 13
    assert read_typed_bid("14") == 14  # refused by Game.bid, in the engine's words
    for text in ("abc", "-1", "0", "3.5", ""):
        with pytest.raises(ValueError):
            read_typed_bid(text)


def test_parse_card_choice_numbers_index_the_legal_cards() -> None:
    numbered = sorted_for_display([0, 13, 51])  # 2C, 2D, AS
    assert [card_name(parse_card_choice(str(n), numbered)) for n in (1, 2, 3)] == [
        "AS", "2C", "2D",
    ]  # fmt: skip
    assert card_name(parse_card_choice("10h", numbered)) == "TH"
    with pytest.raises(ValueError, match="no card numbered 4"):
        parse_card_choice("4", numbered)


# ------------------------------------------------- the bot protocol, in process


class ScriptedConsole(Console):
    """A console writing to memory and answering prompts from a list."""

    def __init__(self, answers: list[str]) -> None:
        super().__init__(file=io.StringIO(), width=100, soft_wrap=True, highlight=False)
        self.answers = iter(answers)

    def input(self, prompt: TextType = "", **_: Any) -> str:
        self.print(prompt, end="")
        try:
            return next(self.answers)
        except StopIteration:
            raise EOFError from None

    @property
    def text(self) -> str:
        assert isinstance(self.file, io.StringIO)
        return self.file.getvalue()


class FollowingBot(RandomBot):
    """A random bot that keeps every event it is told, with its seat at the start."""

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.seat: int | None = None
        self.events: list[Event] = []
        self.closed = False

    def start_game(self, seat: int, rules: Rules) -> None:
        self.seat = seat

    def observe(self, event: Event, view: PlayerView) -> None:
        assert view.seat == self.seat  # its own seat's view, nobody else's
        self.events.append(event)

    def close(self) -> None:
        self.closed = True


class FailingBot(RandomBot):
    def bid(self, view: PlayerView) -> int:
        raise BotFailure("the program crashed")


class BrokenBot(RandomBot):
    def start_game(self, seat: int, rules: Rules) -> None:
        raise BotFailure("no such program")


class CheatingBot(RandomBot):
    def bid(self, view: PlayerView) -> int:
        return 14


def seed_where_a_bot_bids_first() -> int:
    return next(seed for seed in range(100) if Game(seed=seed).to_act != SOUTH)


def test_following_bots_are_started_told_every_event_and_closed() -> None:
    game, answers = whole_game(SEED)
    bots: dict[int, Bot] = {seat: FollowingBot(f"{SEED}:{SEAT_LETTERS[seat]}") for seat in LEVELS}
    played = Game(seed=SEED)
    console = ScriptedConsole(answers)
    assert TerminalGame(played, bots, console).run()
    assert played.totals == game.totals  # the same bots, seeded alike, play alike
    for seat, bot in bots.items():
        assert isinstance(bot, FollowingBot)
        assert bot.seat == seat and bot.closed
        assert bot.events == played.log


@pytest.mark.parametrize(
    ("bot_type", "reason"),
    [
        (BrokenBot, "failed to start: no such program"),
        (FailingBot, "forfeits: the program crashed"),
        (CheatingBot, "made an illegal bid (14): A bid is Nil or a number from 1 to 13, not 14"),
    ],
)
def test_a_failing_or_cheating_bot_forfeits_for_its_side(bot_type: type[Bot], reason: str) -> None:
    seed = seed_where_a_bot_bids_first()
    game = Game(seed=seed)
    # Every bot fails alike: the first one asked, at the start or to bid, forfeits.
    culprit = next(iter(LEVELS)) if bot_type is BrokenBot else game.to_act
    bots: dict[int, Bot] = {seat: bot_type(seat) for seat in LEVELS}
    console = ScriptedConsole([])
    assert TerminalGame(game, bots, console).run()
    assert game.forfeited_by is not None and game.forfeited_by[0] == culprit
    assert reason in console.text and console.text.count("Game over:") == 1
