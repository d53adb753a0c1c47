"""benchmarks/web_load.py still drives the server it measures: a few clients
play for a moment against a real ``spades serve`` and every request succeeds."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the benchmark's server and clients


SCRIPT = Path(__file__).parents[2] / "benchmarks" / "web_load.py"


def test_the_load_benchmark_plays_games_without_a_failure() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--clients", "3", "--seconds", "3", "--warmup", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    out = result.stdout
    assert re.search(r"[\d,]+ requests in [\d.]+ s: [\d,]+ requests/s", out), out
    assert re.search(r"server CPU: [\d.]+ s, [\d.]+ ms a request", out), out
    assert re.search(r"client CPU: [\d.]+ s, [\d.]+ ms a request", out), out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("  ")}
    assert {"play", "all"} <= rows.keys(), out
    assert int(rows["all"][1].replace(",", "")) > 10 and rows["all"][2] == "0", out
    assert "first failure" not in out
