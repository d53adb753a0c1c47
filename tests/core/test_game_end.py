"""The end of the game: 500 wins, -200 loses, ties play on."""

from spades.core import EW, NS, Rules, Termination, game_outcome


def test_first_team_to_500_wins() -> None:
    outcome = game_outcome([500, 320])
    assert (
        outcome is not None and outcome.winner == NS and outcome.termination is Termination.TARGET
    )
    assert game_outcome([499, 320]) is None


def test_both_past_500_the_higher_total_wins() -> None:
    outcome = game_outcome([512, 540])
    assert outcome is not None and outcome.winner == EW


def test_both_past_500_with_equal_totals_plays_another_hand() -> None:
    assert game_outcome([530, 530]) is None


def test_team_at_minus_200_loses_on_the_spot() -> None:
    outcome = game_outcome([-200, 10])
    assert outcome is not None and outcome.winner == EW and outcome.termination is Termination.FLOOR
    assert game_outcome([-199, 10]) is None


def test_minus_200_beats_reaching_500_in_the_same_hand() -> None:
    outcome = game_outcome([510, -230])
    assert outcome is not None and outcome.winner == NS and outcome.termination is Termination.FLOOR


def test_both_at_minus_200_the_higher_total_wins_and_equal_plays_on() -> None:
    outcome = game_outcome([-210, -250])
    assert outcome is not None and outcome.winner == NS
    assert game_outcome([-220, -220]) is None


def test_target_and_floor_come_from_the_rules() -> None:
    rules = Rules(target=300, floor=-100)
    assert game_outcome([300, 0], rules) is not None
    assert game_outcome([0, -100], rules) is not None
