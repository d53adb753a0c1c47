"""Fit the shark's trick count on the shark's own play, and write its coefficients.

Run by hand, niced; the committed fit came from (about 40 minutes on two
cores shared with other work at load 10 to 17; the figures of each round are in
the JSON it writes):

    nice -n 10 .venv/bin/python tools/fit_shark_bidding.py --hands 400 --rounds 2 --seed 1 --workers 2

Each round deals ``--hands`` random hands (the seed's rules) and has the
shark bid and play all four seats, bidding with the round's coefficients: the
first round with those in the file, each later round with the fit of the
round before. For every seat that bid a number it records the facts of the
hand it was dealt (``spades.bots.strangers.shark_bidding.hand_facts``) and
the tricks it took, fits the tricks on the facts by least squares, and takes
the spread of the tricks about the fit (their root mean square error). The
last round's fit is written to ``src/spades/bots/strangers/shark_bidding.json``
(or ``--out``), with how it was made. The run depends on ``--seed`` alone.

It shares nothing with ``tools/fit_bidding.py``, the fit of ``normal``'s bidding.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from spades.bots.strangers.shark import PLAYOUTS, SharkBot
from spades.bots.strangers.shark_bidding import COEFFICIENTS, FACT_NAMES, TrickModel, hand_facts
from spades.core import HandState, Phase, PlayerView, is_nil
from spades.core.hand import deal

Sample = tuple[list[float], int]
"""A seat's hand facts and the tricks it took."""
Task = tuple[str, int, int, TrickModel, int]
"""A share of a round: the round's seed, the first hand, how many, the
coefficients to bid with, and the playouts a card decision."""


def play_share(task: Task) -> list[Sample]:
    """Hands ``first .. first + count - 1`` of a round, played by four sharks."""
    round_seed, first, count, model, playouts = task
    samples: list[Sample] = []
    for index in range(first, first + count):
        rng = random.Random(f"{round_seed}:deal:{index}")
        state = HandState.from_deal(index % 4, deal(rng))
        bots = [
            SharkBot(f"{round_seed}:{index}:{seat}", model=model, playouts=playouts)
            for seat in range(4)
        ]
        facts = [hand_facts(hand) for hand in state.hands]
        while state.phase is Phase.BIDDING:
            seat = state.turn
            state.apply_bid(bots[seat].bid(PlayerView.of(state, seat)))
        while state.phase is Phase.PLAYING:
            seat = state.turn
            state.apply_play(bots[seat].play(PlayerView.of(state, seat)))
        for seat in range(4):
            bid = state.bids[seat]
            if bid is not None and not is_nil(bid):
                samples.append((facts[seat], state.tricks_won[seat]))
    return samples


def fit(samples: list[Sample]) -> tuple[TrickModel, float]:
    """The least-squares coefficients and their root mean square error."""
    facts = np.array([row for row, _ in samples], dtype=float)
    tricks = np.array([taken for _, taken in samples], dtype=float)
    weights, *_ = np.linalg.lstsq(facts, tricks, rcond=None)
    spread = float(np.sqrt(np.mean((facts @ weights - tricks) ** 2)))
    return TrickModel(tuple(float(w) for w in weights), spread), spread


def run_round(
    model: TrickModel, round_seed: str, hands: int, workers: int, playouts: int
) -> list[Sample]:
    share = max(1, hands // (workers * 8))
    tasks = [
        (round_seed, first, min(share, hands - first), model, playouts)
        for first in range(0, hands, share)
    ]
    samples: list[Sample] = []
    if workers == 1:
        for task in tasks:
            samples.extend(play_share(task))
        return samples
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(play_share, tasks):
            samples.extend(part)
    return samples


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=400, help="hands a round (default 400)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of play and fit (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="processes to play in")
    parser.add_argument("--out", type=Path, default=COEFFICIENTS)
    parser.add_argument(
        "--playouts",
        type=int,
        default=PLAYOUTS,
        help=f"the sharks' playouts a card (default {PLAYOUTS}, what the shark plays with; "
        "fewer only to try the tool out)",
    )
    args = parser.parse_args(argv)
    if min(args.hands, args.rounds, args.workers, args.playouts) < 1:
        parser.error("--hands, --rounds, --workers and --playouts must be at least 1")

    model = TrickModel.load(COEFFICIENTS)
    history = []
    for number in range(1, args.rounds + 1):
        started = time.monotonic()
        samples = run_round(model, f"{args.seed}:{number}", args.hands, args.workers, args.playouts)
        before = float(
            np.sqrt(np.mean([(model.tricks_of(row) - taken) ** 2 for row, taken in samples]))
        )
        model, spread = fit(samples)
        history.append(
            {
                "round": number,
                "seat_hands": len(samples),
                "error_before": round(before, 3),
                "error_after": round(spread, 3),
            }
        )
        print(
            f"round {number}: {len(samples)} seat-hands, error {before:.3f} -> {spread:.3f} "
            f"({time.monotonic() - started:.0f} s)",
            file=sys.stderr,
        )
    written = {
        "about": "Written by tools/fit_shark_bidding.py: the shark's tricks on a numeric bid, "
        "fitted on hands it played against itself.",
        "command": f"tools/fit_shark_bidding.py --hands {args.hands} --rounds {args.rounds} "
        f"--seed {args.seed}"
        + (f" --playouts {args.playouts}" if args.playouts != PLAYOUTS else ""),
        "rounds": history,
        "weights": dict(zip(FACT_NAMES, (round(w, 4) for w in model.weights), strict=True)),
        "spread": round(model.spread, 4),
    }
    args.out.write_text(json.dumps(written, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
