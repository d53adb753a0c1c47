"""benchmarks/live_tables.py still drives live tables: a few tables of four
people play for a moment over their sockets, every move is pushed to every
seat, and nothing fails."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the benchmark's server and clients


SCRIPT = Path(__file__).parents[3] / "benchmarks" / "live_tables.py"


def test_the_live_tables_benchmark_pushes_every_move_without_a_failure() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--tables", "2", "--seconds", "3", "--warmup", "1",
         "--think", "0.05"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )  # fmt: skip
    out = result.stdout
    assert "2 tables, 8 sockets" in out, out
    moves = re.search(r"([\d,]+) moves .*, ([\d,]+) pushes timed", out)
    assert moves is not None, out
    # Each move is heard by the four sockets of its table (a move at the very end may not be).
    assert int(moves[2].replace(",", "")) >= 4 * (int(moves[1].replace(",", "")) - 2) > 0, out
    assert re.search(r"push\s+p50\s+[\d.]+ ms\s+p95\s+[\d.]+ ms", out), out
    assert "failures: 0" in out, out
