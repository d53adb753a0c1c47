"""Which bot level plays each seat of a web game.

North, West and East are chosen separately. The game record's ``players``
names each seat's level, so it is the authority; the table's two level columns
(partner, opponents) summarise it for lists and statistics, "west/east" when
the two opponents differ.

>>> from spades.core import Game
>>> game = Game(seed=1, players={0: "normal", 1: "hard", 2: "human", 3: "easy"})
>>> seat_levels(game, "normal", "easy/hard")
{0: 'normal', 1: 'hard', 3: 'easy'}
>>> opponents_name(west="easy", east="hard"), opponents_name(west="hard", east="hard")
('easy/hard', 'hard')
"""

from __future__ import annotations

from typing import Final

from spades.bots import BOT_LEVELS
from spades.core import EAST, NORTH, SOUTH, WEST, Game
from spades.core.seats import SEATS, Seat

from ..http.limits import quote

HUMAN: Final = SOUTH
BOT_SEATS: Final = (NORTH, EAST, WEST)


class BadSettings(ValueError):
    """A new game's settings name no bot level."""


def check_level(level: str, who: str) -> str:
    if level not in BOT_LEVELS:
        raise BadSettings(
            f"Unknown bot level {quote(level)} for {who}: choose {', '.join(BOT_LEVELS)}"
        )
    return level


def opponents_name(*, west: str, east: str) -> str:
    """The opponents' levels in one name: one level, or "west/east"."""
    return west if west == east else f"{west}/{east}"


def seat_levels(game: Game, partner_level: str, opponent_level: str) -> dict[Seat, str]:
    """The level of each bot seat, as the record's players name them (a game
    whose record does not name a level for a seat falls back on the columns)."""
    west, _, east = opponent_level.partition("/")
    fallback = {NORTH: partner_level, EAST: east or west, WEST: west}
    levels: dict[Seat, str] = {}
    for seat in SEATS:
        if seat == HUMAN:
            continue
        named = game.players.get(seat, "")
        levels[seat] = named if named in BOT_LEVELS else fallback[seat]
    return levels
