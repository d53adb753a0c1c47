"""Matches between two partnerships, A and B: full games, or duplicate deals.

Everything random in a match comes from its master seed through
``derive_seed``: each game's (or deal's) seed from its index, each bot's from
that seed and its seat. A game's result therefore depends on its index only,
never on which worker process played it or when, so any number of workers
gives the same match.

>>> from .players import parse_player
>>> setup = MatchSetup(parse_player("random"), parse_player("random"), seed=7)
>>> first, second = run_games(setup, count=2)
>>> first.a_team == NS and second.a_team == EW    # the partnerships swap seats
True
>>> list(run_games(setup, count=2)) == [first, second]   # and the seed reproduces them
True
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, Protocol, TypeVar

from spades.bots import Bot
from spades.core import (
    CARDCOUCH,
    EW,
    NS,
    SEATS,
    Game,
    Rules,
    Seat,
    Team,
    TeamHandScore,
    game_to_record,
    team_of,
)
from spades.core.hand import deal as deal_cards

from .players import DEFAULT_TIMEOUT, PlayerSpec, make_player
from .referee import play_game, play_hand
from .stats import SideTally
from .timing import TimedBot, Timings

SIDE_NAMES: Final = ("A", "B")
Side = int
"""A partnership of the match: 0 is A (the first player named), 1 is B."""

Result = TypeVar("Result")

__all__ = [
    "SIDE_NAMES",
    "DealResult",
    "GameResult",
    "MatchSetup",
    "Runner",
    "derive_seed",
    "run_duplicate",
    "run_games",
]


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """Everything a worker needs to play any game or deal of the match."""

    a: PlayerSpec
    b: PlayerSpec
    seed: int
    rules: Rules = CARDCOUCH
    timeout: float = DEFAULT_TIMEOUT
    """Seconds an external program may think per move."""
    think: float | None = None
    """Seconds per decision for the search levels (None: their defaults)."""
    worlds: int | None = None
    """Deals the search levels search per card, whatever the clock (None: by time)."""
    keep_records: bool = False
    """Send each game's record back from the worker (only when they are written out)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One full game of the match, from A's side of the table."""

    index: int
    a_team: Team
    winner: Side
    margin: int
    """A's final total minus B's."""
    hands: int
    tallies: tuple[SideTally, SideTally]
    records: tuple[dict[str, Any], ...]


@dataclass(frozen=True, slots=True)
class DealResult:
    """One duplicate deal: the same cards at two tables, A at North-South at the
    first and at East-West at the second."""

    index: int
    a_points: float
    """A's mean hand score over the two tables (see ``table_scores`` for a forfeit)."""
    b_points: float
    a_adjusted: float
    """A's mean hand score with every bag charged its share of the penalty to
    come (see ``bag_adjusted``)."""
    b_adjusted: float
    tallies: tuple[SideTally, SideTally]
    records: tuple[dict[str, Any], ...]
    """The first table's record, then the second's (when kept)."""


def derive_seed(*parts: object) -> int:
    """A 63-bit seed named by ``parts`` (a master seed, what it is for, an index).

    A hash rather than draws from one shared RNG, so the seed of game 900 does
    not depend on games 0..899 having been played first, or in this process.

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    """
    text = ":".join(str(part) for part in parts)
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def a_team_of_game(index: int) -> Team:
    """A sits North-South in even games and East-West in odd ones."""
    return NS if index % 2 == 0 else EW


def side_of(team: Team, a_team: Team) -> Side:
    return 0 if team == a_team else 1


# ------------------------------------------------------------------- one game


