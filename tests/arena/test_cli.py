"""`spades arena`: through the real console script where the test is about the
process (its streams, its exit code), the rest by the command line's entry
point in this process (``run_here``)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from ..commands import spades_here
from .runs import SPADES_SCRIPT, run, run_here, summary_here, without_clock

ESTIMATE_KEYS = {"value", "low", "high"}
SIDE_KEYS = {
    "hands", "contracts", "sets", "set_rate", "nil_bids", "nils_made", "nil_success",
    "bags_per_hand", "mean_table_bid", "forfeits",
    "decisions", "decision_p50_s", "decision_p95_s",
}  # fmt: skip


def records_in(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def assert_inside(estimate: dict[str, float]) -> None:
    assert set(estimate) == ESTIMATE_KEYS
    assert estimate["low"] <= estimate["value"] <= estimate["high"]


def replay_is_clean(path: Path, count: int) -> None:
    result = spades_here("replay", "--quiet", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{count} record(s) checked: all valid" in result.stdout


# ----------------------------------------------------------------------- games


def test_games_summary_has_win_rates_margin_and_side_records(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    summary = summary_here("random", "random", "--games", "8", "--seed", "4", "--out", str(out))
    assert summary["mode"] == "games" and summary["games"] == 8 and summary["seed"] == 4
    assert summary["players"] == {"A": "random", "B": "random"}
    assert sum(summary["wins"].values()) == 8
    for side in ("A", "B"):
        assert_inside(summary["win_rate"][side])
        assert set(summary["sides"][side]) == SIDE_KEYS
        assert summary["sides"][side]["hands"] == summary["hands"]
        assert summary["sides"][side]["forfeits"] == 0
    assert_inside(summary["margin"])

    # The summary agrees with the records: A sits North-South in even games.
    records = records_in(out)
    assert len(records) == 8
    a_teams = ["NS" if index % 2 == 0 else "EW" for index in range(8)]
    a_wins = sum(record["winner"] == team for record, team in zip(records, a_teams, strict=True))
    assert summary["wins"]["A"] == a_wins
    margins = [
        record["final"][team] - record["final"]["EW" if team == "NS" else "NS"]
        for record, team in zip(records, a_teams, strict=True)
    ]
    assert summary["margin"]["value"] == pytest.approx(sum(margins) / 8)
    assert summary["hands"] == sum(len(record["hands"]) for record in records)
    replay_is_clean(out, 8)


def test_games_table_is_readable() -> None:
    result = run("random", "random", "--games", "4", "--seed", "2")
    assert result.returncode == 0, result.stderr
    for text in ("4 games", "A = random", "B = random", "win rate", "set rate", "Nil success",
                 "bags per hand", "mean table bid", "forfeits", "Mean final margin, A minus B"):  # fmt: skip
        assert text in result.stdout
    assert result.stderr == ""  # no progress bar when stderr is not a terminal


@pytest.mark.slow
def test_games_are_reproducible_and_the_same_for_any_number_of_workers(tmp_path: Path) -> None:
    outputs: list[tuple[Any, str]] = []
    for workers in ("1", "2", "1"):
        out = tmp_path / f"w{workers}-{len(outputs)}.jsonl"
        result = run_here(
            "random", "random", "--games", "12", "--seed", "21", "--workers", workers,
            "--out", str(out), "--json",
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        outputs.append((without_clock(json.loads(result.stdout)), out.read_text()))
    assert outputs[0] == outputs[1] == outputs[2]
    other = summary_here("random", "random", "--games", "12", "--seed", "22")
    assert without_clock(other) != outputs[0][0]


# ------------------------------------------------------------------- duplicate


@pytest.mark.slow
def test_duplicate_summary_and_table_records(tmp_path: Path) -> None:
    out = tmp_path / "deals.jsonl"
    args = ("random", "random", "--duplicate", "--deals", "6", "--seed", "8", "--out", str(out))
    summary = summary_here(*args)
    assert summary["mode"] == "duplicate" and summary["deals"] == 6
    for side in ("A", "B"):
        assert_inside(summary["points"][side])
        assert set(summary["sides"][side]) == SIDE_KEYS
        assert summary["sides"][side]["hands"] == 12  # two tables a deal
    # The same bot at both tables with the same seeds plays the same hand: luck cancels.
    assert summary["difference"] == {"value": 0.0, "low": 0.0, "high": 0.0}

    records = records_in(out)
    assert len(records) == 12  # one per table hand, in order
    a_points = []
    for first, second in zip(records[::2], records[1::2], strict=True):
        one, two = first["hands"][0], second["hands"][0]
        assert len(first["hands"]) == len(second["hands"]) == 1
        assert one["deal"] == two["deal"] and one["dealer"] == two["dealer"]
        a_points.append((one["score"]["NS"]["delta"] + two["score"]["EW"]["delta"]) / 2)
    assert [record["hands"][0]["dealer"] for record in records[::2]] == list("NESWNE")
    assert summary["points"]["A"]["value"] == pytest.approx(sum(a_points) / 6, abs=1e-6)
    replay_is_clean(out, 12)


@pytest.mark.slow
def test_duplicate_is_the_same_for_any_number_of_workers() -> None:
    args = ("random", "random", "--duplicate", "--deals", "10", "--seed", "5")
    assert without_clock(summary_here(*args, "--workers", "2")) == without_clock(
        summary_here(*args)
    )


@pytest.mark.slow
def test_search_levels_with_fixed_worlds_are_reproducible_across_workers() -> None:
    # --worlds takes the clock out of the search levels' decisions.
    args = ("hard", "normal", "--duplicate", "--deals", "2", "--seed", "9", "--worlds", "2")
    first = summary_here(*args)
    assert first["sides"]["A"]["forfeits"] == 0
    assert without_clock(summary_here(*args, "--workers", "2")) == without_clock(first)


def test_duplicate_table_is_readable() -> None:
    result = run_here("random", "random", "--duplicate", "--deals", "3", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "3 duplicate deals" in result.stdout and "points per deal" in result.stdout
    assert "A minus B per deal" in result.stdout


# ------------------------------------------------------------- external bots


@pytest.mark.slow
def test_an_external_program_plays_through_the_protocol(tmp_path: Path) -> None:
    out = tmp_path / "external.jsonl"
    program = f"cmd:{shlex.quote(SPADES_SCRIPT)} bot random"
    summary = summary_here(program, "random", "--games", "2", "--seed", "3", "--out", str(out))
    assert summary["players"]["A"] == program
    assert summary["sides"]["A"]["forfeits"] == summary["sides"]["B"]["forfeits"] == 0
    replay_is_clean(out, 2)


def test_a_program_that_fails_scores_the_floor_at_every_table_it_forfeits() -> None:
    crashing = f"cmd:{shlex.quote(sys.executable)} -c 'raise SystemExit(1)'"
    summary = summary_here(crashing, "random", "--duplicate", "--deals", "2", "--seed", "4")
    assert summary["sides"]["A"]["forfeits"] == 4  # two deals, two tables each
    assert summary["points"]["A"]["value"] == -200 and summary["points"]["B"]["value"] == 0
    assert summary["difference"]["value"] == -200


# ---------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("random", "grandmaster"), "unknown player 'grandmaster'"),
        (("cmd:no-such-program-at-all", "random"), "cannot run 'no-such-program-at-all'"),
        (("random", "random", "--deals", "3"), "--deals needs --duplicate"),
        (("random", "random", "--duplicate", "--games", "3"), "use --deals"),
        (("random", "random", "--games", "0"), "--games"),
        (("hard", "random", "--worlds", "0"), "--worlds"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args: tuple[str, ...], message: str) -> None:
    result = run_here(*args)
    assert result.returncode == 2
    unwrapped = " ".join(result.stderr.replace("│", " ").split())  # the error panel wraps lines
    assert message in unwrapped, result.stderr
    assert result.stdout == ""


def test_an_unwritable_out_file_exits_2(tmp_path: Path) -> None:
    result = run("random", "random", "--games", "1", "--out", str(tmp_path / "no" / "such.jsonl"))
    assert result.returncode == 2 and "Cannot write" in result.stderr


# -------------------------------------------------------------------- gauntlet


@pytest.mark.slow
def test_the_gauntlet_plays_every_stranger_in_deals_and_games() -> None:
    from spades.bots.strangers import STRANGERS

    summary = summary_here("random", "--gauntlet", "--deals", "3", "--games", "2", "--seed", "5")
    assert summary["mode"] == "gauntlet" and summary["player"] == "random"
    assert [row["opponent"] for row in summary["opponents"]] == list(STRANGERS)
    for row in summary["opponents"]:
        assert row["duplicate"]["deals"] == 3 and row["games"]["games"] == 2
        assert row["duplicate"]["players"] == {"A": "random", "B": row["opponent"]}
        assert_inside(row["duplicate"]["difference_bag_adjusted"])
        # Each side's record covers every hand it played, at the tables and in the games.
        hands = 2 * 3 + row["games"]["hands"]
        assert row["sides"]["A"]["hands"] == row["sides"]["B"]["hands"] == hands
        assert row["sides"]["A"]["decisions"] > 0


@pytest.mark.slow
def test_the_gauntlet_table_is_readable() -> None:
    result = run_here("random", "--gauntlet", "--deals", "2", "--games", "1", "--quiet")
    assert result.returncode == 0, result.stderr
    assert "random against the strangers" in result.stdout
    for heading in ("bag-adjusted", "games won", "decision p50 / p95", "cautious", "beginner"):
        assert heading in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("random", "normal", "--gauntlet"), "the gauntlet names its own opponents"),
        (("random", "--gauntlet", "--duplicate"), "the gauntlet names its own opponents"),
        (("random",), "name the second partnership"),
    ],
)
def test_gauntlet_arguments_are_checked(args: tuple[str, ...], message: str) -> None:
    result = run_here(*args)
    assert result.returncode == 2
    assert message in " ".join(result.stderr.replace("│", " ").split()), result.stderr
