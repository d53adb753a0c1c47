"""The challenge service's answers in the API's schemas: South's view of a
deal, its results, the boards. Built from ``PlayerView`` and the stored
results only, so no hidden card reaches a page."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from spades.challenge.days import closes_at
from spades.challenge.service import (
    DayBoard,
    DayStatus,
    DealPlay,
    DealResults,
    HistoryDay,
    WeekBoard,
)
from spades.core import SEATS, SOUTH, Event, HandDealt, Phase, bid_to_json
from spades.core.cards import CARD_NAMES, cards_in, sorted_for_display
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES
from spades.storage.challenge import KeptPlay

from .schemas import (
    BidCount,
    BoardLine,
    ChallengeDay,
    ChallengeHistory,
    ChallengeResults,
    ChallengeSeat,
    ChallengeTable,
    ChallengeTrick,
    DayLeaderboard,
    DealSummary,
    FieldLine,
    HistoryLine,
    ParResult,
    ScoreCount,
    TrickCard,
    WeekBoardLine,
    WeekLeaderboard,
    YourResult,
)


def deal_summary(play: KeptPlay) -> DealSummary:
    return DealSummary(
        deal=play.deal,
        finished=play.finished,
        score=play.score,
        bid=bid_to_json(play.bid),
        tricks=play.tricks,
    )


def day_view(status: DayStatus) -> ChallengeDay:
    kept = status.day
    return ChallengeDay(
        day=kept.day.isoformat(),
        today=status.today.isoformat(),
        deals=kept.deals,
        level=kept.level,
        opened=status.opened,
        closed=status.closed,
        closes_at=closes_at(kept.day).isoformat(),
        commitment=kept.commitment,
        committed_at=kept.created_at.isoformat(),
        seed=kept.seed if status.closed else None,
        salt=kept.salt if status.closed else None,
        next_day=None if status.next_commitment is None else next_day(kept.day),
        next_commitment=status.next_commitment,
        name=status.name,
        plays=[deal_summary(play) for play in status.plays],
        next_deal=status.next_deal,
        all_done=status.all_done,
    )


def next_day(day: date) -> str:
    return (day + timedelta(days=1)).isoformat()


def trick_view(leader: int, cards: Sequence[int], winner: int | None) -> ChallengeTrick:
    """A trick as the engine keeps it (seats and cards as numbers), in the schema's words."""
    return ChallengeTrick(
        leader=SEAT_LETTERS[leader],
        cards=[
            TrickCard(seat=SEAT_LETTERS[(leader + i) & 3], card=CARD_NAMES[card])
            for i, card in enumerate(cards)
        ],
        winner=None if winner is None else SEAT_LETTERS[winner],
    )


def table_view(play: DealPlay, events: Sequence[Event] = ()) -> ChallengeTable:
    """The deal as South sees it: its hand while it is played, then as it ended."""
    game = play.game
    over = play.over
    state = game.history[0].state if game.history else game.hand
    view = game.view(SOUTH)
    players = game.players
    if over:  # the engine has dealt a next hand no one plays: show the one that was played
        hand: list[str] = []
        trick = trick_view(state.leader, [], None)
        tricks = state.tricks
        bids = [state.bids[seat] for seat in SEATS]
        won = list(state.tricks_won)
        broken = state.spades_broken
    else:
        hand = [CARD_NAMES[c] for c in sorted_for_display(cards_in(view.hand))]
        trick = trick_view(view.leader, view.trick, None)
        tricks = list(view.tricks)
        bids = [view.bid_of(seat) for seat in SEATS]
        won = list(view.tricks_won)
        broken = view.spades_broken
    last = tricks[-1] if tricks else None
    your_turn = not over and game.to_act == SOUTH
    return ChallengeTable(
        day=play.kept.day.isoformat(),
        deal=play.kept.deal,
        deals=play.day.deals,
        phase="over" if over else "bidding" if game.phase is Phase.BIDDING else "playing",
        turn=None if over or game.to_act is None else SEAT_LETTERS[game.to_act],
        your_turn=your_turn,
        hand=hand,
        legal_bids=[bid_to_json(bid) for bid in view.legal_bids()] if your_turn else [],  # type: ignore[misc]
        legal_cards=[CARD_NAMES[card] for card in view.legal_cards()] if your_turn else [],
        seats=[
            ChallengeSeat(
                seat=SEAT_LETTERS[seat],
                name=SEAT_NAMES[seat],
                player="you" if seat == SOUTH else players.get(seat, "bot"),
                bid=bid_to_json(bids[seat]),
                tricks=won[seat],
                dealer=seat == state.dealer,
            )
            for seat in SEATS
        ],
        trick=trick,
        last_trick=None if last is None else trick_view(last.leader, last.cards, last.winner),
        tricks_played=len(tricks),
        spades_broken=broken,
        result=deal_summary(play.kept),
        events=[event.to_dict() for event in events if not isinstance(event, HandDealt)],
    )


def results_view(results: DealResults, owner: str) -> ChallengeResults:
    yours = results.yours
    mine = results.your_score
    par = results.par
    return ChallengeResults(
        day=results.day.isoformat(),
        deal=results.deal,
        players=len(results.scores),
        yours=None
        if yours is None or mine is None
        else YourResult(
            score=yours.score,
            bid=bid_to_json(yours.bid),
            tricks=yours.tricks,
            matchpoints=mine.matchpoints,
            top=mine.top,
            percent=mine.percent,
        ),
        par=None
        if par is None
        else ParResult(
            score=par.score,
            bid=bid_to_json(par.bid),  # type: ignore[arg-type]
            tricks=par.tricks,
            versus=None if yours is None else yours.score - par.score,
        ),
        spread=[ScoreCount(score=score, count=count) for score, count in results.spread],
        common_bid=None
        if results.common_bid is None
        else BidCount(bid=bid_to_json(results.common_bid[0]), count=results.common_bid[1]),  # type: ignore[arg-type]
        field=[
            FieldLine(
                name=result.name,
                score=result.score,
                bid=bid_to_json(result.bid),
                tricks=result.tricks,
                matchpoints=results.scores[result.owner].matchpoints,
                you=result.owner == owner,
            )
            for result in results.field
        ],
    )


def day_board_view(board: DayBoard, owner: str) -> DayLeaderboard:
    return DayLeaderboard(
        day=board.day.isoformat(),
        closed=board.closed,
        lines=[
            BoardLine(
                rank=line.rank,
                name=line.name,
                deals=line.deals,
                matchpoints=line.matchpoints,
                top=line.top,
                percent=line.percent,
                versus_par=line.versus_par,
                you=line.owner == owner,
            )
            for line in board.lines
        ],
        par_percent=board.par_percent,
    )


def week_board_view(board: WeekBoard, owner: str) -> WeekLeaderboard:
    return WeekLeaderboard(
        first_day=board.days[0].isoformat(),
        last_day=board.days[-1].isoformat(),
        counted=[day.isoformat() for day in board.counted],
        lines=[
            WeekBoardLine(
                rank=line.rank,
                name=line.name,
                days=line.days,
                points=line.points,
                you=line.owner == owner,
            )
            for line in board.lines
        ],
    )


def history_view(days: Sequence[HistoryDay]) -> ChallengeHistory:
    return ChallengeHistory(
        days=[
            HistoryLine(
                day=day.day.isoformat(),
                deals=day.deals,
                finished=day.finished,
                percent=day.percent,
                versus_par=day.versus_par,
                rank=day.rank,
                players=day.players,
            )
            for day in days
        ]
    )
