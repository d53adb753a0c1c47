"""South's view of a game, as the API sends it.

Everything here is built from ``Game.view(SOUTH)`` and the game's public
results (bids, played cards, scores): the only cards named are South's own and
those already played. Other seats appear as a count of cards left.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Final

from pydantic import TypeAdapter

from spades.core import (
    EAST,
    SOUTH,
    WEST,
    BidAction,
    Claim,
    Game,
    NilKind,
    NilResult,
    PlayerView,
    Rules,
    ScoredHand,
    TeamHandScore,
    Undo,
    bid_to_json,
    nil_kind_name,
    rules_name,
)
from spades.core.cards import CARD_NAMES, card_long_name, cards_in, sorted_for_display
from spades.core.seats import (
    SEAT_LETTERS,
    SEAT_NAMES,
    SEATS,
    TEAM_LONG_NAMES,
    TEAM_NAMES,
    TEAMS,
    Seat,
    partner_of,
    team_of,
    team_seats,
)
from spades.storage.models import GameRow

from .claims import claim_notes, claim_offer
from .games import IntentResult
from .hints import Hint
from .levels import seat_levels
from .moments import Moment, contract_state
from .schemas import (
    BidValue,
    Fairness,
    GameEvent,
    GameOverInfo,
    GameState,
    GameSummary,
    GameUpdate,
    HandResult,
    HintResponse,
    NilOutcome,
    PassState,
    Role,
    SeatState,
    Settings,
    TakenBack,
    TeamHandResult,
    TeamState,
    TrickState,
    UndoState,
)

HUMAN: Final = SOUTH

_EVENTS: Final = TypeAdapter(list[GameEvent])

KEPT_SHEETS: Final = 512
"""Score sheets kept, most recently shown first (as many as the games the
repository keeps): a few kilobytes each."""


def bid_value(bid: int) -> BidValue:
    written = bid_to_json(bid)
    assert written is not None
    return written


def role_of(seat: Seat, viewer: Seat = HUMAN) -> Role:
    if seat == viewer:
        return "you"
    return "partner" if seat == partner_of(viewer) else "opponent"


def record_file(game_id: str) -> str:
    """The name a game's record downloads as (and the verify command reads)."""
    return f"spades-{game_id}.json"


def fairness(game: Game, game_id: str) -> Fairness | None:
    """How the deals were chosen; the seed only once nothing it deals is hidden."""
    seeding = game.seeding
    if seeding is None:
        return None
    if seeding.is_practice:
        return Fairness(
            practice=True, commitment=None, seed=str(game.seed), salt=None,
            record=None, record_file=None, verify=None,
        )  # fmt: skip
    if not game.is_over:
        return Fairness(
            practice=False, commitment=seeding.commitment, seed=None, salt=None,
            record=None, record_file=None, verify=None,
        )  # fmt: skip
    file = record_file(game_id)
    return Fairness(
        practice=False,
        commitment=seeding.commitment,
        seed=str(game.seed),
        salt=seeding.salt,
        record=f"/api/games/{game_id}/record",
        record_file=file,
        verify=f"spades replay {file} --seed {game.seed} --salt {seeding.salt} "
        f"--commitment {seeding.commitment}",
    )


class ScoreSheets:
    """The score sheet of each game lately shown, so that a move builds only the
    lines of the hands scored since, not the whole sheet again.

    A scored hand's line never changes: its claims and undos were all made
    before it was scored, and the game's id is its own. So the lines are kept
    by game id and viewer (a seat's own Nil reads "Your Nil") whichever server
    or request made them. Thread-safe: the routes
    that run in worker threads build views too.
    """

    def __init__(self, size: int = KEPT_SHEETS) -> None:
        self._size = size
        self._sheets: OrderedDict[tuple[str, Seat], list[HandResult]] = OrderedDict()
        self._lock = threading.Lock()

    def sheet(self, game_id: str, game: Game, viewer: Seat = HUMAN) -> list[HandResult]:
        """Every scored hand's line of ``game`` as ``viewer`` reads it, first hand first."""
        key = (game_id, viewer)
        with self._lock:
            kept = self._sheets.get(key, [])
        if len(kept) == len(game.history):
            return kept
        if len(kept) > len(game.history):  # hands are never un-scored; make sure anyway
            kept = []
        lines = kept + [
            hand_result(scored, game.rules, claims=game.claims, undos=game.undos, viewer=viewer)
            for scored in game.history[len(kept) :]
        ]
        with self._lock:
            self._sheets[key] = lines  # a new list: one handed out is never changed
            self._sheets.move_to_end(key)
            while len(self._sheets) > self._size:
                self._sheets.popitem(last=False)
        return lines


