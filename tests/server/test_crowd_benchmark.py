"""benchmarks/crowd.py still plays whole games at a person's pace: two people
for a moment against a real ``spades serve`` (random bots, the test's own
override, so it costs nothing), every route answered and none failing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "crowd.py"


@pytest.mark.slow
def test_the_crowd_benchmark_plays_at_a_persons_pace_without_an_error() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--people", "2", "--seconds", "6", "--warmup", "1",
         "--spread", "0.5", "--level", "random"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )  # fmt: skip
    out = result.stdout
    assert re.search(r"2 people, [\d.]+ s counted, \d+ games finished, load average", out), out
    assert re.search(r"server CPU: [\d.]+ s \(\d+% of a core\)", out), out
    rows = {
        route: (int(answers), int(errors))
        for route, answers, errors in re.findall(r"^  ([a-z ]+?)\s+([\d,]+)\s+(\d+)\s", out, re.M)
        if route != "route"
    }
    # Two people thinking 1-3 s a move make a move or two each in 6 s, and each
    # asks for a new game first: during the warm-up, or counted.
    assert {"new game", "bid", "card"} <= rows.keys(), out
    assert rows["bid"][0] + rows["card"][0] >= 1, out
    assert all(errors == 0 for _answers, errors in rows.values()), out
    assert re.search(r"^\| 2 \| .* \| 0 \| \d+% \| [\d.]+ \|$", out, re.MULTILINE), out
    assert "first error" not in out, out
