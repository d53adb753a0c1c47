"""The daily challenge as a player meets it, with no web or terminal types:
the web routes (``server/challenge``) and ``spades challenge`` both call this.

What it guards, once for every surface:

- one entry a day per player: each deal of a day is played once, in order,
  and only while the day is open (a deal left unfinished at midnight UTC
  stays unfinished: once the seed is revealed every hand is known);
- no peeking: a deal's results (the field, the par, its replay) are shown only
  to a player who has finished that deal, and an open day's leaderboard only
  to one who has finished all its deals; once a day closes, to everyone;
- the deals are the committed seed's only (``deals.py``).

The par of each deal is played by the day's bots once, in the background (a
search level takes a while over 56 decisions), and kept; until it is kept a
result shows no par.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from typing import Any, Final

from spades.core import SOUTH, Event, Game, GameOverError, NotYourTurnError, game_from_record
from spades.core.seats import SEAT_NAMES
from spades.session.turns import Decide
from spades.storage.challenge import (
    ChallengeStore,
    FieldResult,
    KeptDay,
    KeptPar,
    KeptPlay,
    PlayTaken,
    StalePlay,
)

from .days import DEALS_PER_DAY, Clock, day_of, draw_seed, has_opened, is_closed, utc_now, week_of
from .deals import deal_game, deal_over, deal_record
from .leaderboard import DayLine, WeekLine, day_board, par_percent, score_field, week_board
from .names import check_display_name
from .play import bot_levels, bots_answer, play_par, result_of
from .scoring import DealScore, deal_scores

log = logging.getLogger(__name__)

MAX_LISTED: Final = 100
"""Results of a deal listed by name (the spread counts them all)."""


class Refusal(enum.StrEnum):
    """Why the challenge refuses a request: each surface words its answer from it."""

    NOT_FOUND = "not-found"
    """No such day, deal or play."""
    NOT_NOW = "not-now"
    """Not at this point: a deal before the last is finished, a day closed, a peek."""
    NAME = "name"
    """No display name yet, or one that cannot be shown."""


class ChallengeRefused(Exception):
    def __init__(self, refusal: Refusal, message: str, rule: str) -> None:
        super().__init__(message)
        self.refusal = refusal
        self.message = message
        self.rule = rule


def start_thread(work: Callable[[], None]) -> None:
    """Run ``work`` in a daemon thread (the product's way to play the pars)."""
    threading.Thread(target=work, name="challenge-par", daemon=True).start()


@dataclass(frozen=True, slots=True)
class DealPlay:
    """A player's deal: the stored play and its game, as played so far."""

    kept: KeptPlay
    game: Game
    day: KeptDay

    @property
    def over(self) -> bool:
        return deal_over(self.game)


@dataclass(frozen=True, slots=True)
class DayStatus:
    """A day as a player sees it."""

    day: KeptDay
    today: date
    closed: bool
    opened: bool
    name: str | None
    plays: list[KeptPlay]
    next_commitment: str | None
    """The following day's commitment, published before that day starts."""

    @property
    def finished(self) -> int:
        return sum(play.finished for play in self.plays)

    @property
    def next_deal(self) -> int | None:
        """The deal the player is to play now (started or not), or None."""
        if self.closed or not self.opened or self.finished >= self.day.deals:
            return None
        return self.finished + 1

    @property
    def all_done(self) -> bool:
        return self.finished >= self.day.deals


@dataclass(frozen=True, slots=True)
class DealResults:
    """A finished deal against the field and the par."""

    day: date
    deal: int
    yours: FieldResult | None
    your_score: DealScore | None
    par: KeptPar | None
    field: list[FieldResult]
    scores: dict[str, DealScore]
    spread: list[tuple[int, int]]
    """Each score made, best first, with how many made it."""
    common_bid: tuple[int, int] | None
    """South's most common bid and how many bid it."""


@dataclass(frozen=True, slots=True)
class DayBoard:
    day: date
    closed: bool
    lines: list[DayLine]
    par_percent: float | None


@dataclass(frozen=True, slots=True)
class WeekBoard:
    days: list[date]
    counted: list[date]
    """The days whose results count here: the closed ones, and today once you finished it."""
    lines: list[WeekLine]


@dataclass(frozen=True, slots=True)
class HistoryDay:
    day: date
    deals: int
    finished: int
    percent: float | None
    versus_par: int
    rank: int | None
    """Your rank on the day, once its board is yours to see."""
    players: int


class ChallengeService:
    """The challenge over ``store``, its days read from ``clock``; the day's
    bots play ``level`` (fixed for a day when it is drawn), decided by ``decide``.
    The pars are played by ``run_in_background`` (a test passes one that runs
    them at once)."""

    def __init__(
        self,
        store: ChallengeStore,
        *,
        level: str,
        decide: Decide,
        clock: Clock = utc_now,
        deals: int = DEALS_PER_DAY,
        run_in_background: Callable[[Callable[[], None]], None] = start_thread,
    ) -> None:
        self.store = store
        self.level = level
        self.decide = decide
        self.clock = clock
        self.deals = deals
        self.run_in_background = run_in_background
        self._lock = threading.Lock()
        self._playing_pars: set[date] = set()

    # -------------------------------------------------------------------- days

    def now(self) -> datetime:
        return self.clock()

    def today(self) -> date:
        return day_of(self.clock())

    def day(self, day: date) -> KeptDay:
        """The day's seed and commitment, drawn now if the day is today or
        tomorrow and has none yet; a later day, or an earlier one that never
        had a challenge, is refused."""
        today = self.today()
        kept = self.store.day(day)
        if kept is None:
            if day < today:
                raise ChallengeRefused(
                    Refusal.NOT_FOUND, f"There was no challenge on {day.isoformat()}.", "no-day"
                )
            if day > today + timedelta(days=1):
                raise ChallengeRefused(
                    Refusal.NOT_FOUND,
                    f"The challenge of {day.isoformat()} is not set yet: a day's commitment "
                    "is published the day before.",
                    "no-day",
                )
            seed, salt, digest = draw_seed()
            kept = self.store.add_day(
                KeptDay(day, seed, salt, digest, self.deals, self.level, self.clock())
            )
        if day == today:
            self.day(today + timedelta(days=1))  # its commitment is shown before it starts
            self.play_pars_soon(kept)
        return kept

    def status(self, owner: str, day: date) -> DayStatus:
        kept = self.day(day)
        now = self.now()
        following = self.day(day + timedelta(days=1)).commitment if day == self.today() else None
        return DayStatus(
            day=kept,
            today=self.today(),
            closed=is_closed(day, now),
            opened=has_opened(day, now),
            name=self.store.name(owner),
            plays=self.store.plays(day, owner),
            next_commitment=following,
        )

    # ----------------------------------------------------------------- players

    def set_name(self, owner: str, name: str) -> str:
        try:
            shown = check_display_name(name)
        except ValueError as error:
            raise ChallengeRefused(Refusal.NAME, str(error), "name") from None
        self.store.set_name(owner, shown)
        return shown

    # ------------------------------------------------------------------- deals

    def start(self, owner: str, day: date, number: int) -> tuple[DealPlay, list[Event]]:
        """Start deal ``number`` (the next one) of ``day``: the deal, and the
        bots' bids before South's. The deal already started is returned as it stands."""
        status = self.status(owner, day)
        self._check_open(status)
        name = status.name
        if name is None:
            raise ChallengeRefused(
                Refusal.NAME, "Choose the name the leaderboard shows first.", "name"
            )
        self._check_deal_number(status, number)
        if status.next_deal != number:
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                f"Deal {number} comes after deal {status.finished + 1}: the deals are "
                "played in order.",
                "deal-order",
            )
        started = next((play for play in status.plays if play.deal == number), None)
        if started is not None:
            return self._replayed(started, status.day), []
        kept_day = status.day
        game = deal_game(kept_day.seed, number, {**bot_levels(kept_day.level), SOUTH: name})
        events = bots_answer(game, bot_levels(kept_day.level), self.decide)
        record = deal_record(game, day, number, kept_day.commitment)
        try:
            kept = self.store.start_play(day, owner, number, record)
        except PlayTaken:  # another tab started it a moment ago: play on that one
            theirs = self.store.play(day, owner, number)
            assert theirs is not None
            return self._replayed(theirs, kept_day), []
        return DealPlay(kept, game, kept_day), events

    def deal(self, owner: str, day: date, number: int) -> DealPlay:
        """The player's deal as it stands."""
        kept_day = self.day(day)
        kept = self.store.play(day, owner, number)
        if kept is None:
            raise ChallengeRefused(
                Refusal.NOT_FOUND, f"You have not started deal {number} of this day.", "no-play"
            )
        return self._replayed(kept, kept_day)

    def act(
        self, owner: str, day: date, number: int, action: Callable[[Game], list[Event]]
    ) -> tuple[DealPlay, list[Event]]:
        """South's ``action`` on the deal (raises, changing nothing, if illegal),
        the bots' answers, and the deal stored."""
        play = self.deal(owner, day, number)
        if play.over:
            raise GameOverError(f"Deal {number} is over: on to the next one")
        if is_closed(day, self.now()):
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                "This day's challenge closed at midnight UTC: its seed is revealed, so its "
                "deals can no longer be played.",
                "day-closed",
            )
        game = play.game
        if game.to_act != SOUTH:
            assert game.to_act is not None
            raise NotYourTurnError(f"It is {SEAT_NAMES[game.to_act]}'s turn")
        events = action(game)
        events += bots_answer(game, bot_levels(play.day.level), self.decide)
        return self.save(play, events)

    def save(self, play: DealPlay, events: list[Event]) -> tuple[DealPlay, list[Event]]:
        """Store the deal as played (a stale copy raises ``StalePlay``)."""
        game = play.game
        record = deal_record(game, play.kept.day, play.kept.deal, play.day.commitment)
        state = game.history[0].state if game.history else game.hand
        over = deal_over(game)
        result = result_of(game) if over else None
        version = self.store.save_play(
            play.kept,
            record,
            bid=state.bids[SOUTH],
            result=None if result is None else (result.score, result.tricks),
        )
        kept = replace(
            play.kept,
            record=record,
            version=version,
            finished=over,
            score=None if result is None else result.score,
            bid=state.bids[SOUTH],
            tricks=None if result is None else result.tricks,
        )
        if over:
            self.play_pars_soon(play.day)
        return DealPlay(kept, game, play.day), events

    def _replayed(self, kept: KeptPlay, day: KeptDay) -> DealPlay:
        return DealPlay(kept, game_from_record(kept.record), day)

    def _check_open(self, status: DayStatus) -> None:
        if not status.opened:
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                f"The challenge of {status.day.day.isoformat()} opens at midnight UTC.",
                "day-not-open",
            )
        if status.closed:
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                f"The challenge of {status.day.day.isoformat()} is over: play today's.",
                "day-closed",
            )

    @staticmethod
    def _check_deal_number(status: DayStatus, number: int) -> None:
        if not 1 <= number <= status.day.deals:
            raise ChallengeRefused(
                Refusal.NOT_FOUND,
                f"A day has {status.day.deals} deals: there is no deal {number}.",
                "no-deal",
            )

    # --------------------------------------------------------------- results

    def may_see_deal(self, owner: str, day: date, number: int) -> bool:
        if is_closed(day, self.now()):
            return True
        play = self.store.play(day, owner, number)
        return play is not None and play.finished

    def _check_may_see(self, owner: str, day: date, number: int) -> KeptDay:
        kept = self.day(day)
        if not 1 <= number <= kept.deals:
            raise ChallengeRefused(
                Refusal.NOT_FOUND, f"A day has {kept.deals} deals: there is no deal {number}.",
                "no-deal",
            )  # fmt: skip
        if not self.may_see_deal(owner, day, number):
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                f"Finish deal {number} first: how the others did on it stays hidden "
                "until you have played it.",
                "finish-first",
            )
        return kept

    def results(self, owner: str, day: date, number: int) -> DealResults:
        """How everyone did on deal ``number``: for a player who has finished it."""
        self._check_may_see(owner, day, number)
        field = self.store.field([day], number)
        scores = deal_scores({result.owner: result.score for result in field})
        counts: dict[int, int] = {}
        bids: dict[int, int] = {}
        for result in field:
            counts[result.score] = counts.get(result.score, 0) + 1
            if result.bid is not None:
                bids[result.bid] = bids.get(result.bid, 0) + 1
        common = max(bids.items(), key=lambda item: (item[1], -item[0])) if bids else None
        yours = next((result for result in field if result.owner == owner), None)
        return DealResults(
            day=day,
            deal=number,
            yours=yours,
            your_score=None if yours is None else scores[owner],
            par=self.store.pars(day).get(number),
            field=sorted(field, key=lambda result: -result.score)[:MAX_LISTED],
            scores=scores,
            spread=sorted(counts.items(), reverse=True),
            common_bid=common,
        )

    def par_record(self, owner: str, day: date, number: int) -> dict[str, Any] | None:
        """The record of the par play of deal ``number`` (for its replay), once it is kept."""
        self._check_may_see(owner, day, number)
        par = self.store.pars(day).get(number)
        return None if par is None else par.record

    def day_records(self, owner: str, day: date, *, yours: bool) -> list[dict[str, Any]]:
        """The records of the day's deals, in order, to check against the
        commitment: the par plays of a closed day, or your own finished plays."""
        kept = self.day(day)
        if yours:
            return [play.record for play in self.store.plays(day, owner) if play.finished]
        if not is_closed(day, self.now()):
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                "A day's records come once it has closed: they hold all its deals.",
                "day-open",
            )
        pars = self.store.pars(day)
        if len(pars) < kept.deals:
            self.play_pars_soon(kept)
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                "The bots are still playing the par: ask again soon.",
                "par-pending",
            )
        return [pars[number].record for number in range(1, kept.deals + 1)]

    def leaderboard(self, owner: str, day: date) -> DayBoard:
        """The day's board: for everyone once it is closed, else for a player
        who has played all its deals."""
        status = self.status(owner, day)
        if not status.closed and not status.all_done:
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                "The day's leaderboard opens to you once you have played all its deals: "
                "it would tell you how the others did on the ones still ahead of you.",
                "finish-first",
            )
        return self._board(day, status.closed)

    def _board(self, day: date, closed: bool) -> DayBoard:
        field = self.store.field([day])
        pars = {(day, number): par.score for number, par in self.store.pars(day).items()}
        return DayBoard(day, closed, day_board(score_field(field, pars)), par_percent(field, pars))

    def week(self, owner: str, day: date) -> WeekBoard:
        """The running board of ``day``'s week: its closed days, and today's
        results once you have played all of today's deals."""
        today = self.today()
        days = [d for d in week_of(day) if d <= today]
        counted: list[date] = []
        boards: list[list[DayLine]] = []
        for each in days:
            if self.store.day(each) is None:
                continue
            if not is_closed(each, self.now()) and not self.status(owner, each).all_done:
                continue
            counted.append(each)
            boards.append(self._board(each, is_closed(each, self.now())).lines)
        return WeekBoard(week_of(day), counted, week_board(boards))

    def history(self, owner: str) -> list[HistoryDay]:
        """The days you played, newest first, each with how you did."""
        days = self.store.days_played(owner)
        history: list[HistoryDay] = []
        for day in days:
            kept = self.store.day(day)
            if kept is None:
                continue
            status = self.status(owner, day)
            board = self._board(day, status.closed)
            line = next((line for line in board.lines if line.owner == owner), None)
            visible = status.closed or status.all_done
            # Before the board is yours, your percentage counts the deals you have played only.
            percent = line.percent if line is not None else None
            history.append(
                HistoryDay(
                    day=day,
                    deals=kept.deals,
                    finished=status.finished,
                    percent=percent if visible else None,
                    versus_par=line.versus_par if line is not None else 0,
                    rank=line.rank if line is not None and visible else None,
                    players=len(board.lines) if visible else 0,
                )
            )
        return history

    # ------------------------------------------------------------------ pars

    def play_pars_soon(self, day: KeptDay) -> None:
        """Play the day's pars not yet kept, in the background, once at a time."""
        if len(self.store.pars(day.day)) >= day.deals:
            return
        with self._lock:
            if day.day in self._playing_pars:
                return
            self._playing_pars.add(day.day)

        def work() -> None:
            try:
                self.play_pars(day)
            except Exception:  # the next look at the day tries again
                log.exception("could not play the pars of %s", day.day)
            finally:
                with self._lock:
                    self._playing_pars.discard(day.day)

        self.run_in_background(work)

    def play_pars(self, day: KeptDay) -> None:
        """Play and keep every par of ``day`` not kept yet."""
        kept = self.store.pars(day.day)
        for number in range(1, day.deals + 1):
            if number in kept:
                continue
            game = play_par(day.seed, number, day.level, self.decide)
            result = result_of(game)
            record = deal_record(game, day.day, number, day.commitment)
            self.store.add_par(
                day.day,
                KeptPar(number, record, result.score, result.bid or 0, result.tricks or 0),
            )


__all__ = [
    "ChallengeRefused",
    "ChallengeService",
    "DayBoard",
    "DayStatus",
    "DealPlay",
    "DealResults",
    "HistoryDay",
    "Refusal",
    "StalePlay",
    "WeekBoard",
]