def play_match_game(setup: MatchSetup, index: int) -> GameResult:
    """Play game ``index`` of the match to the end."""
    seed = derive_seed(setup.seed, "game", index)
    a_team = a_team_of_game(index)
    timings = (Timings(), Timings())
    with seated_bots(setup, a_team, seed, timings) as bots:
        game = play_game(bots, seed=seed, rules=setup.rules)
    assert game.outcome is not None
    totals = game.totals
    return GameResult(
        index=index,
        a_team=a_team,
        winner=side_of(game.outcome.winner, a_team),
        margin=totals[a_team] - totals[1 - a_team],
        hands=len(game.history),
        tallies=tally_game(game, a_team, timings),
        records=(game_to_record(game),) if setup.keep_records else (),
    )


def play_duplicate_deal(setup: MatchSetup, index: int) -> DealResult:
    """Play deal ``index`` at both tables, each a single hand from 0-0."""
    seed = derive_seed(setup.seed, "deal", index)
    cards = deal_cards(random.Random(seed))
    dealer: Seat = index % 4
    scores: list[tuple[float, float]] = []
    adjusted: list[tuple[float, float]] = []
    tallies = (SideTally(), SideTally())
    records: list[dict[str, Any]] = []
    for a_team in (NS, EW):
        timings = (Timings(), Timings())
        # Both tables share the seed, so a seat's bot is seeded alike at both:
        # a bot playing itself then plays identical tables and the luck cancels.
        with seated_bots(setup, a_team, seed, timings) as bots:
            game = play_hand(bots, dealer=dealer, deal=cards, rules=setup.rules, seed=seed)
        scores.append(table_scores(game, a_team))
        adjusted.append(table_scores(game, a_team, bag_adjusted))
        for side, tally in enumerate(tally_game(game, a_team, timings)):
            tallies[side].add(tally)
        if setup.keep_records:
            records.append(table_record(game))
    (a_first, b_first), (a_second, b_second) = scores
    (a_first_adjusted, b_first_adjusted), (a_second_adjusted, b_second_adjusted) = adjusted
    return DealResult(
        index,
        a_points=(a_first + a_second) / 2,
        b_points=(b_first + b_second) / 2,
        a_adjusted=(a_first_adjusted + a_second_adjusted) / 2,
        b_adjusted=(b_first_adjusted + b_second_adjusted) / 2,
        tallies=tallies,
        records=tuple(records),
    )


def raw_score(score: TeamHandScore, rules: Rules) -> float:
    """A team's score for the hand, as the rules give it."""
    return score.delta


def bag_adjusted(score: TeamHandScore, rules: Rules) -> float:
    """A team's score for the hand with each bag taken charged its share of the
    penalty (``bag_penalty / bag_limit``: 10 points under the seed's rules)
    instead of the penalty itself.

    A hand played from 0-0 never reaches the bag limit, so its raw score lets
    bags look free and flatters a player who underbids; over a game each bag
    does cost its share. (A penalty the hand did reach is replaced by the
    charge, not added to it.)

    >>> from spades.core import CARDCOUCH, score_hand
    >>> ns, ew = score_hand([3, 2, 3, 2], [5, 3, 2, 3])   # NS bid 6, took 7: +61, 1 bag
    >>> raw_score(ns, CARDCOUCH), bag_adjusted(ns, CARDCOUCH)
    (61, 51.0)
    """
    charge = score.bags_taken * rules.bag_cost
    return score.delta + score.bag_penalty_points - charge


def table_scores(
    game: Game,
    a_team: Team,
    value: Callable[[TeamHandScore, Rules], float] = raw_score,
) -> tuple[float, float]:
    """A's and B's score for a duplicate table's hand, each team's result valued
    by ``value`` (the raw score, or ``bag_adjusted``).

    A table forfeited before its hand was scored counts the floor of the rules
    (-200, where a game is lost) for the side that forfeited and 0 for the
    other: a forfeit loses the game. Leaving such tables out would let a bot
    that fails when its hand goes wrong look better than it is.
    """
    if game.history:
        scores = game.history[0].scores
        return value(scores[a_team], game.rules), value(scores[1 - a_team], game.rules)
    assert game.forfeited_by is not None, "a duplicate table ends scored or forfeited"
    forfeiting_team = team_of(game.forfeited_by[0])
    # Without a floor a forfeit still loses the game: count it as far below zero as the target is above.
    penalty = game.rules.floor if game.rules.floor is not None else -game.rules.target
    return (penalty, 0) if forfeiting_team == a_team else (0, penalty)


