"""The challenge as a player meets it: the committed deals, one entry a day,
no peeking, the par, and the boards (on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from spades.challenge import ChallengeRefused, ChallengeService, Refusal
from spades.challenge.deals import (
    day_deals,
    deal_mark,
    deal_record,
    verify_deal,
    verify_deal_record,
)
from spades.challenge.play import play_par
from spades.core import SOUTH, GameOverError, RecordError, commitment, game_from_record
from spades.session import InlineDecider
from spades.storage import GameRepository

from .conftest import LEVEL, SetClock
from .helpers import first_card, lowest_bid, play_deal

pytestmark = pytest.mark.both_databases

DAY = date(2026, 12, 5)
ANN, BOB = "a" * 64, "b" * 64


def test_a_day_deals_the_first_deals_of_its_committed_seed(service: ChallengeService) -> None:
    day = service.day(DAY)
    assert day.deals == 8 and day.level == LEVEL
    assert day.commitment == commitment(day.seed, day.salt)
    service.set_name(ANN, "Ann")
    play, _ = service.start(ANN, DAY, 1)
    assert play.game.deals()[0] == day_deals(day.seed, 8)[0]
    # The deal's record names the day and the deal, never the day's seed.
    record = play.kept.record
    assert record["seed"] != day.seed and str(day.seed) not in str(record)
    mark = deal_mark(record)
    assert mark is not None and (mark.day, mark.deal, mark.commitment) == (DAY, 1, day.commitment)
    dealers = [dealer for dealer, _ in day_deals(day.seed, 8)]
    assert dealers == [(dealers[0] + i) & 3 for i in range(8)]  # the deal rotates


def test_a_deal_checks_against_its_commitment_and_a_wrong_one_is_refused(
    service: ChallengeService,
) -> None:
    day = service.day(DAY)
    deals = day_deals(day.seed, 8)
    for number, dealt in enumerate(deals, start=1):
        verify_deal(dealt, number, seed=day.seed, salt=day.salt, digest=day.commitment)
    with pytest.raises(RecordError, match="not deal 2 of seed"):
        verify_deal(deals[0], 2, seed=day.seed, salt=day.salt, digest=day.commitment)
    with pytest.raises(RecordError, match="not the commitment"):
        verify_deal(deals[0], 1, seed=day.seed + 1, salt=day.salt, digest=day.commitment)


def test_tomorrows_commitment_is_published_today_and_later_days_are_not_set(
    service: ChallengeService, repository: GameRepository
) -> None:
    status = service.status(ANN, DAY)
    tomorrow = repository.challenge.day(DAY + timedelta(days=1))
    assert tomorrow is not None and status.next_commitment == tomorrow.commitment
    with pytest.raises(ChallengeRefused) as later:
        service.day(DAY + timedelta(days=2))
    assert later.value.refusal is Refusal.NOT_FOUND
    with pytest.raises(ChallengeRefused, match="There was no challenge"):
        service.day(DAY - timedelta(days=1))
    service.set_name(ANN, "Ann")
    with pytest.raises(ChallengeRefused, match="opens at midnight UTC"):
        service.start(ANN, DAY + timedelta(days=1), 1)


def test_a_name_is_needed_and_checked_like_a_table_name(service: ChallengeService) -> None:
    with pytest.raises(ChallengeRefused) as nameless:
        service.start(ANN, DAY, 1)
    assert nameless.value.refusal is Refusal.NAME
    with pytest.raises(ChallengeRefused, match="simple punctuation"):
        service.set_name(ANN, "<script>")
    assert service.set_name(ANN, "  Ann   of  Avonlea ") == "Ann of Avonlea"


def test_each_deal_is_played_once_in_order_and_only_while_the_day_is_open(
    service: ChallengeService, clock: SetClock
) -> None:
    service.set_name(ANN, "Ann")
    with pytest.raises(ChallengeRefused, match="played in order"):
        service.start(ANN, DAY, 2)
    with pytest.raises(ChallengeRefused, match="no deal 9"):
        service.start(ANN, DAY, 9)
    first = play_deal(service, ANN, DAY, 1)
    again, events = service.start(ANN, DAY, 2)
    assert events or again.game.to_act == SOUTH
    assert service.start(ANN, DAY, 2)[0].kept.id == again.kept.id  # the deal started stands
    with pytest.raises(ChallengeRefused, match="played in order"):
        service.start(ANN, DAY, 1)  # done: never played again
    with pytest.raises(GameOverError):
        service.act(ANN, DAY, 1, lambda game: game.bid(SOUTH, 3))
    assert service.deal(ANN, DAY, 1).kept.score == first.kept.score
    clock.now = clock.now.replace(hour=23, minute=59, second=59)
    clock.advance(seconds=1)  # midnight UTC: the day is over, and its seed shown
    game = service.deal(ANN, DAY, 2).game
    move = lowest_bid(game) if game.legal_bids() else first_card(game)
    with pytest.raises(ChallengeRefused, match="closed at midnight UTC"):
        service.act(
            ANN, DAY, 2, lambda g: g.bid(SOUTH, move) if g.legal_bids() else g.play(SOUTH, move)
        )
    service.set_name(BOB, "Bob")
    with pytest.raises(ChallengeRefused, match="is over: play today's"):
        service.start(BOB, DAY, 1)


def test_no_peeking_at_a_deal_or_the_board_before_finishing(service: ChallengeService) -> None:
    service.set_name(ANN, "Ann")
    service.set_name(BOB, "Bob")
    play_deal(service, ANN, DAY, 1)
    with pytest.raises(ChallengeRefused, match="Finish deal 1 first"):
        service.results(BOB, DAY, 1)
    with pytest.raises(ChallengeRefused, match="Finish deal 1 first"):
        service.par_record(BOB, DAY, 1)
    service.start(BOB, DAY, 1)  # started is not finished
    with pytest.raises(ChallengeRefused, match="Finish deal 1 first"):
        service.results(BOB, DAY, 1)
    assert service.results(ANN, DAY, 1).yours is not None
    with pytest.raises(ChallengeRefused, match="once you have played all its deals"):
        service.leaderboard(ANN, DAY)
    assert service.week(ANN, DAY).counted == []  # today counts once you finished it


@pytest.mark.slow
def test_a_whole_day_for_two_players_scores_against_the_field_and_the_par(
    service: ChallengeService, repository: GameRepository
) -> None:
    service.set_name(ANN, "Ann")
    service.set_name(BOB, "Bob")
    scores: dict[str, list[int]] = {ANN: [], BOB: []}
    for number in range(1, 9):
        ann = play_deal(service, ANN, DAY, number)
        # Bob bids the most he may and plays his last legal card: other results.
        bob = play_deal(
            service,
            BOB,
            DAY,
            number,
            bid=lambda g: max(g.legal_bids()),
            card=lambda g: g.legal_cards()[-1],
        )
        assert ann.kept.score is not None and bob.kept.score is not None
        scores[ANN].append(ann.kept.score)
        scores[BOB].append(bob.kept.score)
    day = service.day(DAY)
    pars = repository.challenge.pars(DAY)
    assert sorted(pars) == list(range(1, 9))
    for number, par in pars.items():  # the par is the day's level at every seat, South's too
        replayed = play_par(day.seed, number, LEVEL, InlineDecider())
        assert par.record == deal_record(replayed, DAY, number, day.commitment)
        assert game_from_record(par.record).deals()[0] == day_deals(day.seed, 8)[number - 1]

    def expected(mine: int, theirs: int) -> float:
        return 100.0 if mine > theirs else 50.0 if mine == theirs else 0.0

    ann_percent = sum(expected(a, b) for a, b in zip(scores[ANN], scores[BOB], strict=True)) / 8
    board = service.leaderboard(ANN, DAY)
    lines = {line.owner: line for line in board.lines}
    assert lines[ANN].percent == pytest.approx(ann_percent)
    assert lines[BOB].percent == pytest.approx(100.0 - ann_percent)
    assert lines[ANN].versus_par == sum(scores[ANN]) - sum(par.score for par in pars.values())
    assert service.week(ANN, DAY).lines[0].points == pytest.approx(
        max(ann_percent, 100 - ann_percent)
    )
    results = service.results(BOB, DAY, 3)
    assert results.par is not None and results.par.score == pars[3].score
    assert sum(count for _, count in results.spread) == 2
    history = service.history(ANN)
    assert [(h.day, h.finished, h.rank, h.players) for h in history] == [
        (DAY, 8, lines[ANN].rank, 2)
    ]


def test_the_same_moves_meet_the_same_bots(service: ChallengeService) -> None:
    service.set_name(ANN, "Ann")
    service.set_name(BOB, "Bob")
    ann = play_deal(service, ANN, DAY, 1)
    bob = play_deal(service, BOB, DAY, 1)
    assert ann.kept.record["hands"] == bob.kept.record["hands"]
    assert ann.kept.score == bob.kept.score
    results = service.results(ANN, DAY, 1)
    assert results.spread == [(ann.kept.score, 2)] and results.common_bid == (ann.kept.bid, 2)
    assert {score.percent for score in results.scores.values()} == {50.0}


def test_a_closed_days_deal_record_checks_out(service: ChallengeService, clock: SetClock) -> None:
    service.set_name(ANN, "Ann")
    record = play_deal(service, ANN, DAY, 1).kept.record
    clock.advance(days=1)
    day = service.day(DAY)
    mark = deal_mark(record)
    assert mark is not None
    said = verify_deal_record(
        game_from_record(record), mark, seed=day.seed, salt=day.salt, digest=None
    )
    assert "deal 1 of the challenge of 2026-12-05" in said
