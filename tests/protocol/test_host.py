"""The host side: bot programs in child processes play whole games, and every
way a program can fail forfeits its game with a clear reason."""

from __future__ import annotations

import io
import os
import subprocess
import time
from collections.abc import Mapping

import pytest

from spades.arena import play_game
from spades.bots import Bot, BotFailure, make_bot
from spades.core import (
    CARDCOUCH,
    EAST,
    NORTH,
    SEATS,
    SOUTH,
    WEST,
    Card,
    Game,
    PlayerView,
    Seat,
    Termination,
    game_from_record,
    game_to_record,
)
from spades.protocol import ExternalBot

from .programs import QUIRKY_BOT, SIMPLE_BOT, SPADES_SCRIPT


def quirky(mode: str, timeout: float = 5.0) -> ExternalBot:
    return ExternalBot([*QUIRKY_BOT, mode], timeout=timeout)


def play(bots: Mapping[Seat, Bot], seed: int = 7) -> Game:
    """A game with the given bots, built-in random bots in the other seats;
    every bot is closed afterwards, and the record must replay."""
    seated = {seat: bots.get(seat) or make_bot("random", seed=seat) for seat in SEATS}
    try:
        game = play_game(seated, seed=seed)
    finally:
        for bot in seated.values():
            bot.close()
    game_from_record(game_to_record(game))  # raises if the record does not replay
    return game


def is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# ------------------------------------------------------------ whole games


@pytest.mark.slow
def test_served_builtin_bots_and_the_example_bot_play_whole_games() -> None:
    bots = {
        NORTH: ExternalBot([SPADES_SCRIPT, "bot", "random"], seed="7:N"),
        EAST: ExternalBot(SIMPLE_BOT),
        SOUTH: ExternalBot(f"{SPADES_SCRIPT} bot random", seed="7:S"),
    }
    game = play(bots)
    assert game.outcome is not None and game.forfeited_by is None
    assert game.outcome.termination is not Termination.FORFEIT
    # The names were read before the programs started; then each announced its own.
    assert game.players[EAST].endswith(" simple_bot.py")
    assert [bots[seat].name for seat in (NORTH, EAST, SOUTH)] == ["random", "simple_bot", "random"]
    assert all(bot.pid is None for bot in bots.values())  # stopped at game over


@pytest.mark.slow
def test_a_served_bot_with_the_same_seed_plays_the_same_game() -> None:
    def record() -> object:
        bots = {
            seat: ExternalBot([SPADES_SCRIPT, "bot", "random"], seed=seat) for seat in (EAST, WEST)
        }
        return game_to_record(play(bots, seed=11))

    first = record()
    assert record() == first


def test_unknown_messages_chatter_and_extra_fields_from_a_bot_are_harmless() -> None:
    log = io.StringIO()
    bot = ExternalBot([*QUIRKY_BOT, "chatty"], stderr=log)
    game = play({EAST: bot})
    assert game.forfeited_by is None
    assert "x" * 1000 in log.getvalue()  # stderr was drained and passed on


def test_a_bot_object_plays_one_program_per_game() -> None:
    bot = ExternalBot(SIMPLE_BOT)
    for seed in (1, 2):
        assert play({WEST: bot}, seed=seed).forfeited_by is None


# --------------------------------------------------------------- forfeits


def forfeit_reason(bot: ExternalBot, seat: Seat = EAST) -> str:
    game = play({seat: bot})
    assert game.outcome is not None and game.outcome.termination is Termination.FORFEIT
    assert game.forfeited_by is not None and game.forfeited_by[0] == seat
    assert bot.pid is None  # a failed program is stopped at once
    return game.forfeited_by[1]


def test_a_bot_that_does_not_answer_in_time_forfeits() -> None:
    started = time.monotonic()
    reason = forfeit_reason(quirky("sleepy", timeout=0.5))
    assert reason == "East forfeits: did not answer within 0.5 s (asked to play)"
    # Far below the bot's 60 s sleep, and far above a busy machine's slowest start.
    assert time.monotonic() - started < 30


