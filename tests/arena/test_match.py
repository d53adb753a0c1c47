"""The match runners, in process: seating, seeding, duplicate tables and forfeits."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spades.arena.match import (
    MatchSetup,
    a_team_of_game,
    derive_seed,
    play_duplicate_deal,
    play_match_game,
    run_duplicate,
    run_games,
    table_record,
    table_scores,
    tally_game,
)
from spades.arena.players import PlayerSpecError, parse_player
from spades.arena.referee import play_hand
from spades.bots import BOT_LEVELS, Bot, RandomBot
from spades.core import EW, NS, SEATS, Card, PlayerView, game_from_record
from spades.core.hand import deal as deal_cards

RANDOM = parse_player("random")


def setup(seed: int = 11, *, keep_records: bool = True) -> MatchSetup:
    return MatchSetup(RANDOM, RANDOM, seed=seed, keep_records=keep_records)


def random_bots(seed: int) -> dict[int, Bot]:
    return {seat: RandomBot(f"{seed}:{seat}") for seat in SEATS}


class RevokingBot(RandomBot):
    """Plays the lowest card it holds, legal or not: it soon breaks a rule."""

    name = "revoker"

    def play(self, view: PlayerView) -> Card:
        return (view.hand & -view.hand).bit_length() - 1


def test_play_hand_plays_the_given_deal_once_from_love_all() -> None:
    cards = deal_cards(random.Random(5))
    game = play_hand(random_bots(1), dealer=EW, deal=cards, seed=99)
    assert len(game.history) == 1
    first = game.history[0]
    assert first.state.deal == cards and first.state.dealer == EW
    assert first.totals == (first.scores[0].delta, first.scores[1].delta)
    record = table_record(game)
    assert len(record["hands"]) == 1
    assert game_from_record(record).history[0].totals == first.totals


def test_partnerships_swap_seats_every_game() -> None:
    assert [a_team_of_game(index) for index in range(4)] == [NS, EW, NS, EW]
    first, second = (play_match_game(setup(), index) for index in range(2))
    assert (first.a_team, second.a_team) == (NS, EW)


def test_game_result_is_told_from_a_side() -> None:
    result = play_match_game(setup(), 1)  # A at East-West
    record = result.records[0]
    final = record["final"]
    assert result.margin == final["EW"] - final["NS"]
    assert result.winner == (0 if record["winner"] == "EW" else 1)
    assert result.tallies[0].hands == result.hands == len(record["hands"])


def test_a_game_depends_on_its_index_only() -> None:
    later = play_match_game(setup(), 5)
    assert list(run_games(setup(), 6))[5] == later


def test_seeds_are_named_not_drawn_in_sequence() -> None:
    assert derive_seed(1, "deal", 3) == derive_seed(1, "deal", 3)
    assert len({derive_seed(1, kind, i) for kind in ("game", "deal") for i in range(100)}) == 200
    assert 0 <= derive_seed("anything") < 2**63


def test_duplicate_tables_share_the_cards_with_the_sides_swapped() -> None:
    result = play_duplicate_deal(setup(3), 6)
    first, second = (record["hands"][0] for record in result.records)
    assert first["deal"] == second["deal"]
    assert first["dealer"] == second["dealer"] == "S"  # the dealer rotates with the index: 6 % 4
    # A is North-South at the first table and East-West at the second.
    assert result.a_points == (first["score"]["NS"]["delta"] + second["score"]["EW"]["delta"]) / 2
    assert result.b_points == (first["score"]["EW"]["delta"] + second["score"]["NS"]["delta"]) / 2


def test_bag_adjusted_points_charge_each_bag_a_tenth_of_the_penalty() -> None:
    for index in range(8):
        result = play_duplicate_deal(setup(3), index)
        first, second = (record["hands"][0]["score"] for record in result.records)

        def adjusted(score: dict[str, Any]) -> float:
            # From 0-0 the bags after the hand are the bags it took; fewer than
            # 10 here, so the hand paid no penalty itself.
            assert score["bags"] < 10
            return float(score["delta"]) - 10.0 * int(score["bags"])

        assert result.a_adjusted == (adjusted(first["NS"]) + adjusted(second["EW"])) / 2
        assert result.b_adjusted == (adjusted(first["EW"]) + adjusted(second["NS"])) / 2


def test_every_decision_of_a_side_is_timed() -> None:
    result = play_duplicate_deal(setup(3), 0)
    for tally in result.tallies:
        # Two seats a side at each of two tables: a bid and 13 cards each.
        assert len(tally.decision_ns) == 2 * 2 * 14
        assert all(duration > 0 for duration in tally.decision_ns)


class OtherBot(RandomBot):
    """A random bot under another name, to tell the sides apart in records."""

    name = "other"


def test_each_side_sits_where_it_should(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOT_LEVELS, "other", OtherBot)
    mixed = MatchSetup(RANDOM, parse_player("other"), seed=3, keep_records=True)
    tables = play_duplicate_deal(mixed, 0).records
    games = [play_match_game(mixed, index).records[0] for index in range(2)]
    a_at_ns = {"N": "random", "E": "other", "S": "random", "W": "other"}
    a_at_ew = {"N": "other", "E": "random", "S": "other", "W": "random"}
    assert [record["players"] for record in tables] == [a_at_ns, a_at_ew]
    assert [record["players"] for record in games] == [a_at_ns, a_at_ew]


def test_a_bot_against_itself_scores_the_same_at_both_tables() -> None:
    # Same seeds at the same seats: the two tables are the same game, so luck cancels exactly.
    for result in run_duplicate(setup(keep_records=False), 10):
        assert result.a_points == result.b_points
        assert result.tallies[0] == result.tallies[1]


def test_a_forfeited_table_scores_the_floor_and_counts_the_forfeit() -> None:
    bots = random_bots(2)
    bots[EW] = RevokingBot(0)  # East
    game = play_hand(bots, dealer=NS, deal=deal_cards(random.Random(8)), seed=1)
    assert game.forfeited_by is not None and not game.history
    assert table_scores(game, a_team=NS) == (0, -200)  # East-West forfeited
    assert table_scores(game, a_team=EW) == (-200, 0)
    tallies = tally_game(game, a_team=NS)
    assert (tallies[0].forfeits, tallies[1].forfeits) == (0, 1)
    assert game_from_record(table_record(game)).forfeited_by == game.forfeited_by


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("grandmaster", "unknown player 'grandmaster'"),
        ("cmd:", "names no program"),
        ("cmd:   ", "names no program"),
        ("cmd:no-such-program-here --fast", "cannot run 'no-such-program-here'"),
        ("cmd:./missing/bot.py", "cannot run './missing/bot.py'"),
        ("cmd:python 'unclosed", "cannot read the command"),
    ],
)
def test_bad_player_specs_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        parse_player(text)


def test_player_specs_name_levels_case_insensitively() -> None:
    assert parse_player(" Random ").level == "random"
    assert parse_player("Random").text == "Random"
