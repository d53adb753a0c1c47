"""What a cheaper search setting gives up, decision by decision. Run by hand:

    .venv/bin/python benchmarks/search_settings.py [--games 6] [--seed 1]
        [--a shipped] [--b previous] [--reference-deals 256]

A duplicate match between two settings of the same search needs hundreds of
deals to see a few points a deal, because most deals are decided by the
cards. This looks only at the decisions. The positions are every bid and
every card with a real choice (two distinct cards or more) of ``--games``
seeded games of ``normal`` at all four seats. On each, setting A and setting
B decide from the same seed, their soft clocks off (the deal counts decide,
as on an idle machine). Where they choose differently, both choices are
played out in ``--reference-deals`` fresh deals (the same deals for both,
every deal, no early stop) and valued as the search values them (the chance
of winning the game, about a point at 0-0). The mean over every position
(the agreeing ones count 0) is what A's choices are worth against B's, with
a 95% interval, per decision and per hand of one team; beside it, each
setting's CPU a decision.

It measures the search against itself (the playouts' players are the world
it believes in), not against other players: it says what a cheaper setting
gives up of what the full search knows. Strength against strangers is the
arena's (docs/strength.md).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from decision_cost import PLAYOUTS, count_playouts

from spades.arena.referee import play_game
from spades.bots import Bot, KnowledgeBot
from spades.bots.search import player
from spades.bots.search.player import (
    Budget,
    ExpertBot,
    Kind,
    Outcomes,
    distinct_cards,
    same_group,
    search_deals,
)
from spades.core import SEATS, Card, PlayerView

Z_95 = 1.96


def shipped(seed: str) -> ExpertBot:
    return ExpertBot(seed)


def previous(seed: str) -> ExpertBot:
    """The search before the projected stop (main at 2f05699): bids in every
    deal, cards dropped only 2 standard errors short of the bar."""
    bot = ExpertBot(seed)
    bot.projected_stop = False
    bot.bid_first_look = None
    return bot


def frugal(seed: str) -> ExpertBot:
    """The shipped search, skipping the opening tricks of a hand without a Nil
    (what a busy server has it do, before it cuts any deals)."""
    bot = ExpertBot(seed)
    bot.be_frugal()
    return bot


def first_look(deals: int) -> Callable[[str], ExpertBot]:
    """The shipped search with cards dropped as futile from their ``deals``th deal."""

    def make(seed: str) -> ExpertBot:
        bot = ExpertBot(seed)
        bot.first_look = deals
        return bot

    return make


def cards_only(seed: str) -> ExpertBot:
    """The projected stop for cards, bids in every deal."""
    bot = ExpertBot(seed)
    bot.bid_first_look = None
    return bot


def full(seed: str) -> ExpertBot:
    """No early stop at all: every option in every deal of the budget."""
    bot = ExpertBot(seed)
    bot.first_look = None
    bot.bid_first_look = None
    return bot


def half(seed: str) -> ExpertBot:
    """The shipped search with half its deals: a crowded server's (twice
    CROWDED searches waiting for each bot process)."""
    bot = ExpertBot(seed)
    bot.search_share(0.5)
    return bot


def quarter(seed: str) -> ExpertBot:
    """A quarter of the deals: the least a crowded server gives a search."""
    bot = ExpertBot(seed)
    bot.search_share(0.25)
    return bot


SETTINGS: dict[str, Callable[[str], ExpertBot]] = {
    "shipped": shipped,
    "previous": previous,
    "frugal": frugal,
    "first-look-2": first_look(2),
    "first-look-3": first_look(3),
    "cards-only": cards_only,
    "full": full,
    "half": half,
    "quarter": quarter,
}


@dataclass(frozen=True)
class Position:
    kind: Kind
    view: PlayerView
    seed: str


class Recorder(Bot):
    """``normal``, noting every bid and every card with a real choice."""

    def __init__(self, seed: str, into: list[Position]) -> None:
        super().__init__(seed)
        self.inner = KnowledgeBot(seed)
        self.into = into
        self.tag = seed

    def bid(self, view: PlayerView) -> int:
        self.into.append(Position("bid", view, f"{self.tag}:{len(self.into)}"))
        return self.inner.bid(view)

    def play(self, view: PlayerView) -> Card:
        if len(distinct_cards(view.legal_mask(), view)) > 1:
            self.into.append(Position("card", view, f"{self.tag}:{len(self.into)}"))
        return self.inner.play(view)

    def blind_nil(self, view: PlayerView) -> bool:
        return self.inner.blind_nil(view)

    def pass_cards(self, view: PlayerView) -> list[Card]:
        return self.inner.pass_cards(view)


def positions_of(games: int, seed: int) -> tuple[list[Position], int]:
    """The positions of ``games`` seeded games, and how many hands they had."""
    found: list[Position] = []
    hands = 0
    for game_index in range(games):
        bots: dict[int, Bot] = {
            seat: Recorder(f"{seed}:{game_index}:{seat}", found) for seat in SEATS
        }
        game = play_game(bots, seed=seed * 1000 + game_index)
        hands += game.hand_number
    return found, hands


def decide(make: Callable[[str], ExpertBot], position: Position) -> tuple[int, float, int]:
    """The setting's choice, its CPU seconds and its playouts."""
    bot = make(position.seed)
    bot.think = bot.bid_think = math.inf
    start, playouts = time.process_time(), PLAYOUTS[0]
    choice = bot.bid(position.view) if position.kind == "bid" else bot.play(position.view)
    return choice, time.process_time() - start, PLAYOUTS[0] - playouts


