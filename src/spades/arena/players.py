"""Who plays in a match: a player spec on the command line, and the bots it makes.

A spec is a built-in bot level (``random``, and every other name in
``BOT_LEVELS``), a stranger (``cautious``, ``aggressive`` or ``beginner``: the
outside opponents of ``spades.bots.strangers``) or ``cmd:`` followed by the
command line of an external program speaking the bot protocol
(``cmd:python my_bot.py``).

>>> parse_player("random")
PlayerSpec(text='random', level='random', command=None)
>>> parse_player("Random").level
'random'
>>> parse_player("cautious").level
'cautious'
>>> parse_player("cmd:")
Traceback (most recent call last):
...
spades.arena.players.PlayerSpecError: 'cmd:' names no program: write cmd:PROGRAM [ARGS...], e.g. 'cmd:python my_bot.py'
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from spades.bots import BOT_LEVELS, Bot, make_bot
from spades.bots.strangers import STRANGERS

if TYPE_CHECKING:
    from spades.protocol.host import ExternalBot

COMMAND_PREFIX: Final = "cmd:"
DEFAULT_TIMEOUT: Final = 10.0


class PlayerSpecError(ValueError):
    """A player spec that names no bot level, no stranger and no runnable program."""


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A parsed player spec: exactly one of ``level`` (a bot level or a
    stranger's name) and ``command`` is set.

    Plain strings only, so a spec crosses to worker processes as it is and
    each worker builds its own bots from it.
    """

    text: str
    """The spec as the user wrote it: how the player is named in reports."""
    level: str | None
    command: str | None


def parse_player(text: str) -> PlayerSpec:
    """Check ``text`` and return its spec; raises ``PlayerSpecError`` saying what is wrong.

    An external program is looked up now, so a typo is reported before any game starts.
    """
    cleaned = text.strip()
    if cleaned.lower().startswith(COMMAND_PREFIX):
        command = cleaned[len(COMMAND_PREFIX) :].strip()
        _check_command(command)
        return PlayerSpec(cleaned, level=None, command=command)
    level = cleaned.lower()
    if level in BOT_LEVELS or level in STRANGERS:
        return PlayerSpec(cleaned, level=level, command=None)
    raise PlayerSpecError(
        f"unknown player {text!r}: use a bot level ({', '.join(BOT_LEVELS)}), "
        f"a stranger ({', '.join(STRANGERS)}) "
        f"or {COMMAND_PREFIX}PROGRAM [ARGS...] for an external bot"
    )


def _check_command(command: str) -> None:
    try:
        argv = shlex.split(command)
    except ValueError as error:  # an unclosed quote
        raise PlayerSpecError(f"cannot read the command {command!r}: {error}") from None
    if not argv:
        raise PlayerSpecError(
            f"{COMMAND_PREFIX!r} names no program: write {COMMAND_PREFIX}PROGRAM [ARGS...], "
            f"e.g. '{COMMAND_PREFIX}python my_bot.py'"
        )
    program = argv[0]
    is_path = os.sep in program or (os.altsep is not None and os.altsep in program)
    found = os.access(program, os.X_OK) if is_path else shutil.which(program) is not None
    if not found:
        raise PlayerSpecError(f"cannot run {program!r} (from {command!r}): no such program")
    _import_external_bot()  # a program needs the protocol host: fail now, not mid-match


def _import_external_bot() -> type[ExternalBot]:
    # Imported only when a program plays: built-in matches never load the protocol host.
    try:
        from spades.protocol.host import ExternalBot
    except ImportError as error:
        raise PlayerSpecError(f"external bots are not available here: {error}") from None
    return ExternalBot


def make_player(
    spec: PlayerSpec,
    seed: int,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    think: float | None = None,
    worlds: int | None = None,
) -> Bot:
    """A new bot for one seat of one game (or table), seeded with ``seed``;
    ``think`` is the search levels' time per decision (their default if None),
    ``worlds`` fixes their deals searched instead (see ``make_bot``); the
    strangers ignore both."""
    if spec.level in STRANGERS:
        return STRANGERS[spec.level](seed)
    if spec.level is not None:
        return make_bot(spec.level, seed=seed, think=think, worlds=worlds)
    assert spec.command is not None
    return _import_external_bot()(spec.command, seed=seed, timeout=timeout)
