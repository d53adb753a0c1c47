"""The baseline's strength: duplicate matches on a deal set against bot levels.

    .venv/bin/python tools/evaluate_baseline.py [--weights PATH] [--deals N] [random easy normal]

Plays spades.rl.baseline (the shipped weights unless --weights) against each
level on test-v1 with spades.rl.evaluate (the arena's duplicate scoring) and
prints a Markdown table: bag-adjusted points a deal for each side and the
margin, with 95% intervals. Reference levels can be measured the same way
against each other with --agent LEVEL.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from spades.bots import make_bot
from spades.rl.baseline import baseline_bot
from spades.rl.evaluate import evaluate_duplicate


def interval(estimate: object) -> str:
    value, low, high = (getattr(estimate, key) for key in ("value", "low", "high"))
    return f"{value:+.1f} ({low:+.1f} .. {high:+.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("opponents", nargs="*", default=["random", "easy", "normal"])
    parser.add_argument("--weights", type=Path, help="an .npz of tools/train_baseline.py")
    parser.add_argument("--agent", help="evaluate this bot level instead of the baseline")
    parser.add_argument("--deals", type=int, help="the first N deals only")
    parser.add_argument("--deal-set", default="test-v1")
    args = parser.parse_args()
    if args.agent:
        name = args.agent
        make = lambda seed: make_bot(args.agent, seed=seed)  # noqa: E731
    else:
        name = "baseline"
        make = lambda seed: baseline_bot(seed, args.weights)  # noqa: E731
    print(f"| {name} against | deals | {name} points | their points | margin | seconds |")
    print("|---|---:|---:|---:|---:|---:|")
    for opponent in args.opponents:
        start = time.perf_counter()
        report = evaluate_duplicate(
            make, opponent, args.deal_set, deals=args.deals, agent_name=name
        )
        print(
            f"| {opponent} | {report.deals} | {interval(report.points)} | "
            f"{interval(report.opponent_points)} | {interval(report.margin)} | "
            f"{time.perf_counter() - start:.0f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
