"""The shipped deal sets are the arena's duplicate deals for their seeds, and
the duplicate evaluation plays them as the arena does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from spades.arena.match import MatchSetup, run_duplicate
from spades.arena.players import parse_player
from spades.bots import make_bot
from spades.core import mask_of, parse_cards
from spades.rl.deal_sets import (
    SHIPPED,
    DealSetError,
    deal_set_path,
    load_deal_set,
)
from spades.rl.evaluate import evaluate_duplicate

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", list(SHIPPED))
def test_a_shipped_set_is_what_its_seed_deals(name: str) -> None:
    deal_set = load_deal_set(name)  # checks every deal against the seed
    seed, count = SHIPPED[name]
    assert (deal_set.name, deal_set.seed, len(deal_set.deals)) == (name, seed, count)
    assert len({deal.hands for deal in deal_set.deals}) == count


def test_the_arena_plays_the_same_deals_for_the_seed() -> None:
    deal_set = load_deal_set("test-v1")
    setup = MatchSetup(
        parse_player("random"), parse_player("random"), seed=deal_set.seed, keep_records=True
    )
    for result, deal in zip(run_duplicate(setup, 3), deal_set.deals, strict=False):
        hand = result.records[0]["hands"][0]
        dealt = tuple(mask_of(parse_cards(" ".join(hand["deal"][seat]))) for seat in "NESW")
        assert dealt == deal.hands


def test_a_changed_deal_is_refused(tmp_path: Path) -> None:
    data = json.loads(deal_set_path("test-v1").read_text())
    hands = data["deals"][5]["hands"]
    hands["N"], hands["E"] = hands["E"], hands["N"]
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data))
    with pytest.raises(DealSetError, match="deal 5 is not the one seed"):
        load_deal_set(changed)
    with pytest.raises(DealSetError, match="no deal set is called"):
        deal_set_path("test-v9")


def test_the_tool_rewrites_the_same_files() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_deal_sets.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bot_against_itself_scores_level_on_every_deal() -> None:
    report = evaluate_duplicate(
        lambda seed: make_bot("easy", seed=seed), "easy", "test-v1", deals=6
    )
    assert report.margin.value == 0 and report.margin.high == report.margin.low == 0


def test_a_stronger_level_shows_a_positive_margin() -> None:
    report = evaluate_duplicate(
        lambda seed: make_bot("normal", seed=seed), "random", "test-v1", deals=30
    )
    assert report.margin.low is not None and report.margin.low > 0
    assert report.to_dict()["deals"] == 30
