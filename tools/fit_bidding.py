"""Fit the learned bidding model on simulated hands, and write its coefficients.

Run by hand (about eight minutes on two cores):

    .venv/bin/python tools/fit_bidding.py --hands 50000 --seed 1 --iterations 3

It deals ``--hands`` random hands and has ``normal`` bid and play all four
seats (four seat-hands a hand: 50,000 hands give 200,000), recording for each
seat what it held, what it knew of the bids when it bid, what it bid and how
many tricks it took. To learn how often a Nil holds on hands ``normal`` itself
would not try, a share of the seats whose hand is a plausible Nil (see
``explore_nil``) bid Nil whatever ``normal`` would have bid.

From those it fits, with numpy:

* the tricks a seat bidding a number takes: a linear model of the hand's
  features (``spades.bots.knowledge.features``), and its spread, a linear
  model of the squared error in the predicted mean;
* the chance a Nil holds: a logistic model of the hand's Nil features;
* what a partner brings: the tricks of a partner who bid k, the surplus
  (tricks minus bid) of a partner who has not bid yet, how the two partners'
  errors go together, and how a Nil bidder's partner bids and makes;

and writes them to ``src/spades/bots/knowledge/bidding_model.py``. The bidder
then bids whatever maximises the hand's expected value (see
``spades.bots.knowledge.learned_bidding``).

How much a seat takes depends on how everyone bids (a low bid ducks sooner; a
table of low bids leaves more tricks to go round), so the fit is iterated: the
first round's hands are bid by the rule-of-thumb bidder, each later round's by
the learned bidder with the model of the round before, with fresh deals. The
last round's model is written. The whole run depends on ``--seed`` alone.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spades.arena.match import derive_seed
from spades.bots.knowledge.bidding import BidStyle, choose_bid, estimate_tricks, nil_danger
from spades.bots.knowledge.features import (
    NIL_FEATURE_NAMES,
    TRICK_FEATURE_NAMES,
    BiddingContext,
    nil_features,
    trick_features,
)
from spades.bots.knowledge.learned_bidding import BiddingModel, choose_learned_bid
from spades.bots.knowledge.memory import Memory
from spades.bots.knowledge.play import choose_card
from spades.core import NIL, HandState, Phase, PlayerView
from spades.core.hand import deal
from spades.core.seats import partner_of

MODEL_PATH = Path(__file__).resolve().parent.parent / "src/spades/bots/knowledge/bidding_model.py"
EXPLORE_NIL = 0.15
"""The share of plausible-Nil seats made to bid Nil, to see how such Nils fare."""


def explore_nil(hand: int) -> bool:
    """A hand that someone might bid Nil on: few tricks by the rules of thumb."""
    return estimate_tricks(hand).total < 3.5 and nil_danger(hand) < 2.5


@dataclass
class SeatHand:
    trick_row: list[float]
    nil_row: list[float]
    bid: int
    forced_nil: bool
    tricks: int
    partner_bid: int
    partner_tricks: int
    partner_bid_first: bool


Task = tuple[int, int, int, BiddingModel | None]
"""A share of a round: its seed, first hand, number of hands, and the model to
bid with (None: the rule-of-thumb bidder)."""


def simulate(task: Task) -> list[SeatHand]:
    """Hands ``start .. start + count - 1`` of the round seeded ``seed``."""
    seed, start, count, model = task
    rows: list[SeatHand] = []
    for index in range(start, start + count):
        rng = random.Random(derive_seed(seed, "hand", index))
        state = HandState(index % 4, deal(rng))
        contexts = {}
        forced = set()
        while state.phase is Phase.BIDDING:
            seat = state.turn
            view = PlayerView.of(state, seat)
            contexts[seat] = BiddingContext.of(view)
            bid = choose_bid(view, BidStyle()) if model is None else choose_learned_bid(view, model)
            if bid != NIL and explore_nil(view.hand) and rng.random() < EXPLORE_NIL:
                bid = NIL
                forced.add(seat)
            state.apply_bid(bid)
        while state.phase is Phase.PLAYING:
            state.apply_play(choose_card(Memory(PlayerView.of(state, state.turn))))
        order = state.bid_order
        for seat in range(4):
            partner = partner_of(seat)
            bid = state.bids[seat]
            partner_bid = state.bids[partner]
            assert bid is not None and partner_bid is not None
            dealt = state.deal[seat]
            rows.append(
                SeatHand(
                    trick_features(dealt, contexts[seat]),
                    nil_features(dealt, contexts[seat]),
                    bid,
                    seat in forced,
                    state.tricks_won[seat],
                    partner_bid,
                    state.tricks_won[partner],
                    order.index(partner) < order.index(seat),
                )
            )
    return rows


def collect(hands: int, seed: int, workers: int, model: BiddingModel | None) -> list[SeatHand]:
    chunk = 500
    tasks = [(seed, start, min(chunk, hands - start), model) for start in range(0, hands, chunk)]
    rows: list[SeatHand] = []
    if workers <= 1:
        for task in tasks:
            rows.extend(simulate(task))
        return rows
    with ProcessPoolExecutor(workers) as pool:
        for part in pool.map(simulate, tasks):
            rows.extend(part)
    return rows


# ------------------------------------------------------------------ the fits


def least_squares(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0  # never shrink the intercept
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1.0, rounds: int = 30) -> np.ndarray:
    """Logistic regression by Newton's method with a small L2 penalty."""
    weights = np.zeros(x.shape[1])
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-(x @ weights)))
        gradient = x.T @ (p - y) + penalty @ weights
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-8:
            break
    return weights


