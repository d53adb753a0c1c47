"""Two duplicate runs on the same deals, compared deal by deal.

Reads the records of two ``spades arena A B --duplicate ... --out FILE`` runs
that played the same deals (the same ``--seed`` and ``--deals``; one
``spades-record/1`` table a line, two tables a deal) and prints, for each run,
A minus B a deal bag-adjusted (as the arena counts it), then the per-deal
difference between the runs with its 95% interval: how much the change from
the first run to the second is worth on these deals, with the luck of the
cards and of the opponent's choices on the deals where nothing changed
cancelled out. Also how many deals differ at all, and where the difference
came from (the deals split by A's side's contracts: made or set, Nil or not).

    .venv/bin/spades arena expert shark --duplicate --deals 150 --seed 1 --worlds 24 --out base.jsonl
    ... the same with the change ... --out new.jsonl
    .venv/bin/python benchmarks/paired.py base.jsonl new.jsonl
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from spades.arena.match import bag_adjusted
from spades.arena.stats import mean_interval
from spades.core import Rules, is_nil, parse_bid, score_hand
from spades.core.seats import SEATS, parse_seat

Table = dict[str, Any]


def tables(path: Path) -> Iterator[Table]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                yield json.loads(line)


def deal_key(table: Table) -> str:
    """The cards at each seat and the dealer: what makes two tables the same deal."""
    hand = table["hands"][0]
    cards = ";".join(",".join(sorted(hand["deal"][seat])) for seat in "NESW")
    return f"{hand['dealer']}|{cards}"


def a_minus_b(table: Table, player: str) -> tuple[float, str]:
    """``player``'s side minus the other side at one table, bag-adjusted, and what
    became of ``player``'s side's contract ("set", "made", with "+Nil" when a
    partner bid Nil and "Nil lost" when a Nil failed)."""
    rules = Rules.from_dict(table["rules"])
    hand = table["hands"][0]
    bids = [0] * 4
    for seat, bid in hand["bids"]:
        bids[parse_seat(seat)] = parse_bid(bid)
    tricks = [hand["tricks_won"]["NESW"[seat]] for seat in SEATS]
    scores = score_hand(bids, tricks, (0, 0), rules)
    team = 0 if table["players"]["N"] == player else 1
    value = bag_adjusted(scores[team], rules) - bag_adjusted(scores[1 - team], rules)
    ours = (team, team + 2)
    numbers = [seat for seat in ours if not is_nil(bids[seat])]
    need = sum(bids[seat] for seat in numbers)
    made = sum(tricks[seat] for seat in numbers) >= need
    kind = "made" if made or not numbers else "set"
    nils = [seat for seat in ours if is_nil(bids[seat])]
    if nils:
        kind += ", Nil lost" if any(tricks[seat] for seat in nils) else ", Nil made"
    return value, kind


def deals(path: Path, player: str) -> dict[str, tuple[float, list[str]]]:
    """Each deal's mean over its two tables, and the kinds of its two tables."""
    found: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for table in tables(path):
        found[deal_key(table)].append(a_minus_b(table, player))
    return {
        key: (sum(v for v, _ in both) / len(both), [kind for _, kind in both])
        for key, both in found.items()
    }


def interval(values: list[float]) -> str:
    estimate = mean_interval(values)
    if estimate.low is None or estimate.high is None:
        return f"{estimate.value:+.1f}"
    return f"{estimate.value:+.1f} (95% CI {estimate.low:+.1f} to {estimate.high:+.1f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="the first run's --out records")
    parser.add_argument("after", type=Path, help="the second run's, on the same deals")
    parser.add_argument("--player", default="expert", help="A's name in the records")
    args = parser.parse_args(argv)
    before, after = deals(args.before, args.player), deals(args.after, args.player)
    common = [key for key in before if key in after]
    if not common:
        raise SystemExit("the two runs share no deal: the same --seed and --deals?")
    for name, run in (("before", before), ("after", after)):
        values = [run[key][0] for key in common]
        print(f"{name}: {args.player} minus the other side {interval(values)} a deal")
    diffs = [after[key][0] - before[key][0] for key in common]
    changed = sum(1 for d in diffs if d != 0)
    print(
        f"after minus before, paired over {len(common)} deals ({changed} differ): "
        f"{interval(diffs)} a deal bag-adjusted"
    )
    print("the change's share by what became of the first run's contracts (table kinds):")
    share: dict[str, float] = defaultdict(float)
    count: dict[str, int] = defaultdict(int)
    for key, diff in zip(common, diffs, strict=True):
        for kind in before[key][1]:
            share[kind] += diff / 2 / len(common)
            count[kind] += 1
    for kind in sorted(share, key=lambda k: share[k]):
        print(f"  {kind:18} {count[kind]:4} tables  {share[kind]:+6.2f} a deal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
