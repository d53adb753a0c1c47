"""The statistics of a match: confidence intervals and each side's bidding record.

Pure functions of counts and numbers, standard library only, so every figure
the arena prints can be checked by hand (the doctests below are).

>>> Estimate.of_rate(5, 10).to_dict()
{'value': 0.5, 'low': 0.236593, 'high': 0.763407}
>>> mean_interval([1, 2, 3, 4, 5]).to_dict()
{'value': 3.0, 'low': 1.036757, 'high': 4.963243}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Final

from spades.core import TeamHandScore

Z_95: Final = 1.959963984540054
"""The standard normal's 97.5th percentile: a two-sided 95% interval is +/- this many SEs."""

# Student's t 97.5th percentiles for 1..30 degrees of freedom. Below 30 the
# normal approximation is too narrow (12.7 vs 1.96 at one degree), and the
# expansion used above 30 is not yet accurate, so the exact values are tabled.
_T_95: Final = (
    12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
    2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852,
    2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546,
    2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447,
    2.079613845, 2.073873068, 2.068657610, 2.063898562, 2.059538553,
    2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
)  # fmt: skip

DIGITS: Final = 6
"""Reported figures are rounded to this many decimals (JSON stays short and stable)."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` in ``trials``.

    Unlike the textbook p +/- z*SE it stays inside [0, 1] and is not empty at 0
    or ``trials`` successes, which matters for the lopsided matches a strong bot
    plays against a weak one.

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)
    >>> low, high = wilson_interval(10, 10)      # all won: still not certain
    >>> round(low, 4), round(high, 4)
    (0.7225, 1.0)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return 0.0, 1.0  # no evidence: any rate is possible
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def t_critical_95(degrees: int) -> float:
    """Student's t 97.5th percentile: the multiplier of a 95% two-sided interval.

    Tabled up to 30 degrees of freedom; above, the Cornish-Fisher expansion
    (Abramowitz & Stegun 26.7.5), within 1e-7 of the exact value there.

    >>> t_critical_95(1), t_critical_95(4)
    (12.706204736, 2.776445105)
    >>> round(t_critical_95(60), 4), round(t_critical_95(10**9), 4)
    (2.0003, 1.96)
    """
    if degrees < 1:
        raise ValueError(f"a t interval needs at least 1 degree of freedom, got {degrees}")
    if degrees <= len(_T_95):
        return _T_95[degrees - 1]
    x, v = Z_95, float(degrees)
    g1 = (x**3 + x) / 4
    g2 = (5 * x**5 + 16 * x**3 + 3 * x) / 96
    g3 = (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384
    g4 = (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x) / 92160
    return x + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (0 for no values, so an empty match reports zeros).

    >>> mean([1, 2, 6]), mean([])
    (3.0, 0.0)
    """
    return math.fsum(values) / len(values) if values else 0.0


def sample_sd(values: Sequence[float]) -> float:
    """The sample standard deviation (n - 1 in the denominator); 0 for fewer than 2 values.

    >>> round(sample_sd([1, 2, 3, 4, 5]), 6)
    1.581139
    """
    if len(values) < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(math.fsum((value - centre) ** 2 for value in values) / (len(values) - 1))


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% confidence interval; the bounds are ``None`` when
    there is too little data for one (a mean of a single value)."""

    value: float
    low: float | None
    high: float | None

    @classmethod
    def of_rate(cls, successes: int, trials: int) -> Estimate:
        """A proportion with its Wilson interval."""
        low, high = wilson_interval(successes, trials)
        return cls(successes / trials if trials else 0.0, low, high)

    def to_dict(self) -> dict[str, float | None]:
        return {
            key: None if number is None else round(number, DIGITS)
            for key, number in asdict(self).items()
        }


def mean_interval(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its 95% t interval (mean +/- t * sd / sqrt(n)).

    The t rather than the normal multiplier keeps the interval honest for the
    small samples of a quick match; for large ones the two agree.

    >>> estimate = mean_interval([10, 20, 30, 40])   # sd 12.91, se 6.455, t(3) 3.1824
    >>> round(estimate.low, 2), estimate.value, round(estimate.high, 2)
    (4.46, 25.0, 45.54)
    >>> mean_interval([7])
    Estimate(value=7.0, low=None, high=None)
    """
    centre = mean(values)
    if len(values) < 2:
        return Estimate(centre, None, None)
    half = t_critical_95(len(values) - 1) * sample_sd(values) / math.sqrt(len(values))
    return Estimate(centre, centre - half, centre + half)