def fit(rows: list[SeatHand]) -> tuple[dict[str, object], list[str]]:
    """The model's numbers, and lines describing how well they fit."""
    notes: list[str] = []
    numeric = [r for r in rows if r.bid != NIL]
    x = np.array([r.trick_row for r in numeric])
    y = np.array([r.tricks for r in numeric], dtype=float)
    trick_weights = least_squares(x, y)
    predicted = x @ trick_weights
    residuals = y - predicted
    r2 = 1 - residuals.var() / y.var()
    spread_x = np.column_stack([np.ones_like(predicted), predicted])
    spread = least_squares(spread_x, residuals**2, ridge=0.0)
    notes.append(
        f"tricks: {len(numeric):,} numeric seat-hands, R^2 {r2:.3f}, "
        f"RMSE {math.sqrt((residuals**2).mean()):.3f} tricks"
    )

    nils = [r for r in rows if r.bid == NIL]
    xn = np.array([r.nil_row for r in nils])
    yn = np.array([r.tricks == 0 for r in nils], dtype=float)
    nil_weights = logistic(xn, yn)
    pn = 1 / (1 + np.exp(-(xn @ nil_weights)))
    log_loss = -np.mean(yn * np.log(pn + 1e-12) + (1 - yn) * np.log(1 - pn + 1e-12))
    base = yn.mean()
    base_loss = -(base * math.log(base) + (1 - base) * math.log(1 - base))
    notes.append(
        f"Nil: {len(nils):,} Nil seat-hands ({sum(r.forced_nil for r in nils):,} explored), "
        f"{base:.1%} made; log-loss {log_loss:.3f} (constant rate: {base_loss:.3f})"
    )
    natural = [r for r in nils if not r.forced_nil and r.partner_bid != NIL]
    natural_made = sum(r.tricks == 0 for r in natural) / max(1, len(natural))
    notes.append(
        f"  Nils bid by choice, partner at a number: {len(natural):,}, {natural_made:.1%} made"
    )
    # Both partners Nil: no one covers either (rare, and mostly explored).
    doubles = [r for r in nils if r.partner_bid == NIL]
    double_made = sum(r.tricks == 0 for r in doubles) / max(1, len(doubles))
    notes.append(f"  Nils beside a partner's Nil: {len(doubles):,}, {double_made:.1%} made")
    order = np.argsort(pn)
    for decile in np.array_split(order, 5):
        notes.append(
            f"  predicted {pn[decile].mean():.2f} -> made {yn[decile].mean():.2f} "
            f"({len(decile):,} hands)"
        )

    # A partner who bid k (the partners of numeric bidders, both numeric).
    pairs = [r for r in numeric if r.partner_bid != NIL]
    by_bid = np.array([r.partner_bid for r in pairs], dtype=float)
    their_tricks = np.array([r.partner_tricks for r in pairs], dtype=float)
    design = np.column_stack([np.ones_like(by_bid), by_bid])
    partner_mean = least_squares(design, their_tricks, ridge=0.0)
    partner_residuals = their_tricks - design @ partner_mean
    partner_spread = least_squares(design, partner_residuals**2, ridge=0.0)
    # How the two partners' errors go together (as a correlation of residuals).
    mine = (
        np.array([r.tricks for r in pairs], dtype=float)
        - np.array([r.trick_row for r in pairs]) @ trick_weights
    )
    correlation = float(np.corrcoef(mine, partner_residuals)[0, 1])
    # A partner who bids after this seat: what they will bid and their surplus.
    later = [r for r in pairs if not r.partner_bid_first]
    surplus = np.array([r.partner_tricks - r.partner_bid for r in later], dtype=float)
    later_bids = np.array([r.partner_bid for r in later], dtype=float)
    notes.append(
        f"partners: tricks of a partner who bid k = {partner_mean[0]:.2f} + "
        f"{partner_mean[1]:.3f} k; a partner to bid later bids {later_bids.mean():.2f} "
        f"and takes {surplus.mean():+.2f} (sd {surplus.std():.2f}) over it; "
        f"error correlation {correlation:+.3f}"
    )
    # The partner of a Nil bidder, bidding after the Nil: alone on their bid.
    covering = [r for r in rows if r.bid != NIL and r.partner_bid == NIL and r.partner_bid_first]
    cover_bids = np.array([r.bid for r in covering], dtype=float)
    cover_made = np.array([r.tricks >= r.bid for r in covering], dtype=float)
    notes.append(
        f"a Nil bidder's partner (bidding after the Nil): bids {cover_bids.mean():.2f}, "
        f"makes it {cover_made.mean():.1%} ({len(covering):,} hands)"
    )
    model: dict[str, object] = {
        "TRICK_WEIGHTS": [float(w) for w in trick_weights],
        "TRICK_SPREAD": (float(spread[0]), float(spread[1])),
        "NIL_WEIGHTS": [float(w) for w in nil_weights],
        "PARTNER_TRICKS": (float(partner_mean[0]), float(partner_mean[1])),
        "PARTNER_SPREAD": (float(partner_spread[0]), float(partner_spread[1])),
        "LATER_PARTNER_BID": float(later_bids.mean()),
        "LATER_PARTNER_SURPLUS": (float(surplus.mean()), float(surplus.std())),
        "PARTNER_CORRELATION": correlation,
        "NIL_PARTNER_BID": float(cover_bids.mean()),
        "NIL_PARTNER_MAKES": float(cover_made.mean()),
        "NIL_MADE_RATE": float(natural_made),
        "DOUBLE_NIL_MADE_RATE": float(double_made),
    }
    return model, notes


