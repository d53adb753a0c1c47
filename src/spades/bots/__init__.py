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
"""Every built-in bot by the name used on the command line and in records,
weakest first."""

LEVEL_SUMMARIES: dict[str, str] = {
    "random": "Plays any legal bid or card at random: a baseline, not an opponent.",
    "easy": "Counts tricks loosely, takes risky Nils and now and then misplays within a suit.",
    "normal": "Bids what a model learned from 200,000 hands says is worth most, remembers "
    "every card and plays by the rules of thumb good players use.",
    "hard": "Imagines the hands it cannot see and plays each option out in a few dozen of "
    "them before it bids or plays.",
    "expert": "The same search with more deals, stopping once they show which option is "
    "best: the strongest level.",
}
"""One line on how each level plays, for the page and the command line."""

DECISION_BUDGET = 1.0
"""Seconds a bot may take for one bid or card in a game with a person waiting."""

SEARCH_LEVELS: tuple[str, ...] = tuple(
    level
    for level, factory in BOT_LEVELS.items()
    if isinstance(factory, type) and issubclass(factory, SearchBot)
)
"""The levels that search, thinking for tenths of a second a decision."""


def longest_think(level: str) -> float:
    """The most seconds a ``level`` bot lets itself think over one decision
    (its deadline; 0 for the levels that decide in microseconds).

    >>> longest_think("normal"), longest_think("expert")
    (0.0, 0.8)
    """
    bot = make_bot(level)
    return max(bot.think, bot.bid_think) if isinstance(bot, SearchBot) else 0.0


def strongest_level(budget: float = DECISION_BUDGET) -> str:
    """The strongest level (the last of ``BOT_LEVELS``, weakest first) that
    thinks within ``budget`` seconds a decision: what new games seat by default.

    >>> strongest_level(), strongest_level(0.5), strongest_level(0.0)
    ('expert', 'hard', 'normal')
    """
    for level in reversed(BOT_LEVELS):
        if longest_think(level) <= budget:
            return level
    return next(iter(BOT_LEVELS))


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
    "DECISION_BUDGET",
    "LEVEL_SUMMARIES",
    "SEARCH_LEVELS",
    "Bot",
    "BotFailure",
    "EasyBot",
    "ExpertBot",
    "KnowledgeBot",
    "RandomBot",
    "SearchBot",
    "interactive_processes",
    "longest_think",
    "make_bot",
    "strongest_level",
]
