"""What one decision of a bot level costs in CPU, over seeded full games. Run by hand:

    .venv/bin/python benchmarks/decision_cost.py [--level expert] [--games 2] [--seed 1000]
                                                 [--no-clock] [--share 1.0] [--frugal]

The level plays all four seats of each game through the referee. Each bid and
card is timed with ``time.process_time`` around the bot's own call (the search
runs in this one thread, so that is the decision's CPU, whatever else the
machine is doing; a loaded machine still inflates it somewhat, through shared
caches). Every decision counts, the forced ones too: that is what a server
pays. ``--no-clock`` takes the search levels' soft time limits off, so they
search what they would on an idle machine (their deal counts and early stop
alone decide) rather than what a busy one leaves them. ``--share`` has each
search take that share of its deals, as a crowded server's do
(``SearchBot.search_share``), ``--frugal`` skip the opening tricks of a hand
without a Nil, as a busy server's do (``SearchBot.be_frugal``).

Beside the CPU it counts the playouts a search decision makes (one option
played out in one sampled deal), a measure of its work that no load on the
machine inflates: the CPU figures of two runs on a busy machine compare
badly, their playouts exactly.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from spades.arena.referee import play_game
from spades.bots import Bot, make_bot
from spades.bots.search.player import Outcomes, SearchBot
from spades.core import SEATS, Card, PlayerView

T = TypeVar("T")


PLAYOUTS = [0]
"""Playouts made by every search so far (``count_playouts``)."""


def count_playouts() -> None:
    """Have every ``SearchBot.search`` add its playouts to ``PLAYOUTS``: the
    values it found (an option dropped as futile has NaN for the deals after)."""
    search = SearchBot.search

    def counted(bot: SearchBot, *args: Any, **kwargs: Any) -> Outcomes:
        outcomes = search(bot, *args, **kwargs)
        PLAYOUTS[0] += sum(value == value for row in outcomes.values for value in row)
        return outcomes

    SearchBot.search = counted  # type: ignore[method-assign,assignment]


class Costs:
    """Each decision's CPU seconds and playouts, of one kind (bids or cards)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []
        self.playouts: list[int] = []


class CpuTimed(Bot):
    """Passes bids and cards to ``inner``, recording each call's CPU and playouts."""

    def __init__(self, inner: Bot, bids: Costs, cards: Costs) -> None:
        super().__init__()
        self.inner, self.bids, self.cards = inner, bids, cards
        self.name = inner.name

    def timed(self, into: Costs, call: Callable[[PlayerView], T], view: PlayerView) -> T:
        start, playouts = time.process_time(), PLAYOUTS[0]
        answer = call(view)
        into.seconds.append(time.process_time() - start)
        into.playouts.append(PLAYOUTS[0] - playouts)
        return answer

    def bid(self, view: PlayerView) -> int:
        return self.timed(self.bids, self.inner.bid, view)

    def play(self, view: PlayerView) -> Card:
        return self.timed(self.cards, self.inner.play, view)

    def blind_nil(self, view: PlayerView) -> bool:
        return self.inner.blind_nil(view)

    def pass_cards(self, view: PlayerView) -> list[Card]:
        return self.inner.pass_cards(view)


def quantile(samples: Sequence[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, math.floor(q * len(ordered)))]


def line(name: str, samples: Sequence[float]) -> str:
    if not samples:
        return f"  {name:6} none"
    ms = [s * 1000 for s in samples]
    return (
        f"  {name:6} {len(ms):6,}   mean {statistics.mean(ms):7.2f}   p50 {quantile(ms, 0.5):7.2f}"
        f"   p95 {quantile(ms, 0.95):7.2f}   p99 {quantile(ms, 0.99):7.2f}   max {max(ms):7.1f}"
    )


def count_line(name: str, counts: Sequence[int]) -> str:
    if not counts:
        return f"  {name:6} none"
    return (
        f"  {name:6} {len(counts):6,}   mean {statistics.mean(counts):7.1f}"
        f"   p50 {quantile(counts, 0.5):5.0f}   p95 {quantile(counts, 0.95):5.0f}"
        f"   p99 {quantile(counts, 0.99):5.0f}   max {max(counts):5.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--no-clock", action="store_true", help="no soft time limit")
    parser.add_argument("--share", type=float, default=1.0, help="each search's share of deals")
    parser.add_argument("--frugal", action="store_true", help="as a busy server's searches")
    args = parser.parse_args()
    count_playouts()
    bids, cards = Costs(), Costs()
    for game in range(args.games):
        bots: dict[int, Bot] = {}
        for seat in SEATS:
            bot = make_bot(args.level, seed=f"{args.seed + game}:{seat}")
            if isinstance(bot, SearchBot):
                if args.no_clock:
                    bot.think = bot.bid_think = math.inf
                if args.share < 1.0:
                    bot.search_share(args.share)
                if args.frugal:
                    bot.be_frugal()
            bots[seat] = CpuTimed(bot, bids, cards)
        play_game(bots, seed=args.seed + game)
    clock = "no soft clock" if args.no_clock else "default clock"
    share = f", a {args.share:g} share of the deals" if args.share < 1.0 else ""
    share += ", frugal" if args.frugal else ""
    print(f"{args.level}, {args.games} games, all four seats, {clock}{share}: CPU ms a decision")
    print(line("all", bids.seconds + cards.seconds))
    print(line("cards", cards.seconds))
    print(line("bids", bids.seconds))
    print("playouts a decision (the search's work, whatever the machine's load):")
    print(count_line("all", bids.playouts + cards.playouts))
    print(count_line("cards", cards.playouts))
    print(count_line("bids", bids.playouts))
    seconds = sum(bids.seconds) + sum(cards.seconds)
    playouts = sum(bids.playouts) + sum(cards.playouts)
    if playouts:
        print(f"  CPU a playout, all in: {1e6 * seconds / playouts:.0f} us")


if __name__ == "__main__":
    main()