def game_state(
    game: Game,
    *,
    game_id: str,
    version: int,
    partner_level: str,
    opponent_level: str,
    undo_enabled: bool = True,
    sheets: ScoreSheets | None = None,
    viewer: Seat = HUMAN,
    players: dict[Seat, str] | None = None,
) -> GameState:
    """The whole table as ``viewer`` (South unless a game with friends says
    another seat) sees it; ``sheets`` keeps score sheet lines already made
    (without it the whole sheet is made anew). ``players`` names who plays each
    seat in a game with friends (else the bot levels and "you")."""
    view: PlayerView = game.view(viewer)
    over = game.is_over
    levels = players or {**seat_levels(game, partner_level, opponent_level), HUMAN: "you"}
    played = [0, 0, 0, 0]
    for seat, _card in view.plays():
        played[seat] += 1
    seats = [
        SeatState(
            seat=SEAT_LETTERS[seat],
            name=SEAT_NAMES[seat],
            role=role_of(seat, viewer),
            player=levels[seat],
            cards_left=13 - played[seat] if not game.hand.is_over else 0,
            bid=None if (bid := view.bid_of(seat)) is None else bid_value(bid),
            tricks=view.tricks_won[seat],
            dealer=seat == view.dealer,
        )
        for seat in SEATS
    ]
    teams = []
    for team in TEAMS:
        teams.append(
            TeamState(
                team=TEAM_NAMES[team],
                name=TEAM_LONG_NAMES[team],
                **contract_state(view.contract(team)).model_dump(),
                score=game.totals[team],
                bags=game.bags[team],
            )
        )
    last = view.tricks[-1] if view.tricks else None
    my_turn = not over and view.is_my_turn
    return GameState(
        id=game_id,
        version=version,
        hand_number=game.hand_number,
        phase="over" if over else view.phase.value,
        dealer=SEAT_LETTERS[view.dealer],
        turn=None if game.to_act is None else SEAT_LETTERS[game.to_act],
        your_turn=my_turn,
        hand=[CARD_NAMES[c] for c in sorted_for_display(cards_in(view.hand))],
        legal_bids=[bid_value(b) for b in view.legal_bids()] if my_turn else [],
        legal_cards=[CARD_NAMES[c] for c in view.legal_cards()] if my_turn else [],
        seats=seats,
        teams=teams,
        trick=TrickState.of(view.leader, view.trick, None),
        last_trick=None if last is None else TrickState.of(last.leader, last.cards, last.winner),
        tricks_played=len(view.tricks),
        spades_broken=view.spades_broken,
        score_sheet=(sheets or ScoreSheets()).sheet(game_id, game, viewer),
        game_over=game_over_info(game, viewer),
        settings=Settings(
            partner=partner_level,
            opponents=opponent_level,
            west=levels[WEST],
            east=levels[EAST],
            undo=undo_enabled,
        ),
        undo=UndoState(enabled=undo_enabled, available=undo_enabled and game.can_undo(viewer)),
        claim=claim_offer(game) if players is None else None,
        fairness=fairness(game, game_id),
        target=game.rules.target,
        floor=game.rules.floor,
        rules=rules_name(game.rules),
        rules_summary=game.rules.describe(),
        blind_nil=my_turn and bool(view.without_cards().legal_bids()),
        passing=None if view.passing is None else pass_state(view.passing, viewer),
        passed=[CARD_NAMES[c] for c in sorted_for_display(cards_in(view.passed))],
        received=[CARD_NAMES[c] for c in sorted_for_display(cards_in(view.received))],
        you=SEAT_LETTERS[viewer],
    )


