"""Matchpoints as duplicate bridge scores them: one for each result beaten,
half for each tied; the day's percentage is the mean of the deals'."""

from __future__ import annotations

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from spades.challenge.leaderboard import day_board, par_percent, score_field, week_board
from spades.challenge.scoring import deal_scores, matchpoints, mean_percent
from spades.storage.challenge import FieldResult

DAY = date(2026, 12, 5)


def result(owner: str, deal: int, score: int, day: date = DAY) -> FieldResult:
    return FieldResult(day, deal, owner, owner.title(), score, 3, 6)


def test_a_hand_checked_deal_of_five_results() -> None:
    # Scores 71, 50, 50, -60, 71: the two 71s beat three and tie each other (3.5 of 4),
    # the 50s beat one and tie one (1.5), -60 beats none (0).
    scores = deal_scores({"a": 71, "b": 50, "c": 50, "d": -60, "e": 71})
    assert {key: score.matchpoints for key, score in scores.items()} == {
        "a": 3.5,
        "b": 1.5,
        "c": 1.5,
        "d": 0.0,
        "e": 3.5,
    }
    assert {score.top for score in scores.values()} == {4}
    assert scores["a"].percent == 87.5 and scores["b"].percent == 37.5
    assert matchpoints(50, [71, 50, -60, 71]) == 1.5


def test_a_lone_result_has_no_percentage() -> None:
    (only,) = deal_scores({"a": 120}).values()
    assert (only.matchpoints, only.top, only.percent) == (0.0, 0, None)
    assert mean_percent([None, 50.0, 100.0]) == 75.0
    assert mean_percent([None]) is None


@given(st.dictionaries(st.integers(0, 50), st.integers(-330, 330), min_size=1, max_size=40))
def test_the_matchpoints_of_a_deal_add_up_to_n_times_n_minus_1_over_2(
    results: dict[int, int],
) -> None:
    scores = deal_scores(results)
    n = len(results)
    assert sum(score.matchpoints for score in scores.values()) == n * (n - 1) / 2
    for key, score in scores.items():
        others = [value for other, value in results.items() if other != key]
        assert score.matchpoints == matchpoints(results[key], others)  # the counting agrees
        assert 0 <= score.matchpoints <= score.top == n - 1


@given(st.integers(2, 30), st.integers(-330, 330))
def test_equal_results_all_score_half_the_top(n: int, score: int) -> None:
    scores = deal_scores(dict.fromkeys(range(n), score))
    assert {s.matchpoints for s in scores.values()} == {(n - 1) / 2}
    assert {s.percent for s in scores.values()} == {50.0}


@given(st.lists(st.integers(-330, 330), min_size=2, max_size=30))
def test_a_better_score_never_scores_fewer_matchpoints(values: list[int]) -> None:
    scores = deal_scores(dict(enumerate(values)))
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if a > b:
                assert scores[i].matchpoints > scores[j].matchpoints


def test_the_day_board_ranks_by_mean_percentage_and_shares_ranks() -> None:
    field = [
        # deal 1: ann 71 beats bob 50 and cy 50
        result("ann", 1, 71),
        result("bob", 1, 50),
        result("cy", 1, 50),
        # deal 2: bob and cy tie at the top, ann last
        result("ann", 2, -40),
        result("bob", 2, 100),
        result("cy", 2, 100),
    ]
    pars = {(DAY, 1): 60, (DAY, 2): 100}
    board = day_board(score_field(field, pars))
    by_owner = {line.owner: line for line in board}
    # ann: deal 1 2/2 = 100%, deal 2 0/2 = 0%: 50%. bob and cy: 25% and 75%: 50%.
    assert [line.percent for line in board] == [50.0, 50.0, 50.0]
    assert [line.rank for line in board] == [1, 1, 1]
    assert by_owner["ann"].matchpoints == 2.0 and by_owner["bob"].matchpoints == 2.0
    assert by_owner["ann"].versus_par == 11 - 140 and by_owner["bob"].versus_par == -10
    # The par as one more result: deal 1, 60 beats two of three (66.7%); deal 2, ties two, beats one.
    percent = par_percent(field, pars)
    assert percent is not None and round(percent, 4) == round((200 / 3 + 200 / 3) / 2, 4)


def test_the_week_adds_up_the_daily_percentages() -> None:
    monday, tuesday = date(2026, 11, 30), date(2026, 12, 1)
    first = day_board(score_field([result("ann", 1, 50, monday), result("bob", 1, 40, monday)], {}))
    second = day_board(
        score_field([result("bob", 1, 90, tuesday), result("cy", 1, 20, tuesday)], {})
    )
    week = week_board([first, second])
    assert [(line.owner, line.points, line.days, line.rank) for line in week] == [
        ("ann", 100.0, 1, 1),  # equal points share the rank, listed by name
        ("bob", 100.0, 2, 1),
        ("cy", 0.0, 1, 3),
    ]
