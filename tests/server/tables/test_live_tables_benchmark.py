"""benchmarks/live_tables.py still drives live tables: a few tables of four
people play a set number of moves over their sockets, every move is pushed to
every seat, and nothing fails."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the benchmark's server and clients


SCRIPT = Path(__file__).parents[3] / "benchmarks" / "live_tables.py"
MOVES = 12


def test_the_live_tables_benchmark_pushes_every_move_without_a_failure() -> None:
    # A count of moves, not a time: however loaded the machine, the run ends when
    # they are answered and heard (the benchmark gives up after minutes, saying so).
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--tables", "2", "--moves", str(MOVES), "--warmup", "0",
         "--think", "0.05"],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "2 tables, 8 sockets" in out, out
    moves = re.search(r"([\d,]+) moves .*, ([\d,]+) pushes timed", out)
    assert moves is not None, out
    # Each move is heard by the four sockets of its table, the mover's own included.
    assert (int(moves[1]), int(moves[2])) == (MOVES, 4 * MOVES), out
    assert re.search(r"push\s+p50\s+[\d.]+ ms\s+p95\s+[\d.]+ ms", out), out
    assert "failures: 0" in out, out
