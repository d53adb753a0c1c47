"""tools/contracts_by_bids.py: a player's contracts split by how the team bid,
read from the records `spades arena --out` writes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SPADES_SCRIPT = str(Path(sys.executable).parent / "spades")
TOOL = str(ROOT / "tools" / "contracts_by_bids.py")


def test_every_contract_of_the_player_is_counted_once(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    arena = subprocess.run(
        [SPADES_SCRIPT, "arena", "normal", "aggressive", "--games", "4", "--seed", "2",
         "--out", str(records), "--json", "--quiet"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    summary = json.loads(arena.stdout)["sides"]["A"]
    result = subprocess.run(
        [sys.executable, TOOL, "normal", str(records)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert sum(int(row[-5]) for row in rows) == summary["contracts"]
    assert sum(int(row[-2]) for row in rows) == summary["sets"]


def test_a_broken_record_names_its_line(tmp_path: Path) -> None:
    records = tmp_path / "broken.jsonl"
    records.write_text('{"hands": []}\nnot json\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, TOOL, "normal", str(records)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode != 0
    assert f"{records}:2: not a JSON record" in result.stderr