def table_record(game: Game) -> dict[str, Any]:
    """The record of a duplicate table: its one hand, without the next hand the
    engine has already dealt (which no one played)."""
    record = game_to_record(game)
    record["hands"] = record["hands"][:1]
    return record


@contextmanager
def seated_bots(
    setup: MatchSetup, a_team: Team, seed: int, timings: tuple[Timings, Timings]
) -> Iterator[dict[Seat, Bot]]:
    """A's bots at ``a_team``'s seats and B's at the others, each seeded from
    ``seed`` and its seat, their decisions timed into A's and B's ``timings``;
    closed afterwards (an external program must stop)."""
    bots: dict[Seat, Bot] = {}
    try:
        for seat in SEATS:
            side = side_of(team_of(seat), a_team)
            player = make_player(
                (setup.a, setup.b)[side],
                derive_seed(seed, "seat", seat),
                timeout=setup.timeout,
                think=setup.think,
                worlds=setup.worlds,
            )
            bots[seat] = TimedBot(player, timings[side])
        yield bots
    finally:
        for bot in bots.values():
            bot.close()


def tally_game(
    game: Game, a_team: Team, timings: tuple[Timings, Timings] | None = None
) -> tuple[SideTally, SideTally]:
    """Each side's bidding record in ``game``'s scored hands, its forfeit if any,
    and (given A's and B's ``timings``) how long its decisions took."""
    tallies = (SideTally(), SideTally())
    if timings is not None:
        for tally, timed in zip(tallies, timings, strict=True):
            tally.decision_ns.extend(timed.bids + timed.cards)
    for scored in game.history:
        for team in (NS, EW):
            tallies[side_of(team, a_team)].add_hand(scored.scores[team])
    if game.forfeited_by is not None:
        seat, _ = game.forfeited_by
        tallies[side_of(team_of(seat), a_team)].forfeits += 1
    return tallies


# ---------------------------------------------------------------- the match


class Runner(Protocol):
    """Plays ``work(0) .. work(count - 1)`` somewhere and yields the results in
    index order: ``in_index_order`` on this machine's processes, or
    ``cluster.ray_runner`` on Ray."""

    def __call__(self, work: Callable[[int], Result], count: int) -> Iterator[Result]: ...


def run_games(
    setup: MatchSetup, count: int, *, workers: int = 1, runner: Runner | None = None
) -> Iterator[GameResult]:
    """Play ``count`` games (in ``workers`` processes, or by ``runner``); yields
    them in index order, whatever plays them."""
    work = partial(play_match_game, setup)
    return in_index_order(work, count, workers) if runner is None else runner(work, count)


def run_duplicate(
    setup: MatchSetup, count: int, *, workers: int = 1, runner: Runner | None = None
) -> Iterator[DealResult]:
    """Play ``count`` duplicate deals (in ``workers`` processes, or by
    ``runner``); yields them in index order, whatever plays them."""
    work = partial(play_duplicate_deal, setup)
    return in_index_order(work, count, workers) if runner is None else runner(work, count)


def in_index_order(work: Callable[[int], Result], count: int, workers: int) -> Iterator[Result]:
    """``work(0) .. work(count - 1)``, in that order, over ``workers`` processes."""
    if workers <= 1 or count <= 1:
        yield from map(work, range(count))
        return
    # "spawn" starts clean interpreters: forking a process that runs a progress
    # thread (as the command line does) can copy a held lock into the child.
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        # Small chunks keep the progress bar moving and the workers evenly loaded.
        chunk = max(1, min(16, count // (workers * 8)))
        yield from pool.map(work, range(count), chunksize=chunk)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
