"""What one decision of a bot level costs in CPU, over seeded full games. Run by hand:

    .venv/bin/python benchmarks/decision_cost.py [--level expert] [--games 2] [--seed 1000]
                                                 [--no-clock]

The level plays all four seats of each game through the referee. Each bid and
card is timed with ``time.process_time`` around the bot's own call (the search
runs in this one thread, so that is the decision's CPU, whatever else the
machine is doing; a loaded machine still inflates it somewhat, through shared
caches). Every decision counts, the forced ones too: that is what a server
pays. ``--no-clock`` takes the search levels' soft time limits off, so they
search what they would on an idle machine (their deal counts and early stop
alone decide) rather than what a busy one leaves them.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from spades.arena.referee import play_game
from spades.bots import Bot, make_bot
from spades.bots.search.player import SearchBot
from spades.core import SEATS, Card, PlayerView

T = TypeVar("T")


class CpuTimed(Bot):
    """Passes bids and cards to ``inner``, recording each call's CPU seconds."""

    def __init__(self, inner: Bot, bids: list[float], cards: list[float]) -> None:
        super().__init__()
        self.inner, self.bids, self.cards = inner, bids, cards
        self.name = inner.name

    def timed(self, into: list[float], call: Callable[[PlayerView], T], view: PlayerView) -> T:
        start = time.process_time()
        answer = call(view)
        into.append(time.process_time() - start)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--no-clock", action="store_true", help="no soft time limit")
    args = parser.parse_args()
    bids: list[float] = []
    cards: list[float] = []
    for game in range(args.games):
        bots: dict[int, Bot] = {}
        for seat in SEATS:
            bot = make_bot(args.level, seed=f"{args.seed + game}:{seat}")
            if args.no_clock and isinstance(bot, SearchBot):
                bot.think = bot.bid_think = math.inf
            bots[seat] = CpuTimed(bot, bids, cards)
        play_game(bots, seed=args.seed + game)
    clock = "no soft clock" if args.no_clock else "default clock"
    print(f"{args.level}, {args.games} games, all four seats, {clock}: CPU ms a decision")
    print(line("all", bids + cards))
    print(line("cards", cards))
    print(line("bids", bids))


if __name__ == "__main__":
    main()
