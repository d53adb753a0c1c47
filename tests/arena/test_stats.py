"""The arena's statistics against values worked out by hand (or from tables)."""

from __future__ import annotations

import itertools
import math

import pytest

from spades.arena.stats import (
    Estimate,
    SideTally,
    mean_interval,
    sample_sd,
    share,
    t_critical_95,
    wilson_interval,
)
from spades.core import NIL, score_hand


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Wilson 95% intervals as published in binomial-interval tables.
        (5, 10, 0.2366, 0.7634),
        (1, 10, 0.0179, 0.4042),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (50, 100, 0.4038, 0.5962),
    ],
)
def test_wilson_interval_matches_the_tables(
    successes: int, trials: int, low: float, high: float
) -> None:
    computed = wilson_interval(successes, trials)
    assert computed == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_by_hand_for_3_of_4() -> None:
    # p = 0.75, z^2 = 3.8415: centre (0.75 + 0.4802) / 1.9604 = 0.6275,
    # half 1.96 * sqrt(0.046875 + 0.060024) / 1.9604 = 0.3268.
    low, high = wilson_interval(3, 4)
    assert (low, high) == pytest.approx((0.3006, 0.9544), abs=1e-4)


def test_no_trials_means_no_knowledge() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert Estimate.of_rate(0, 0) == Estimate(0.0, 0.0, 1.0)


@pytest.mark.parametrize(
    ("degrees", "value"),
    [(1, 12.7062), (2, 4.3027), (10, 2.2281), (30, 2.0423), (31, 2.0395), (40, 2.0211),
     (120, 1.9799), (10**6, 1.9600)],
)  # fmt: skip
def test_t_critical_values_match_the_t_table(degrees: int, value: float) -> None:
    assert t_critical_95(degrees) == pytest.approx(value, abs=1e-4)


def test_t_critical_falls_towards_the_normal_value() -> None:
    values = [t_critical_95(degrees) for degrees in range(1, 200)]
    assert all(a > b for a, b in itertools.pairwise(values))
    with pytest.raises(ValueError, match="degree"):
        t_critical_95(0)


def test_mean_interval_by_hand() -> None:
    # mean 25, sd sqrt(500/3) = 12.9099, se 6.4550, t(3) = 3.1824: 25 +/- 20.5426
    estimate = mean_interval([10, 20, 30, 40])
    assert estimate.value == 25
    assert (estimate.low, estimate.high) == pytest.approx((4.4574, 45.5426), abs=1e-4)


def test_mean_interval_of_equal_values_has_no_width() -> None:
    assert mean_interval([3.5, 3.5, 3.5]) == Estimate(3.5, 3.5, 3.5)


def test_mean_interval_needs_two_values_for_an_interval() -> None:
    assert mean_interval([]) == Estimate(0.0, None, None)
    assert mean_interval([-40]) == Estimate(-40.0, None, None)


def test_sample_sd_uses_n_minus_one() -> None:
    assert sample_sd([2, 4]) == pytest.approx(math.sqrt(2))
    assert sample_sd([9]) == 0.0


def test_estimate_rounds_for_the_report() -> None:
    assert Estimate(1 / 3, None, 2 / 3).to_dict() == {
        "value": 0.333333,
        "low": None,
        "high": 0.666667,
    }


def test_share() -> None:
    assert share(3, 4) == 0.75
    assert share(0, 0) is None


def test_side_tally_counts_contracts_sets_nils_bags_and_bids() -> None:
    tally = SideTally()
    # N, E, S, W. Hand 1: NS bid 4 + 3 = 7 and take 8 (1 bag); EW bid 5 + 1 and take 5: set.
    ns, ew = score_hand([4, 5, 3, 1], [4, 3, 4, 2])
    tally.add_hand(ns)
    other = SideTally()
    other.add_hand(ew)
    # Hand 2: North Nil takes 1 trick, South bids 4 and takes 4: made, 1 bag from the Nil.
    ns, _ = score_hand([NIL, 3, 4, 3], [1, 4, 4, 4])
    tally.add_hand(ns)
    # Hand 3: both Nil, both made: no contract, table bid 0.
    ns, _ = score_hand([NIL, 6, NIL, 7], [0, 6, 0, 7])
    tally.add_hand(ns)
    assert tally == SideTally(
        hands=3, contracts=2, sets=0, nil_bids=3, nils_made=2, bags=2, table_bid=11
    )
    assert other.sets == 1 and other.contracts == 1 and other.table_bid == 6

    tally.add(other)
    assert tally.to_dict() == {
        "hands": 4,
        "contracts": 3,
        "sets": 1,
        "set_rate": 0.333333,
        "nil_bids": 3,
        "nils_made": 2,
        "nil_success": 0.666667,
        "bags_per_hand": 0.5,
        "mean_table_bid": 4.25,
        "forfeits": 0,
        "decisions": 0,
        "decision_p50_s": None,
        "decision_p95_s": None,
    }


def test_empty_tally_reports_no_rates() -> None:
    summary = SideTally().to_dict()
    assert summary["set_rate"] is None and summary["nil_success"] is None


def test_decision_times_are_nearest_rank_percentiles_in_seconds() -> None:
    tally = SideTally()
    tally.decision_ns.extend(1_000_000 * n for n in range(1, 21))  # 1 ms .. 20 ms
    other = SideTally()
    other.decision_ns.append(400_000_000)
    tally.add(other)  # joins the lists: 21 decisions
    shown = tally.to_dict()
    assert shown["decisions"] == 21
    assert shown["decision_p50_s"] == 0.011  # the 11th of 21
    assert shown["decision_p95_s"] == 0.02  # the 20th of 21 (ceil(0.95 * 21) = 20)
    assert tally == SideTally()  # no hands counted, and the clock is not compared
