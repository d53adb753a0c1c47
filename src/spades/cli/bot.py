"""``spades bot LEVEL``: a built-in bot as a program speaking ``spades-bot/1``.

It reads the host's messages on stdin and answers on stdout, so any host (an
arena, a bot author's test harness, another language's game server) can use
the built-in bots as sparring partners. See ``docs/bot-protocol.md``.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Annotated

import typer

from spades.bots import BOT_LEVELS, SEARCH_LEVELS, make_bot
from spades.protocol import ProtocolError, serve

SEARCHERS = ", ".join(SEARCH_LEVELS)


def _positive_seconds(value: float | None) -> float | None:
    if value is not None and not 0 < value < math.inf:
        raise typer.BadParameter(f"must be a number of seconds above 0, got {value}")
    return value


def _log(text: str) -> None:
    print(f"spades bot: {text}", file=sys.stderr, flush=True)


def bot_command(
    level: Annotated[str, typer.Argument(help=f"The bot to play: {', '.join(BOT_LEVELS)}.")],
    seed: Annotated[
        int | None,
        typer.Option(help="Seed the bot; without it the host's seed (from hello) is used."),
    ] = None,
    think: Annotated[
        float | None,
        typer.Option(
            callback=_positive_seconds,
            help=f"Seconds per decision for the search levels ({SEARCHERS}); "
            "the other levels decide at once and ignore it.",
        ),
    ] = None,
    worlds: Annotated[
        int | None,
        typer.Option(
            min=1,
            help=f"Deals the search levels ({SEARCHERS}) search per card, ignoring the clock "
            "(and --think): their play then depends on the seed alone, on any machine. "
            "Bids search proportionally more. The other levels ignore it.",
        ),
    ] = None,
) -> None:
    """Play a built-in bot over stdin/stdout (protocol spades-bot/1, one JSON object a line).

    Logs and errors go to stderr. Exits on "quit" or at the end of the input.
    """
    if level not in BOT_LEVELS:
        raise typer.BadParameter(
            f"unknown bot {level!r} (known: {', '.join(BOT_LEVELS)})", param_hint="LEVEL"
        )
    bot = make_bot(level, seed, think=think, worlds=worlds)
    try:
        serve(bot, sys.stdin, sys.stdout, use_host_seed=seed is None, log=_log)
    except ProtocolError as error:
        print(f"spades bot: {error}", file=sys.stderr)
        raise typer.Exit(2) from None
    except BrokenPipeError:
        # The host went away mid-game: nothing is left to answer. Point stdout at
        # /dev/null so the interpreter's last flush does not complain either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
