"""Computer players, each behind the ``Bot`` interface and fed views only."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, BotFailure
from .knowledge import EasyBot, KnowledgeBot
from .random_bot import RandomBot
from .search.helpers import interactive_processes
from .search.player import ExpertBot, SearchBot

BOT_LEVELS: dict[str, Callable[[int | str | None], Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": KnowledgeBot,
    "hard": SearchBot,
    "expert": ExpertBot,
}
"""Every built-in bot by the name used on the command line and in records."""

SEARCH_LEVELS: tuple[str, ...] = tuple(
    level
    for level, factory in BOT_LEVELS.items()
    if isinstance(factory, type) and issubclass(factory, SearchBot)
)
"""The levels that search, thinking for tenths of a second a decision."""


def make_bot(
    level: str,
    seed: int | str | None = None,
    *,
    think: float | None = None,
    worlds: int | None = None,
    processes: int = 1,
) -> Bot:
    """A new built-in bot of ``level``, seeded. ``think`` sets the search levels'
    time per decision in seconds (their default budgets otherwise); ``worlds``
    instead fixes how many deals they search, ignoring the clock, so that their
    play depends on the seed alone; ``processes`` spreads each decision's deals
    over that many processes (see ``search.helpers``). The other levels decide
    in microseconds and ignore all three.

    >>> make_bot("random", seed=1).name
    'random'
    >>> make_bot("hard", seed=1, think=0.5).think
    0.5
    >>> make_bot("expert", seed=1, worlds=20).max_worlds
    20
    """
    try:
        factory = BOT_LEVELS[level]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise ValueError(f"unknown bot level {level!r} (known: {known})") from None
    bot = factory(seed)
    if isinstance(bot, SearchBot):
        if think is not None:
            bot.set_think(think)
        if worlds is not None:
            bot.fix_worlds(worlds)
        bot.use_processes(processes)
    return bot


__all__ = [
    "BOT_LEVELS",
    "SEARCH_LEVELS",
    "Bot",
    "BotFailure",
    "EasyBot",
    "ExpertBot",
    "KnowledgeBot",
    "RandomBot",
    "SearchBot",
    "interactive_processes",
    "make_bot",
]
