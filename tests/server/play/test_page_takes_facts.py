"""The page draws the facts each event's ``after`` carries instead of working
out the rules itself (tests/server/test_moments.py checks the facts)."""

from __future__ import annotations

import re
from pathlib import Path

import spades.server

STATIC = Path(spades.server.__file__).parent / "static"
APP_JS = "\n".join(path.read_text(encoding="utf-8") for path in sorted(STATIC.glob("*.js")))
"""Every module of the page."""


def test_the_page_does_not_recount_the_teams_contracts() -> None:
    assert "recountTeams" not in APP_JS
    # No sum of bids or of the seats' tricks into a team's: core's team_contract says.
    assert not re.search(r"team\.(bid|tricks|nil_seats)\s*=", APP_JS)
    assert "Object.assign(team, after.teams[team.team])" in APP_JS


def test_the_page_does_not_work_out_whether_spades_are_broken() -> None:
    assert not re.search(r"suitOf\([^)]*\)\s*===\s*\"S\"", APP_JS)
    assert not re.search(r"spades_broken\s*(\|\|=|=\s*(true|false))", APP_JS)
    assert "view.spades_broken = after.spades_broken" in APP_JS