def pass_state(passing: tuple[Seat, Seat, int], viewer: Seat = HUMAN) -> PassState:
    giver, receiver, count = passing
    return PassState(
        seat=SEAT_LETTERS[giver],
        to=SEAT_LETTERS[receiver],
        count=count,
        your_turn=giver == viewer,
    )


def game_over_info(game: Game, viewer: Seat = HUMAN) -> GameOverInfo | None:
    outcome = game.outcome
    if outcome is None:
        return None
    winner = outcome.winner
    loser = 1 - winner
    termination = outcome.termination.value
    if termination == "forfeit" and game.forfeited_by is not None:
        reason = game.forfeited_by[1]
    elif termination == "floor":
        reason = f"{TEAM_LONG_NAMES[loser]} sank to {game.rules.floor} or below"
    else:
        reason = f"{TEAM_LONG_NAMES[winner]} reached {game.rules.target}"
    return GameOverInfo(
        winner=TEAM_NAMES[winner],
        winner_name=TEAM_LONG_NAMES[winner],
        you_won=winner == team_of(viewer),
        reason=reason,
        totals={"NS": game.totals[0], "EW": game.totals[1]},
    )


def nil_line(nil: NilResult, viewer: Seat | None = None) -> str:
    """A Nil contract's line of the hand summary, with the points it was scored:
    ``"South's blind Nil made: +200"``, ``"North and South's double Nil failed
    (1 trick taken, counted as bags): -200"``; ``"Your blind Nil ..."``, ``"Your
    double Nil with North ..."`` when ``viewer`` bid it."""
    partner = partner_of(nil.seat)
    what = nil_kind_name(nil.kind)
    if nil.kind is NilKind.DOUBLE_NIL:
        if viewer in (nil.seat, partner):
            subject = f"Your {what} with {SEAT_NAMES[partner_of(viewer)]}"
        else:
            low, high = sorted((nil.seat, partner))
            subject = f"{SEAT_NAMES[low]} and {SEAT_NAMES[high]}'s {what}"
    else:
        whose = "Your" if viewer == nil.seat else f"{SEAT_NAMES[nil.seat]}'s"
        subject = f"{whose} {what}"
    if nil.contract_made:
        return f"{subject} made: +{nil.points}"
    tricks = nil.contract_tricks
    return (
        f"{subject} failed ({tricks} {'trick' if tricks == 1 else 'tricks'}"
        f" taken, counted as bags): {nil.points}"
    )


def _summary(score: TeamHandScore, rules: Rules, viewer: Seat | None) -> list[str]:
    """The hand's result for one team in words: made or set, each Nil, bags."""
    lines: list[str] = []
    if score.bid is not None:
        if score.made:
            extra = f", +{score.overtricks} for overtricks" if score.overtricks else ""
            lines.append(f"Bid {score.bid}, took {score.tricks}: made, +{score.bid_points}{extra}")
        else:
            lines.append(f"Bid {score.bid}, took {score.tricks}: set, {score.bid_points}")
    for nil in score.nil_contracts:
        lines.append(nil_line(nil, viewer))
    if score.bag_penalties:
        times = "" if score.bag_penalties == 1 else f" x{score.bag_penalties}"
        lines.append(f"Bag penalty ({rules.bag_limit} bags{times}): -{score.bag_penalty_points}")
    return lines


