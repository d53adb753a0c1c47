"""`spades arena` run through the real console script (``run``) or by the
command line's entry point in this process (``run_here``: see
``tests/commands.py``), and its JSON summary read."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from typing import Any

from ..commands import SPADES_SCRIPT, spades_here, spades_process

__all__ = ["SPADES_SCRIPT", "run", "run_here", "summary_here", "summary_of", "without_clock"]

CLOCK_KEYS = {"decision_p50_s", "decision_p95_s"}
"""The only figures of a summary that the seed does not reproduce."""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return spades_process("arena", *args)


def run_here(*args: str) -> subprocess.CompletedProcess[str]:
    return spades_here("arena", *args)


def summary_of(
    *args: str, runner: Callable[..., subprocess.CompletedProcess[str]] = run
) -> dict[str, Any]:
    result = runner(*args, "--json")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, "--json prints one line"
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


def summary_here(*args: str) -> dict[str, Any]:
    return summary_of(*args, runner=run_here)


def without_clock(summary: Any) -> Any:
    """``summary`` with the decision times left out: the rest must repeat exactly."""
    if isinstance(summary, dict):
        return {
            key: without_clock(value) for key, value in summary.items() if key not in CLOCK_KEYS
        }
    if isinstance(summary, list):
        return [without_clock(value) for value in summary]
    return summary
