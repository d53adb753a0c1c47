"""Routes for records, replays and post-hand reviews.

Thin, as the game routes: they check who is asking and hand the work to
``records`` (what a record or a replay may show) and ``reviews`` (the
background reviewer).
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Response
from fastapi.responses import JSONResponse

from spades.core import SOUTH

from ..deps import Games, Owner, Replaying, Reviewer, ServerLimits
from ..errors import ERRORS, ErrorResponse, refusal
from ..play.games import GameInProgress
from .records import (
    BadRecordFile,
    NothingToDownload,
    downloadable_record,
    hides_unplayed_cards,
    record_attachment,
    replay_of_game,
)
from .replay_schemas import OpenRecordRequest, RecordFileError, Replay
from .replayer import replay_record_file
from .review_schemas import HandReviewResponse

router = APIRouter()
"""Tagged route by route: the record download is documented among the game's routes."""

IN_PROGRESS: Final[dict[int | str, dict[str, Any]]] = {
    **ERRORS,
    409: {"description": "Nothing of that kind exists yet: the hand or game is in progress."},
}


@router.get(
    "/api/games/{game_id}/record",
    tags=["game"],
    responses={
        200: {"description": "The game's spades-record/1 record: its finished hands."},
        404: ERRORS[404],
        409: {"model": ErrorResponse, "description": "No hand of the game is over yet."},
        503: ERRORS[503],
    },
)
def record(game_id: str, games: Games, owner: Owner) -> Response:
    """The record of a game, to keep or to check its deals with `spades
    replay`: the whole game once it is over; while it is being played, its
    finished hands only, without the seed and salt (they would deal every
    hand to come)."""
    stored = games.load_now(owner, game_id)
    try:
        record = downloadable_record(stored.game)
    except NothingToDownload:
        raise GameInProgress(game_id) from None
    return record_attachment(record, stored.id)


@router.get("/api/games/{game_id}/replay", tags=["records"], responses=ERRORS)
def game_replay(game_id: str, games: Games, owner: Owner) -> Replay:
    """Your game laid out for the replay viewer: every finished hand in full,
    the hand being played with your cards only; everything once it is over."""
    stored = games.load_now(owner, game_id)
    return replay_of_game(stored.game, game_id=stored.id, viewer=SOUTH)


@router.post(
    "/api/replays",
    tags=["records"],
    response_model=Replay,
    responses={
        422: {"model": RecordFileError},
        429: {"model": ErrorResponse, "description": "Too many record files opened."},
    },
)
def open_record(body: OpenRecordRequest, limits: ServerLimits, replaying: Replaying) -> Response:
    """Open a record file for the replay viewer. Every bid and card is checked
    by re-playing it; a broken record is refused naming the line and the place
    at fault. Re-playing costs CPU by the hand: the server caps the hands a
    record may hold, the files one address opens a minute and the files
    re-played at once."""
    # The files an address opens: rates.RequestRate. The re-play runs in a
    # process of its own, off the server's interpreter (replayer.py).
    with replaying.turn():
        try:
            replay = replay_record_file(
                body.text,
                body.game,
                max_hands=limits.record_hands,
                processes=limits.uploads_at_once or 1,
            )
            return Response(replay, media_type="application/json")  # a Replay, written there
        except BadRecordFile as error:
            return JSONResponse(
                RecordFileError(detail=error.detail, rule=error.rule, line=error.line).model_dump(),
                status_code=422,
            )


@router.get(
    "/api/games/{game_id}/hands/{number}/review",
    tags=["records"],
    response_model=HandReviewResponse,
    responses={
        **IN_PROGRESS,
        202: {"model": HandReviewResponse, "description": "Being analysed: ask again soon."},
    },
)
def hand_review(
    game_id: str,
    number: Annotated[int, Path(ge=1, le=10_000)],
    games: Games,
    owner: Owner,
    reviewer: Reviewer,
    response: Response,
) -> HandReviewResponse | JSONResponse:
    """A finished hand's plays judged by what each player could know, with the
    double-dummy view as a second opinion. Computed in the background: the
    first answers are 202 "analysing"."""
    game = games.load_now(owner, game_id).game
    if number > len(game.history):
        if number == len(game.history) + 1 and not game.is_over:
            return refusal(
                409,
                f"Hand {number} is still being played: its review comes when it is over.",
                "in-progress",
            )
        return refusal(404, f"This game has no hand {number}.", "not-found")
    if hides_unplayed_cards(game, number):
        return refusal(
            409,
            f"Hand {number} ended by a claim: its review weighs cards never played, "
            "so it comes when the game is over.",
            "claimed-hand",
        )
    review = reviewer.review(game_id, number, game.history[number - 1].state, seed=game.seed)
    if review.status == "analysing":
        response.status_code = 202
    return review
