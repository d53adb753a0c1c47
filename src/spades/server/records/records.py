"""Records in the page: a game to download, a game or a file laid out for replay.

Hidden information stays hidden, by one policy (docs/record-format.md, "What a
record shows while the game goes on"), decided here for every surface: the
record download, the replay and the post-hand review. While the game goes on
a seat is shown only the cards it saw: every card of a hand played to its
13th trick (all were played in front of everyone), its own cards, and the
cards played, but not the cards a claim left unplayed in the other hands, nor
any card of the hand being played but its own. So, until the game is over:

- the download holds the hands before the first one a claim ended (a record
  needs whole deals to re-play), without the seed (which would give every
  deal) and without its commitment's salt;
- the replay of a hand a claim ended shows the viewer's cards and the cards
  played; the hand in progress, the viewer's cards and no claim;
- a hand a claim ended is not reviewed (a review weighs the unplayed cards).

Once the game is over everything is shown.

Undos and claims (``spades.core.claims``) change what is shown, never what
was dealt: a replay shows the moves that stood, and says where a claim ended a
hand and who was credited with the tricks left.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from starlette.responses import Response

from spades.core import (
    Game,
    RecordError,
    game_from_record,
    game_to_record,
    read_record_spans,
    record_line,
)
from spades.core.cards import CARD_NAMES, cards_in, sorted_for_display
from spades.core.hand import HandState
from spades.core.seats import SEAT_LETTERS, SEATS, TEAM_NAMES, Seat

from ..play.schemas import TrickState
from ..play.views import bid_value, game_over_info, hand_result, record_file
from .replay_schemas import Replay, ReplayBid, ReplayClaim, ReplayHand, ReplayPass

RECORD_INDENT: Final = 2
"""Downloads are pretty-printed: people open them, and an error then names a
line worth looking at. Every reader of records accepts both forms."""


class NothingToDownload(Exception):
    """A game in progress whose first hand is not over: no whole hand to write."""


class BadRecordFile(Exception):
    """A record file that cannot be opened: the reason, the rule and the line."""

    def __init__(self, detail: str, *, rule: str = "record", line: int | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.line = line


# ------------------------------------------------------------------ download


def record_attachment(record: dict[str, Any], game_id: str) -> Response:
    """A record as a file to save, named as the verify command reads it."""
    return Response(
        json.dumps(record, indent=RECORD_INDENT) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{record_file(game_id)}"'},
    )


def hides_unplayed_cards(game: Game, number: int) -> bool:
    """Whether hand ``number`` keeps cards hidden that were never played: a
    claim ended it, and the game goes on."""
    return not game.is_over and any(c.hand == number and c.held for c in game.claims)


def downloadable_record(game: Game) -> dict[str, Any]:
    """The ``spades-record/1`` record a player may take away now: the whole game
    once it is over; before that the finished hands before the first one a claim
    ended, without the seed or the salt. Raises ``NothingToDownload`` when that
    is no hand at all."""
    record = game_to_record(game)
    if game.is_over:
        return record
    whole = 0  # hands played to the end, from the first: every card of them was seen
    for scored in game.history:
        if hides_unplayed_cards(game, scored.number):
            break
        whole += 1
    if whole == 0:
        raise NothingToDownload
    # The hand in play and the claimed ones keep their cards; a refused claim of a
    # whole hand names only cards played later in it, so its defence may stay.
    record["hands"] = record["hands"][:whole]
    record["seed"] = None  # the seed would deal every hand still to come
    record.pop("seeding", None)  # its salt is secret until the end, and useless without the seed
    return record


# -------------------------------------------------------------------- replay


def replay_of_game(game: Game, *, game_id: str, viewer: Seat) -> Replay:
    """One of the player's own games: ``viewer``'s cards shown in a hand still
    being played, every card of the finished hands, all of them once it is over."""
    states = [scored.state for scored in game.history]
    if not game.hand.is_over:
        states.append(game.hand)
    return _replay(game, states, source="game", game_id=game_id, viewer=viewer)


def open_record_file(text: str, game_index: int = 1, *, max_hands: int | None = None) -> Replay:
    """Game ``game_index`` (from 1) of a record file, checked by re-playing every
    bid and card. Raises ``BadRecordFile`` naming the line and the place at fault,
    or when the game holds more than ``max_hands`` hands (re-playing costs
    CPU and memory by the hand: the cap bounds what one upload may cost)."""
    try:
        records = list(read_record_spans(text))
    except RecordError as error:
        line = _line_of(error.where)
        raise BadRecordFile(
            f"This file is not a game record: {error}", rule=error.rule, line=line
        ) from None
    if not records:
        raise BadRecordFile("The file holds no record.")
    if game_index > len(records):
        raise BadRecordFile(
            f"The file holds {_games(len(records))}: there is no game {game_index}."
        )
    span = records[game_index - 1]
    line, record = span.line, span.record
    hands = record.get("hands") if isinstance(record, Mapping) else None
    if max_hands is not None and isinstance(hands, list) and len(hands) > max_hands:
        raise BadRecordFile(
            f"The record starting on line {line} holds {len(hands):,} hands: this server "
            f"replays records of at most {max_hands:,} (a long game has 20 or 30).",
            rule="too-many-hands",
            line=line,
        )
    try:
        game = game_from_record(record)
    except RecordError as error:
        # A pretty-printed record is at fault on the line of the bid, card or
        # deal it refuses, not on its first.
        at = record_line(text, span, error.path)
        where = "" if at == line else f" at line {at}"
        raise BadRecordFile(
            f"The record starting on line {line} is broken{where}: {error}",
            rule=error.rule,
            line=at,
        ) from None
    # The engine deals on after the record's last hand; show only the record's hands,
    # and not an empty last one (dealt, never bid).
    hands = record["hands"] if isinstance(record, Mapping) else []
    count = len(hands)
    if count > 1 and isinstance(hands[-1], Mapping) and not hands[-1].get("bids"):
        count -= 1
    states = [scored.state for scored in game.history]
    if not game.hand.is_over:
        states.append(game.hand)
    return _replay(
        game,
        states[:count],
        source="file",
        game_id=None,
        viewer=None,
        games_in_file=len(records),
        game_index=game_index,
    )


def _replay(
    game: Game,
    states: list[HandState],
    *,
    source: str,
    game_id: str | None,
    viewer: Seat | None,
    games_in_file: int = 1,
    game_index: int = 1,
) -> Replay:
    results = {scored.number: scored for scored in game.history}
    hands = []
    for number, state in enumerate(states, start=1):
        scored = results.get(number)
        # A file shows what its holder has already; a game, what its viewer saw.
        whole = state.is_over and not (viewer is not None and hides_unplayed_cards(game, number))
        shown = [
            seat
            for seat in SEATS
            if whole or game.is_over or seat == viewer  # never a hand being played
        ]
        hands.append(
            ReplayHand(
                number=number,
                dealer=SEAT_LETTERS[state.dealer],
                over=state.is_over,
                deal={
                    SEAT_LETTERS[seat]: (
                        [CARD_NAMES[c] for c in sorted_for_display(cards_in(state.deal[seat]))]
                        if seat in shown
                        else None
                    )
                    for seat in SEATS
                },
                bids=[
                    ReplayBid(seat=SEAT_LETTERS[seat], bid=bid_value(state.bids[seat] or 0))
                    for seat in state.bid_order
                ],
                passes=[
                    ReplayPass(
                        seat=SEAT_LETTERS[giver],
                        to=SEAT_LETTERS[(giver + 2) & 3],
                        # Seen by the two partners, and by all once the hand is over.
                        cards=[CARD_NAMES[c] for c in sorted_for_display(cards_in(given))]
                        if giver in shown or (giver + 2) & 3 in shown
                        else None,
                    )
                    for giver, given in state.passes
                ],
                tricks=[TrickState.of(t.leader, t.cards, t.winner) for t in state.tricks]
                + ([TrickState.of(state.leader, state.trick, None)] if state.trick else []),
                result=None
                if scored is None
                else hand_result(scored, game.rules, claims=game.claims, undos=game.undos),
                claim=_held_claim(game, number, state),
            )
        )
    over = game_over_info(game)
    return Replay(
        source=source,  # type: ignore[arg-type]
        game_id=game_id,
        players={SEAT_LETTERS[seat]: game.players.get(seat, "unknown") for seat in SEATS},
        target=game.rules.target,
        hands=hands,
        finished=game.is_over,
        winner=None if game.outcome is None else TEAM_NAMES[game.outcome.winner],
        final={"NS": game.totals[0], "EW": game.totals[1]},
        ending=None if over is None else f"{over.winner_name} won: {over.reason}.",
        games_in_file=games_in_file,
        game_index=game_index,
    )


def _held_claim(game: Game, number: int, state: HandState) -> ReplayClaim | None:
    """The claim that ended hand ``number``, if one did: who claimed, and the
    tricks left credited to each seat (those taken in play are in the tricks)."""
    held = next((c for c in game.claims if c.hand == number and c.held), None)
    if held is None or not state.is_over:
        return None
    won_in_play = [sum(trick.winner == seat for trick in state.tricks) for seat in SEATS]
    return ReplayClaim(
        seat=SEAT_LETTERS[held.seat],
        tricks=held.tricks,
        left=13 - len(state.tricks),
        awarded={SEAT_LETTERS[seat]: state.tricks_won[seat] - won_in_play[seat] for seat in SEATS},
    )


def _line_of(where: str) -> int | None:
    """The line number in a reader's ``where`` ("line 6"), if it names one."""
    head, _, number = where.partition(" ")
    return int(number) if head == "line" and number.isdigit() else None


def _games(count: int) -> str:
    return f"{count} game" + ("" if count == 1 else "s")
