"""Each Nil is worded as it was scored: a blind Nil for the blind Nil bonus, a
double Nil scored as one as a single contract, in the hand summary, the score
sheet and the replay's review of the hand (all from ``NilResult``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spades.core import BLIND_NIL, EAST, NIL, NORTH, SOUTH, Game
from spades.server.play.schemas import HandResult
from spades.server.play.views import game_state, hand_result
from spades.server.records.records import replay_of_game
from tests.helpers import ALL_SPADES, LOW_HAND, LOW_NORTH, nil_game

BLIND = "cardcouch,blind_nil=on"
DOUBLE = "cardcouch,double_nil_bonus=200"


def blind_nil_made() -> Game:
    return nil_game(BLIND, {0: 4, 1: 3, 2: BLIND_NIL, 3: 4}, south=LOW_HAND)


def blind_nil_failed() -> Game:
    return nil_game(BLIND, {0: 4, 1: 3, 2: BLIND_NIL, 3: 4}, south=ALL_SPADES)


def double_nil_made() -> Game:
    return nil_game(DOUBLE, {0: NIL, 1: 3, 2: NIL, 3: 4}, south=LOW_HAND, north=LOW_NORTH)


def double_nil_failed() -> Game:
    return nil_game(DOUBLE, {0: NIL, 1: 3, 2: NIL, 3: 4}, south=ALL_SPADES)


CASES = [
    (blind_nil_made, 200, ["Bid 4, took 0: set, -40", "South's blind Nil made: +200"]),
    (
        blind_nil_failed,
        -200,
        [
            "Bid 4, took 0: set, -40",
            "South's blind Nil failed (13 tricks taken, counted as bags): -200",
            "Bag penalty (10 bags): -100",
        ],
    ),
    (double_nil_made, 200, ["North and South's double Nil made: +200"]),
    (
        double_nil_failed,
        -200,
        [
            "North and South's double Nil failed (13 tricks taken, counted as bags): -200",
            "Bag penalty (10 bags): -100",
        ],
    ),
]
IDS = ["blind Nil made", "blind Nil failed", "double Nil made", "double Nil failed"]


def check_north_south(result: HandResult, nil_points: int, lines: list[str]) -> None:
    ours = result.teams[0]
    assert ours.team == "NS"
    assert ours.summary == lines
    assert ours.nil_points == nil_points
    scored = {nil.seat: (nil.kind.value, nil.points) for nil in ours.nils}
    if "double" in lines[0]:
        assert scored == {"N": ("double_nil", nil_points), "S": ("double_nil", nil_points)}
    else:
        assert scored == {"S": ("blind_nil", nil_points)}


@pytest.mark.parametrize(("make", "nil_points", "lines"), CASES, ids=IDS)
def test_the_hand_summary_says_what_each_nil_was_scored(
    make: Callable[[], Game], nil_points: int, lines: list[str]
) -> None:
    game = make()
    scored = game.history[0]
    assert scored.scores[0].nil_points == nil_points  # the engine scored it so
    check_north_south(hand_result(scored, game.rules), nil_points, lines)


def as_south_reads_it(line: str) -> str:
    """The page's own seat is "you": "Your blind Nil", "Your double Nil with North"."""
    return line.replace("North and South's double Nil", "Your double Nil with North").replace(
        "South's", "Your"
    )


@pytest.mark.parametrize(("make", "nil_points", "lines"), CASES, ids=IDS)
def test_the_score_sheet_says_what_each_nil_was_scored(
    make: Callable[[], Game], nil_points: int, lines: list[str]
) -> None:
    game = make()
    state = game_state(game, game_id="g", version=1, partner_level="easy", opponent_level="easy")
    assert len(state.score_sheet) == 1
    check_north_south(state.score_sheet[0], nil_points, [as_south_reads_it(s) for s in lines])


def test_each_seat_reads_its_own_nil_as_yours() -> None:
    """At a table with friends each seat's sheet is its own: North reads the
    double Nil as "Your double Nil with South", East names both."""
    game = double_nil_failed()
    lines = {
        seat: game_state(
            game, game_id="g", version=1, partner_level="easy", opponent_level="easy", viewer=seat
        )
        .score_sheet[0]
        .teams[0]
        .summary[0]
        for seat in (NORTH, EAST)
    }
    assert lines[NORTH].startswith("Your double Nil with South failed (13 tricks taken")
    assert lines[EAST].startswith("North and South's double Nil failed")


@pytest.mark.parametrize(("make", "nil_points", "lines"), CASES, ids=IDS)
def test_the_replay_reviews_each_nil_as_it_was_scored(
    make: Callable[[], Game], nil_points: int, lines: list[str]
) -> None:
    game = make()
    replay = replay_of_game(game, game_id="g", viewer=SOUTH)
    result = replay.hands[0].result
    assert result is not None
    check_north_south(result, nil_points, lines)


def test_a_plain_nil_reads_as_it_always_did() -> None:
    game = nil_game("cardcouch", {0: 4, 1: 3, 2: NIL, 3: 4}, south=ALL_SPADES)
    lines = hand_result(game.history[0], game.rules).teams[0].summary
    assert "South's Nil failed (13 tricks taken, counted as bags): -100" in lines
    game = nil_game("cardcouch,nil_bonus=50", {0: NIL, 1: 3, 2: 4, 3: 4}, south=ALL_SPADES)
    assert NORTH in {nil.seat for nil in game.history[0].scores[0].nils}
    assert "North's Nil made: +50" in hand_result(game.history[0], game.rules).teams[0].summary
