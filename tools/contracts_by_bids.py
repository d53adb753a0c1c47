"""Where a player's sets come from: its contracts split by how the team bid.

Reads game records written by ``spades arena ... --out FILE`` (one
``spades-record/1`` game a line) and, for every hand a team of PLAYER played,
sorts the team's numeric contract into one of three kinds:

* both partners bid a number (judged on their combined tricks);
* one partner bid Nil and the other bid after it (that seat knew of the Nil);
* one partner bid a number and the other then bid Nil.

For each kind it prints how many contracts there were, the tricks over the
bid (mean and spread) and how often the contract was set. This is how the
Nil-covering partner's sets were found (docs/strength.md):

    .venv/bin/spades arena normal beginner --duplicate --deals 300 --seed 1 --out /tmp/dup.jsonl
    .venv/bin/spades arena normal beginner --games 100 --seed 1 --out /tmp/games.jsonl
    .venv/bin/python tools/contracts_by_bids.py normal /tmp/dup.jsonl /tmp/games.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from spades.core import is_number_bid, parse_bid

PARTNERS = (("N", "S"), ("E", "W"))
KINDS = ("both bid a number", "bid after partner's Nil", "partner bid Nil after")


def is_number(bid: Any) -> bool:
    """A numeric bid in a record (Nil and blind Nil are not), by core's reading."""
    return is_number_bid(parse_bid(bid))


def contracts(player: str, records: Iterable[dict[str, Any]]) -> dict[str, list[int]]:
    """Tricks over the bid (negative: set) of each of ``player``'s contracts, by kind."""
    over: dict[str, list[int]] = defaultdict(list)
    for record in records:
        for hand in record["hands"]:
            bids = {seat: bid for seat, bid in hand["bids"]}
            order = [seat for seat, _bid in hand["bids"]]
            taken = hand["tricks_won"]
            for seats in PARTNERS:
                if record["players"][seats[0]] != player:
                    continue
                numbers = [seat for seat in seats if is_number(bids[seat])]
                if len(numbers) == 2:
                    over[KINDS[0]].append(sum(taken[s] - bids[s] for s in numbers))
                elif len(numbers) == 1:
                    bidder = numbers[0]
                    nil_seat = seats[1] if bidder == seats[0] else seats[0]
                    after_nil = order.index(nil_seat) < order.index(bidder)
                    over[KINDS[1] if after_nil else KINDS[2]].append(taken[bidder] - bids[bidder])
    return over


def read_records(paths: Iterable[Path]) -> Iterable[dict[str, Any]]:
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise SystemExit(f"{path}:{number}: not a JSON record ({error.msg})") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("player", help="the player's name in the records, e.g. normal")
    parser.add_argument("records", nargs="+", type=Path, help="arena --out files")
    args = parser.parse_args(argv)
    over = contracts(args.player, read_records(args.records))
    if not over:
        print(f"no contracts of {args.player!r} in these records", file=sys.stderr)
        return 1
    print(
        f"{'contracts of ' + args.player:<28} {'count':>6} {'over bid':>9} {'sd':>5}"
        f" {'sets':>5} {'set':>5}"
    )
    for kind in KINDS:
        margins = over.get(kind, [])
        if margins:
            sets = sum(margin < 0 for margin in margins)
            print(
                f"{kind:<28} {len(margins):>6} {statistics.mean(margins):>+9.2f}"
                f" {statistics.pstdev(margins):>5.2f} {sets:>5} {sets / len(margins):>5.0%}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