def percentile(values: Sequence[float], fraction: float) -> float | None:
    """The nearest-rank percentile: the smallest value with at least ``fraction``
    of ``values`` at or below it (``None`` for no values).

    >>> percentile([5, 1, 3, 2, 4], 0.5), percentile(range(1, 101), 0.95), percentile([], 0.5)
    (3, 95, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def share(part: int, whole: int) -> float | None:
    """``part / whole``, or ``None`` when there is nothing to share (no Nil bid at all).

    >>> share(1, 4), share(0, 0)
    (0.25, None)
    """
    return part / whole if whole else None


@dataclass(slots=True)
class SideTally:
    """One side's bidding record over the hands it played, as counts (so tallies
    from different workers or tables simply add up)."""

    hands: int = 0
    contracts: int = 0
    """Hands in which the side had a numeric bid (not both partners Nil)."""
    sets: int = 0
    """Numeric contracts the side failed to make."""
    nil_bids: int = 0
    nils_made: int = 0
    bags: int = 0
    """Bags taken: overtricks plus every trick a Nil bidder took."""
    table_bid: int = 0
    """The sum over hands of the partners' combined bid (a Nil counts 0)."""
    forfeits: int = 0
    decision_ns: list[int] = field(default_factory=list, compare=False)
    """How long each bid and card took the side's bots, in nanoseconds (adding
    two tallies joins their lists). Not compared: the clock is the one thing
    in a match its seed does not reproduce."""

    def add_hand(self, score: TeamHandScore) -> None:
        """Count one scored hand of this side.

        >>> from spades.core import score_hand
        >>> ns, ew = score_hand([0, 3, 4, 5], [1, 3, 4, 5])   # N Nil fails, S bid 4 makes it
        >>> tally = SideTally()
        >>> tally.add_hand(ns)
        >>> tally.contracts, tally.sets, tally.nil_bids, tally.nils_made, tally.bags, tally.table_bid
        (1, 0, 1, 0, 1, 4)
        """
        self.hands += 1
        if score.bid is not None:
            self.contracts += 1
            self.sets += not score.made
            self.table_bid += score.bid
        self.nil_bids += len(score.nils)
        self.nils_made += sum(nil.made for nil in score.nils)
        self.bags += score.bags_taken

    def add(self, other: SideTally) -> None:
        """Add ``other``'s counts to these."""
        for name in self.__slots__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_dict(self) -> dict[str, int | float | None]:
        """The counts and the rates the arena reports."""

        def rounded(number: float | None) -> float | None:
            return None if number is None else round(number, DIGITS)

        return {
            "hands": self.hands,
            "contracts": self.contracts,
            "sets": self.sets,
            "set_rate": rounded(share(self.sets, self.contracts)),
            "nil_bids": self.nil_bids,
            "nils_made": self.nils_made,
            "nil_success": rounded(share(self.nils_made, self.nil_bids)),
            "bags_per_hand": rounded(share(self.bags, self.hands)),
            "mean_table_bid": rounded(share(self.table_bid, self.hands)),
            "forfeits": self.forfeits,
            "decisions": len(self.decision_ns),
            "decision_p50_s": rounded(seconds(percentile(self.decision_ns, 0.5))),
            "decision_p95_s": rounded(seconds(percentile(self.decision_ns, 0.95))),
        }


def seconds(nanoseconds: float | None) -> float | None:
    return None if nanoseconds is None else nanoseconds / 1e9