def same_choice(position: Position, a: int, b: int) -> bool:
    if position.kind == "bid":
        return a == b
    return same_group(a, b, position.view)


def worth_of_a_over_b(position: Position, a: int, b: int, deals: int) -> float:
    """How much more A's choice is worth than B's over ``deals`` fresh deals."""
    budget = Budget(math.inf, deals, deals, first_look=None)
    rng = random.Random(f"reference:{position.seed}")
    outcomes = Outcomes([a, b])
    for sample in search_deals(position.view, [a, b], position.kind, budget, rng):
        outcomes.add(*sample)
    gain, _ = outcomes.advantage(a, b)
    return gain


def summary(name: str, values: list[float], per_hand: float) -> str:
    if len(values) < 2:
        return f"  {name}: too few positions"
    mean = statistics.mean(values)
    half = Z_95 * statistics.stdev(values) / math.sqrt(len(values))
    return (
        f"  {name}: A - B {mean:+.3f} a decision (95% CI {mean - half:+.3f} to {mean + half:+.3f}),"
        f" {mean * per_hand:+.2f} a hand of one team ({per_hand:.1f} such decisions)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a", choices=SETTINGS, default="shipped")
    parser.add_argument("--b", choices=SETTINGS, default="previous")
    parser.add_argument("--reference-deals", type=int, default=256)
    parser.add_argument(
        "--projection-confidence",
        type=float,
        default=player.PROJECTION_CONFIDENCE,
        help="try another PROJECTION_CONFIDENCE (every setting with the projected stop)",
    )
    parser.add_argument(
        "--projection-start",
        type=int,
        default=player.PROJECTION_START,
        help="try another PROJECTION_START (the projection from 1/N of the planned deals)",
    )
    parser.add_argument(
        "--frugal-opening-tricks",
        type=int,
        default=player.FRUGAL_OPENING_TRICKS,
        help="try another FRUGAL_OPENING_TRICKS (the frugal setting)",
    )
    parser.add_argument("--kinds", default="bid,card", help="bid, card or both")
    args = parser.parse_args()
    count_playouts()
    player.PROJECTION_CONFIDENCE = args.projection_confidence
    player.PROJECTION_START = args.projection_start
    player.FRUGAL_OPENING_TRICKS = args.frugal_opening_tricks
    positions, hands = positions_of(args.games, args.seed)
    print(
        f"{len(positions)} positions from {args.games} games ({hands} hands) of normal;"
        f" A = {args.a}, B = {args.b}, {args.reference_deals} reference deals;"
        f" projection from 1/{player.PROJECTION_START} of the deals at"
        f" {player.PROJECTION_CONFIDENCE} standard errors"
    )
    for kind in args.kinds.split(","):
        mine = [p for p in positions if p.kind == kind]
        worth: list[float] = []
        cpu_a: list[float] = []
        cpu_b: list[float] = []
        playouts_a: list[int] = []
        playouts_b: list[int] = []
        differ = 0
        for position in mine:
            a, seconds_a, made_a = decide(SETTINGS[args.a], position)
            b, seconds_b, made_b = decide(SETTINGS[args.b], position)
            cpu_a.append(seconds_a)
            cpu_b.append(seconds_b)
            playouts_a.append(made_a)
            playouts_b.append(made_b)
            if same_choice(position, a, b):
                worth.append(0.0)
                continue
            differ += 1
            worth.append(worth_of_a_over_b(position, a, b, args.reference_deals))
        if not mine:
            continue
        print(f"{kind}s: {len(mine)} positions, A and B differ on {differ}")
        print(
            f"  CPU a decision: A {1000 * statistics.mean(cpu_a):.1f} ms,"
            f" B {1000 * statistics.mean(cpu_b):.1f} ms; playouts a decision (whatever the"
            f" load): A {statistics.mean(playouts_a):.1f}, B {statistics.mean(playouts_b):.1f}"
        )
        print(summary("worth", worth, len(mine) / hands / 2))


if __name__ == "__main__":
    main()
