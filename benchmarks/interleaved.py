"""Shared by the benchmarks: measure contenders fairly on a busy machine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

Run = TypeVar("Run")


def best_of_interleaved(
    runs: Sequence[tuple[str, Run]], rounds: int, rate: Callable[[Run], float]
) -> dict[str, float]:
    """Each contender's best ``rate`` over ``rounds`` rounds that take turns:
    interleaving and keeping the best run keeps the ratios fair when something
    else uses the machine for part of the time."""
    results = dict.fromkeys((name for name, _ in runs), 0.0)
    for _ in range(rounds):
        for name, run in runs:
            results[name] = max(results[name], rate(run))
    return results
