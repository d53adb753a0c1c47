"""The RL examples run to the end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("script", "arguments"),
    [
        ("rl_random_agents.py", ["--episodes", "2", "--episode", "game"]),
        ("rl_single_agent.py", ["--episodes", "2", "--opponents", "random"]),
    ],
)
def test_the_example_runs(script: str, arguments: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "episode 2" in result.stdout
