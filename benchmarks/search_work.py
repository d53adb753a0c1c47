"""Where the search's work goes, and where it changes a decision. Run by hand:

    .venv/bin/python benchmarks/search_work.py [--games 6] [--seed 1000]

Seeded games of idle ``expert`` (clocks off: its deal counts decide) at all
four seats. Every search is logged: bid or card, the trick, the deals it
searched, its CPU, and whether it overruled ``normal``'s choice. It prints
each kind's share of the CPU and its overrules, then the cards by how many
deals they were searched in and by trick, with and without a Nil at the
table. (Session 11: all 99 overrules of 6 games were searched to their last
deal, and 90% of the CPU went to searches that kept ``normal``'s choice.)
"""

from __future__ import annotations

import argparse
import math
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from spades.arena.referee import play_game
from spades.bots import Bot, make_bot
from spades.bots.search.player import Outcomes, SearchBot
from spades.core import SEATS, is_nil


@dataclass(frozen=True)
class Search:
    kind: str
    trick: int
    deals: int
    seconds: float
    overruled: bool
    nil: bool


def log_searches(into: list[Search]) -> None:
    search = SearchBot.search

    def logged(
        bot: SearchBot, view: Any, options: Any, kind: Any, budget: Any, default: Any = None
    ) -> Outcomes:
        start = time.process_time()
        outcomes = search(bot, view, options, kind, budget, default)
        seconds = time.process_time() - start
        nil = any(is_nil(bid) for _, bid in view.bids)
        overruled = default is not None and outcomes.choose(default) != default
        into.append(Search(kind, view.trick_number, len(outcomes.weights), seconds, overruled, nil))
        return outcomes

    SearchBot.search = logged  # type: ignore[method-assign]


def line(name: str, searches: list[Search], total: float) -> str:
    cpu = sum(s.seconds for s in searches)
    overrules = sum(s.overruled for s in searches)
    return f"  {name:14} {len(searches):6,} searches {cpu / total:7.1%} of the CPU {overrules:5} overruled"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    searches: list[Search] = []
    log_searches(searches)
    for game in range(args.games):
        bots: dict[int, Bot] = {}
        for seat in SEATS:
            bot = make_bot("expert", seed=f"{args.seed + game}:{seat}")
            assert isinstance(bot, SearchBot)
            bot.think = bot.bid_think = math.inf
            bots[seat] = bot
        play_game(bots, seed=args.seed + game)
    total = sum(s.seconds for s in searches) or 1.0
    print(f"expert, {args.games} games, all four seats, no soft clock: {len(searches):,} searches")
    for kind in ("bid", "card"):
        print(line(kind + "s", [s for s in searches if s.kind == kind], total))
    cards = [s for s in searches if s.kind == "card"]
    print("cards by the deals searched:")
    by_deals: defaultdict[str, list[Search]] = defaultdict(list)
    for search in cards:
        low = 1 if search.deals <= 4 else 2 ** math.ceil(math.log2(search.deals)) // 2 + 1
        high = 4 if search.deals <= 4 else 2 ** math.ceil(math.log2(search.deals))
        by_deals[f"{low}-{high}"].append(search)
    for name in sorted(by_deals, key=lambda key: int(key.split("-")[0])):
        print(line(name, by_deals[name], total))
    print("cards by trick, without and with a Nil at the table:")
    for trick in range(1, 14):
        plain = [s for s in cards if s.trick == trick and not s.nil]
        nil = [s for s in cards if s.trick == trick and s.nil]
        print(line(f"trick {trick}", plain, total), "|", line("Nil", nil, total).strip())


if __name__ == "__main__":
    main()
