"""What a decision of the shark (the searching stranger) costs. Run by hand:

    nice -n 10 .venv/bin/python benchmarks/shark_cost.py [--hands 20]

Two sharks (North-South) play seeded hands against ``normal``; every bid and
card decision of theirs is timed around the bot's own call, in CPU time
(``time.process_time``, what the decision costs whatever else the machine
runs) and in wall time (what it takes on this machine now). Prints the mean,
median, 95th and 99th percentiles and the maximum of each.
"""

from __future__ import annotations

import argparse
import time

from spades.arena.referee import play_hand
from spades.bots import Bot, make_bot
from spades.bots.strangers import SharkBot
from spades.core import Card, PlayerView
from spades.core.hand import deal_from_seed


class TimedShark(SharkBot):
    """A shark that notes how long each of its decisions took."""

    def __init__(self, seed: str, cards: list[tuple[float, float]], bids: list[float]) -> None:
        super().__init__(seed)
        self.cards = cards
        self.bids = bids

    def play(self, view: PlayerView) -> Card:
        cpu, wall = time.process_time(), time.perf_counter()
        card = super().play(view)
        self.cards.append((time.process_time() - cpu, time.perf_counter() - wall))
        return card

    def bid(self, view: PlayerView) -> int:
        cpu = time.process_time()
        bid = super().bid(view)
        self.bids.append(time.process_time() - cpu)
        return bid


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    count = len(ordered)

    def ms(value: float) -> str:
        return f"{1000 * value:.1f}"

    return (
        f"{name}: {count} decisions, mean {ms(sum(ordered) / count)} ms, "
        f"p50 {ms(ordered[count // 2])}, p95 {ms(ordered[int(0.95 * count)])}, "
        f"p99 {ms(ordered[int(0.99 * count)])}, max {ms(ordered[-1])}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    args = parser.parse_args()
    cards: list[tuple[float, float]] = []
    bids: list[float] = []
    for index in range(args.hands):
        bots: dict[int, Bot] = {
            seat: TimedShark(f"{index}:{seat}", cards, bids)
            if seat % 2 == 0
            else make_bot("normal", seed=seat)
            for seat in range(4)
        }
        play_hand(bots, dealer=index % 4, deal=deal_from_seed(1000 + index), seed=index)
    print(summary("card, CPU", [cpu for cpu, _ in cards]))
    print(summary("card, wall", [wall for _, wall in cards]))
    print(summary("bid, CPU", bids))


if __name__ == "__main__":
    main()