def hand_result(
    scored: ScoredHand,
    rules: Rules,
    *,
    claims: Sequence[Claim] = (),
    undos: Sequence[Undo] = (),
    viewer: Seat | None = None,
) -> HandResult:
    """One line of the score sheet: both teams' bids, tricks, points and bags,
    and the hand's claims and undos in words. The ``viewer``'s own Nil reads
    "Your Nil"; without one (a record, read by anyone) every seat is named."""
    state = scored.state
    bids = state.scored_bids()
    teams = []
    for team in TEAMS:
        score = scored.scores[team]
        seats = team_seats(team)
        teams.append(
            TeamHandResult(
                team=TEAM_NAMES[team],
                bids={SEAT_LETTERS[s]: bid_value(bids[s]) for s in seats},
                tricks={SEAT_LETTERS[s]: state.tricks_won[s] for s in seats},
                bid=score.bid,
                counted_tricks=score.tricks,
                made=score.made,
                nils=[
                    NilOutcome(
                        seat=SEAT_LETTERS[n.seat],
                        tricks=n.tricks,
                        made=n.made,
                        kind=n.kind,
                        points=n.points,
                    )
                    for n in score.nils
                ],
                bid_points=score.bid_points,
                overtricks=score.overtricks,
                nil_points=score.nil_points,
                bags_taken=score.bags_taken,
                bag_penalty_points=score.bag_penalty_points,
                delta=score.delta,
                bags=score.bags,
                total=scored.totals[team],
                summary=_summary(score, rules, viewer),
            )
        )
    notes = claim_notes([claim for claim in claims if claim.hand == scored.number], state)
    taken_back = sum(undo.hand == scored.number and undo.seat == HUMAN for undo in undos)
    if taken_back:
        notes.append(f"You took back {_times(taken_back)} in this hand.")
    return HandResult(
        hand=scored.number,
        dealer=SEAT_LETTERS[state.dealer],
        teams=teams,
        notes=notes,
    )


def _times(n: int) -> str:
    return "a move" if n == 1 else f"{n} moves"


def public_events(events: Sequence[Moment]) -> list[GameEvent]:
    """The events as the API sends them: each one's ``to_dict()`` with the table
    after it, validated."""
    return _EVENTS.validate_python(
        [{**moment.event.to_dict(), "after": moment.after} for moment in events]
    )


def taken_back(undo: Undo) -> list[TakenBack]:
    """What an undo took back, as the API writes moves."""
    return [
        TakenBack(seat=SEAT_LETTERS[action.seat], bid=bid_value(action.bid))
        if isinstance(action, BidAction)
        else TakenBack(seat=SEAT_LETTERS[action.seat], card=CARD_NAMES[action.card])
        for action in undo.taken_back
    ]


def game_summary(row: GameRow) -> GameSummary:
    """A line of the games list, from the stored row (its record is not replayed)."""
    final = row.record.get("final") or {}
    seeding = row.record.get("seeding") or {}
    return GameSummary(
        id=row.id,
        hand_number=row.hand_number,
        finished=row.finished,
        winner=row.winner,  # type: ignore[arg-type]
        partner=row.partner_level,
        opponents=row.opponent_level,
        scores={"NS": final.get("NS", 0), "EW": final.get("EW", 0)},
        practice=seeding.get("kind") == "practice",
        started_at=_utc(row.created_at).isoformat(),
        updated_at=_utc(row.updated_at).isoformat(),
    )


def _utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def game_update(outcome: IntentResult, sheets: ScoreSheets) -> GameUpdate:
    """The game as South sees it after an intent, and the events it caused."""
    stored = outcome.stored
    return GameUpdate(
        game=game_state(
            stored.game,
            game_id=stored.id,
            version=stored.version,
            partner_level=stored.partner_level,
            opponent_level=stored.opponent_level,
            undo_enabled=stored.undo,
            sheets=sheets,
        ),
        events=public_events(outcome.events),
    )


def hint_response(suggestion: Hint) -> HintResponse:
    """The hint as the API words it: the cards, the bid or the card, and why."""
    if suggestion.kind == "pass":
        return HintResponse(
            kind="pass",
            cards=[CARD_NAMES[card] for card in suggestion.cards],
            reason=suggestion.reason,
            level=suggestion.level,
        )
    if suggestion.kind == "bid":
        return HintResponse(
            kind="bid",
            bid=bid_value(suggestion.value),
            reason=suggestion.reason,
            level=suggestion.level,
        )
    return HintResponse(
        kind="card",
        card=CARD_NAMES[suggestion.value],
        card_name=card_long_name(suggestion.value),
        reason=suggestion.reason,
        level=suggestion.level,
    )
