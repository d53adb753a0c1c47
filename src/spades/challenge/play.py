"""Playing a deal: the bots' turns, and the par, the bots in South's seat too.

Every bot move goes through ``spades.session``: ``bot_move`` asks the seat's
level on its own view, seeded by the position (``decision_seed``), so two
players who make the same moves on a deal meet the same answers, and the par
is the moves the day's level makes at every seat. A deal stops once its hand
is scored: the engine has then dealt a next hand, which no one plays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from spades.arena.referee import listeners_of, start_bots, tell_bots
from spades.bots import Bot
from spades.core import EAST, NORTH, SEATS, SOUTH, WEST, Event, Game, HandScored, Seat
from spades.session import bot_move, bot_turn
from spades.session.turns import Decide

from .deals import deal_game, deal_over, north_south_score

MAX_TURNS: Final = 200
"""A guard only: a hand is 4 bids and 52 cards."""
PAR_PLAYER: Final = "par"


def bot_levels(level: str) -> dict[Seat, str]:
    """The seats the day's bots play for a person at South."""
    return {NORTH: level, EAST: level, WEST: level}


def bots_answer(game: Game, levels: Mapping[Seat, str], decide: Decide) -> list[Event]:
    """Let the bots of ``levels`` act until another seat is to act or the hand
    is over; returns the events."""
    events: list[Event] = []
    for _ in range(MAX_TURNS):
        if deal_over(game):
            break
        made = bot_move(game, levels, decide)
        if made is None:
            break
        events += made
    return this_hand_only(events)


def this_hand_only(events: list[Event]) -> list[Event]:
    """The events up to the hand's score (the next deal and beyond are no one's)."""
    for index, event in enumerate(events):
        if isinstance(event, HandScored):
            return events[: index + 1]
    return events


@dataclass(frozen=True, slots=True)
class DealResult:
    """North-South's result on a deal: the score, South's bid and the side's tricks."""

    score: int
    bid: int | None
    tricks: int | None


def result_of(game: Game) -> DealResult:
    """The result of a finished deal."""
    state = game.history[0].state if game.history else game.hand
    bid = state.bids[SOUTH]
    tricks = state.tricks_won[NORTH] + state.tricks_won[SOUTH] if game.history else None
    return DealResult(north_south_score(game), bid, tricks)


def play_par(seed: int, number: int, level: str, decide: Decide) -> Game:
    """The par of deal ``number``: ``level`` at every seat, South's too."""
    game = deal_game(seed, number, dict.fromkeys(SEATS, level) | {SOUTH: PAR_PLAYER})
    bots_answer(game, dict.fromkeys(SEATS, level), decide)
    assert deal_over(game), "the bots play every seat to the end of the hand"
    return game


def play_with_south(
    seed: int, number: int, south: Bot, south_name: str, level: str, decide: Decide
) -> Game:
    """Deal ``number`` with ``south`` (a bot of any kind: a level, a stranger, a
    program) at South and the day's bots at the other seats, as a person plays it."""
    levels = bot_levels(level)
    game = deal_game(seed, number, {**levels, SOUTH: south_name})
    bots = {SOUTH: south}
    listeners = listeners_of(bots)  # a program follows the game through the events
    start_bots(game, bots)  # one that cannot start forfeits
    tell_bots(bots, listeners, game, game.log[:])
    for _ in range(MAX_TURNS):
        tell_bots(bots, listeners, game, bots_answer(game, levels, decide))
        if deal_over(game):
            break
        # A failing or cheating bot forfeits, as in the arena.
        tell_bots(bots, listeners, game, this_hand_only(bot_turn(game, SOUTH, south)))
    return game