def write_model(model: dict[str, object], notes: list[str], command: str, path: Path) -> None:
    lines = [
        '"""The learned bidding model\'s coefficients. Generated: do not edit by hand.',
        "",
        "Regenerate with:",
        "",
        f"    {command}",
        "",
        "How well it fitted:",
        "",
        *(f"    {note}" for note in notes),
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        f"TRICK_FEATURES: Final = {TRICK_FEATURE_NAMES!r}",
        f"NIL_FEATURES: Final = {NIL_FEATURE_NAMES!r}",
    ]
    for name, value in model.items():
        if isinstance(value, list):
            numbers = ", ".join(f"{v:.6g}" for v in value)
            lines.append(f"{name}: Final = ({numbers})")
        elif isinstance(value, tuple):
            lines.append(f"{name}: Final = ({', '.join(f'{v:.6g}' for v in value)})")
        else:
            lines.append(f"{name}: Final = {value:.6g}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=50_000, help="hands a round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=3, help="rounds of simulate and fit")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=MODEL_PATH, help="where to write the model")
    arguments = parser.parse_args()
    model: BiddingModel | None = None  # the first round bids by the rules of thumb
    for round_number in range(1, arguments.iterations + 1):
        started = time.perf_counter()
        bidder = "rules of thumb" if model is None else "the previous round's model"
        seed = derive_seed(arguments.seed, "round", round_number)
        rows = collect(arguments.hands, seed, arguments.workers, model)
        print(
            f"round {round_number}, bid by {bidder}: {len(rows):,} seat-hands simulated "
            f"in {time.perf_counter() - started:.0f} s"
        )
        fitted, notes = fit(rows)
        print("\n".join(notes), flush=True)
        model = BiddingModel.from_values(fitted)
    command = (
        f".venv/bin/python tools/fit_bidding.py --hands {arguments.hands} --seed {arguments.seed}"
        f" --iterations {arguments.iterations}"
    )
    notes.insert(0, f"round {arguments.iterations} of {arguments.iterations}:")
    write_model(fitted, notes, command, arguments.out)
    print(f"written to {arguments.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
