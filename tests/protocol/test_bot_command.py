"""`spades bot LEVEL`, through the real entry point: its options reach the bot,
and a bad value is a usage error naming the option."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spades.arena.referee import play_hand
from spades.bots import SEARCH_LEVELS, Bot, make_bot
from spades.cli.app import app
from spades.core import NORTH, SEATS, Event
from spades.core.hand import deal_from_seed
from spades.protocol import ExternalBot

SPADES_SCRIPT = str(Path(sys.executable).parent / "spades")
HELLO = {"type": "hello", "protocol": "spades-bot/1", "seat": "S", "rules": {}}
DEAL = {
    "type": "new_hand",
    "hand": 1,
    "dealer": "E",
    "cards": ["2C", "9C", "QC", "AC", "3D", "TD", "KD", "5H", "JH", "AH", "4S", "QS", "AS"],
    "score": {"NS": {"total": 0, "bags": 0}, "EW": {"total": 0, "bags": 0}},
}


def hand_against_a_host(*options: str) -> list[Event]:
    """One hand with ``spades bot ...`` at North, seeded random bots elsewhere; its events."""
    bots: dict[int, Bot] = {seat: make_bot("random", seed=seat) for seat in SEATS}
    bots[NORTH] = ExternalBot([SPADES_SCRIPT, "bot", *options], timeout=30)
    try:
        game = play_hand(bots, dealer=NORTH, deal=deal_from_seed(11), seed=3)
    finally:
        for bot in bots.values():
            bot.close()
    assert game.forfeited_by is None
    return game.log


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_a_search_level_with_fixed_worlds_repeats_its_moves_exactly(level: str) -> None:
    first = hand_against_a_host(level, "--worlds", "2", "--seed", "5")
    assert len(first) > 13 * 4  # the whole hand was played
    assert hand_against_a_host(level, "--worlds", "2", "--seed", "5") == first


def bid_of(*options: str) -> dict[str, object]:
    lines = [json.dumps(HELLO), json.dumps(DEAL), '{"type": "bid", "bids": []}']
    result = CliRunner().invoke(app, ["bot", *options], input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(replies) == 2
    reply: dict[str, object] = replies[1]
    return reply


def test_think_and_worlds_reach_the_search_levels() -> None:
    assert "bid" in bid_of("hard", "--think", "0.05", "--seed", "1")
    assert "bid" in bid_of("expert", "--think", "0.05", "--worlds", "1", "--seed", "1")


@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_the_levels_that_do_not_search_accept_and_ignore_think_and_worlds(level: str) -> None:
    plain = bid_of(level, "--seed", "2")
    assert bid_of(level, "--seed", "2", "--think", "0.5", "--worlds", "3") == plain


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--worlds", "0"),
        ("--worlds", "-3"),
        ("--worlds", "two"),
        ("--think", "0"),
        ("--think", "-1"),
        ("--think", "nan"),
        ("--think", "inf"),
        ("--think", "soon"),
    ],
)
def test_a_bad_think_or_worlds_is_a_usage_error_naming_the_option(option: str, value: str) -> None:
    result = CliRunner().invoke(app, ["bot", "expert", option, value], input="")
    assert result.exit_code == 2
    assert f"Invalid value for '{option}'" in result.output
    assert result.stdout == ""  # the error is on stderr; nothing was served
