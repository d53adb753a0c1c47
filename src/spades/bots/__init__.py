"""Computer players, each behind the ``Bot`` interface and fed views only."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, BotFailure
from .knowledge import EasyBot, KnowledgeBot
from .random_bot import RandomBot
from .search.player import ExpertBot, SearchBot

BOT_LEVELS: dict[str, Callable[[int | str | None], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": KnowledgeBot,
    "hard": SearchBot,
    "expert": ExpertBot,
}
"""Every built-in bot by the name used on the command line and in records."""


def make_bot(level: str, seed: int | str | None = None, *, think: float | None = None) -> Bot:
    """A new built-in bot of ``level``, seeded. ``think`` sets the search levels'
    time per decision in seconds (their default budgets otherwise); the other
    levels decide in microseconds and ignore it.

    >>> make_bot("random", seed=1).name
    'random'
    >>> make_bot("hard", seed=1, think=0.5).think
    0.5
    """
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None
    bot = factory(seed)
    if think is not None and isinstance(bot, SearchBot):
        bot.set_think(think)
    return bot


__all__ = [
    "BOT_LEVELS",
    "Bot",
    "BotFailure",
    "EasyBot",
    "ExpertBot",
    "KnowledgeBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
]
