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


def make_bot(level: str, seed: int | str | None = None) -> Bot:
    """A new built-in bot of ``level``, seeded.

    >>> make_bot("random", seed=1).name
    'random'
    """
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None
    return factory(seed)


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
