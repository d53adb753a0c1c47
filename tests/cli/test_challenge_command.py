"""`spades challenge` plays the day in the terminal and enters it on the
leaderboard; `spades arena LEVEL --challenge DATE` scores a bot on a closed
day against the people who played it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spades.challenge import ChallengeService
from spades.cli import challenge as command
from spades.cli.app import app as cli
from spades.session import InlineDecider
from spades.storage import GameRepository
from tests.challenge.conftest import SetClock
from tests.challenge.helpers import play_deal

NOON = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
ANSWERS = "1\n" * 14 * 8
"""Bid 1, then the first legal card, at every prompt of the eight deals."""


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> SetClock:
    at = SetClock(NOON)
    monkeypatch.setattr(command, "CLOCK", at)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # this terminal's token
    monkeypatch.setattr(command, "default_level", lambda: "normal")
    return at


def test_the_terminal_plays_the_day_and_joins_the_leaderboard(clock: SetClock, db_url: str) -> None:
    played = CliRunner().invoke(cli, ["challenge", "--db", db_url, "--name", "Tess"], input=ANSWERS)
    assert played.exit_code == 0, played.output
    assert "Daily challenge of 2026-12-05 (UTC), 8 deals" in played.output
    assert (
        played.output.count("Deal 8 of 8") == 1 and "the first to finish this deal" in played.output
    )
    assert "Leaderboard of 2026-12-05" in played.output and "Tess" in played.output
    again = CliRunner().invoke(cli, ["challenge", "--db", db_url], input=ANSWERS)
    assert again.exit_code == 0 and "Deal 1 of 8" not in again.output  # one entry a day
    undo = CliRunner().invoke(cli, ["challenge", "--db", db_url], input="")
    assert undo.exit_code == 0


def test_no_undo_in_the_terminal_challenge(clock: SetClock, db_url: str) -> None:
    said = CliRunner().invoke(
        cli, ["challenge", "--db", db_url, "--name", "Tess"], input="1\nu\nq\n"
    )
    assert "No undo in the daily challenge" in said.output
    assert "goes on with it" in said.output


def test_the_arena_scores_a_bot_on_a_closed_day(clock: SetClock, db_url: str) -> None:
    repository = GameRepository(db_url)
    service = ChallengeService(
        repository.challenge, level="normal", decide=InlineDecider(), clock=clock,
        run_in_background=lambda work: work(),
    )  # fmt: skip
    service.set_name("a" * 64, "Ann")
    scores = [play_deal(service, "a" * 64, NOON.date(), n).kept.score for n in range(1, 9)]
    open_day = CliRunner().invoke(
        cli, ["arena", "normal", "--challenge", "2026-12-05", "--db", db_url]
    )
    assert open_day.exit_code == 2 and "still open" in open_day.output
    clock.now += timedelta(days=1)
    scored = CliRunner().invoke(
        cli, ["arena", "random", "--challenge", "2026-12-05", "--db", db_url, "--json"]
    )
    assert scored.exit_code == 0, scored.output
    summary = json.loads(scored.output)
    assert [row["field"] for row in summary["deals"]] == [1] * 8 and summary["people"] == 1
    for row, person in zip(summary["deals"], scores, strict=True):
        assert row["matchpoints"] == (
            1.0 if row["score"] > person else 0.5 if row["score"] == person else 0.0
        )
    pars = repository.challenge.pars(NOON.date())
    assert summary["versus_par"] == sum(
        r["score"] - pars[r["deal"]].score for r in summary["deals"]
    )
    repository.close()
    table = CliRunner().invoke(
        cli, ["arena", "random", "--challenge", "2026-12-05", "--db", db_url]
    )
    assert "random at South on the challenge of 2026-12-05" in table.output


@pytest.mark.parametrize(
    "args",
    [["challenge"], ["arena", "normal", "--challenge", "2026-12-05"]],
    ids=["challenge", "arena"],
)
def test_a_database_that_cannot_be_opened_is_a_usage_error_not_a_traceback(
    clock: SetClock, tmp_path: Path, args: list[str]
) -> None:
    """A file that is not a database, given to either command that opens the
    challenge's store, is refused as --db with what is wrong, exit code 2."""
    junk = tmp_path / "not-a-database.db"
    junk.write_text("these are not the pages of an SQLite database\n" * 100)
    result = CliRunner().invoke(cli, [*args, "--db", f"sqlite:///{junk}"])
    assert result.exit_code == 2, result.output
    assert "Invalid value for --db" in result.output
    assert "file is not a database" in " ".join(result.output.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)