def test_a_bot_that_never_says_ready_fails_to_start() -> None:
    reason = forfeit_reason(quirky("mute", timeout=0.5))
    assert reason == "East failed to start: did not answer within 0.5 s (asked to hello)"


def test_a_bot_that_exits_forfeits_with_its_exit_code_and_last_words() -> None:
    reason = forfeit_reason(quirky("exit"))
    assert reason == "East forfeits: exited with code 3 (last line on stderr: 'boom')"


def test_a_bot_that_writes_a_line_that_is_not_json_forfeits() -> None:
    reason = forfeit_reason(quirky("garbage"))
    assert reason == "East forfeits: wrote a line that is not JSON: 'I bid three'"


def test_a_bot_that_answers_without_the_expected_key_forfeits() -> None:
    reason = forfeit_reason(quirky("wrong-key"))
    assert reason == 'East forfeits: answered the bid request without a "bid": {"card": "AS"}'


def test_a_bot_that_plays_an_illegal_card_forfeits() -> None:
    reason = forfeit_reason(quirky("illegal-card"))
    assert reason.startswith("East played an illegal card (2C): You do not hold the 2 of clubs")


def test_a_bot_that_bids_out_of_range_forfeits() -> None:
    reason = forfeit_reason(quirky("illegal-bid"))
    assert reason.startswith("East made an illegal bid (14)")


def test_a_program_that_cannot_run_fails_to_start() -> None:
    reason = forfeit_reason(ExternalBot(["/nonexistent/bot"]))
    assert (
        reason == "East failed to start: cannot run '/nonexistent/bot': No such file or directory"
    )


# ------------------------------------------------- the program never outlives the game


def test_a_program_ignoring_quit_is_killed_on_close() -> None:
    bot = quirky("stubborn")
    bot.start_game(EAST, CARDCOUCH)
    pid = bot.pid
    assert pid is not None and is_running(pid)
    started = time.monotonic()
    bot.close()
    assert time.monotonic() - started < 30  # killed after its grace, not waited 60 s for
    assert bot.pid is None and not is_running(pid)
    bot.close()  # twice is harmless


def test_the_program_stops_when_another_seat_forfeits() -> None:
    class Crasher(Bot):
        def bid(self, view: PlayerView) -> int:
            raise BotFailure("gave up")

        def play(self, view: PlayerView) -> Card:
            raise BotFailure("gave up")

    external = ExternalBot(SIMPLE_BOT)
    bots: dict[Seat, Bot] = {seat: Crasher() for seat in SEATS}
    bots[EAST] = external
    game = play_game(bots, seed=3)
    assert game.forfeited_by is not None and game.forfeited_by[0] != EAST
    assert external.pid is None  # told game_over, it was stopped


def test_a_context_manager_stops_the_program() -> None:
    with ExternalBot(SIMPLE_BOT) as bot:
        bot.start_game(NORTH, CARDCOUCH)
        pid = bot.pid
        assert pid is not None
    assert not is_running(pid)


def test_the_example_bot_answers_when_run_by_hand() -> None:
    lines = [
        '{"type": "hello", "protocol": "spades-bot/1", "seat": "E", "rules": {}}',
        '{"type": "weather", "forecast": "sunny"}',
        '{"type": "bid", "bids": [["S", "nil"]]}',
        '{"type": "play", "trick": {"leader": "S", "cards": ["4H"]}, "legal": ["KH", "2H"]}',
        '{"type": "quit"}',
        '{"type": "bid", "bids": []}',
    ]
    result = subprocess.run(
        SIMPLE_BOT, input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=10
    )
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        '{"type": "ready", "name": "simple_bot"}',
        '{"bid": 3}',
        '{"card": "2H"}',
    ]


def test_bad_arguments_are_refused_up_front() -> None:
    with pytest.raises(ValueError, match="cannot be empty"):
        ExternalBot("")
    with pytest.raises(ValueError, match="timeout must be positive"):
        ExternalBot("bot", timeout=0)
    assert ExternalBot("/opt/bots/my_bot --fast").name == "my_bot --fast"
    assert ExternalBot("my_bot", name="Alice").name == "Alice"
