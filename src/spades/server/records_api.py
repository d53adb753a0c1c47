"""Routes for replays and post-hand reviews (a game's record is downloaded
from ``/api/games/{game_id}/record``, beside the game routes).

Thin, as the game routes: they check who is asking and hand the work to
``records`` (what a record or a replay may show) and ``reviews`` (the
background reviewer).
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse

from spades.core import SOUTH

from .app import ERRORS, Games, Owner
from .http.rates import Limits
from .records import BadRecordFile, hides_unplayed_cards, open_record_file, replay_of_game
from .replay_schemas import OpenRecordRequest, RecordFileError, Replay
from .review_schemas import HandReviewResponse
from .reviews import HandReviewer
from .schemas import ErrorResponse

router = APIRouter(tags=["records"])

IN_PROGRESS: Final[dict[int | str, dict[str, Any]]] = {
    **ERRORS,
    409: {"description": "Nothing of that kind exists yet: the hand or game is in progress."},
}


def _refuse(status: int, detail: str, rule: str) -> JSONResponse:
    return JSONResponse({"detail": detail, "rule": rule}, status_code=status)


@router.get("/api/games/{game_id}/replay", responses=ERRORS)
def game_replay(game_id: str, games: Games, owner: Owner) -> Replay:
    """Your game laid out for the replay viewer: every finished hand in full,
    the hand being played with your cards only; everything once it is over."""
    stored = games.load_now(owner, game_id)
    return replay_of_game(stored.game, game_id=stored.id, viewer=SOUTH)


@router.post(
    "/api/replays",
    response_model=Replay,
    responses={
        422: {"model": RecordFileError},
        429: {"model": ErrorResponse, "description": "Too many record files opened."},
    },
)
def open_record(body: OpenRecordRequest, request: Request) -> Replay | JSONResponse:
    """Open a record file for the replay viewer. Every bid and card is checked
    by re-playing it; a broken record is refused naming the line and the place
    at fault. Re-playing costs CPU by the hand: the server caps the hands a
    record may hold, the files one address opens a minute and the files
    re-played at once."""
    limits: Limits = request.app.state.limits  # the files an address opens: rates.RequestRate
    with request.app.state.replaying.turn():
        try:
            return open_record_file(body.text, body.game, max_hands=limits.record_hands)
        except BadRecordFile as error:
            return JSONResponse(
                RecordFileError(detail=error.detail, rule=error.rule, line=error.line).model_dump(),
                status_code=422,
            )


@router.get(
    "/api/games/{game_id}/hands/{number}/review",
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
    request: Request,
    response: Response,
) -> HandReviewResponse | JSONResponse:
    """A finished hand's plays judged by what each player could know, with the
    double-dummy view as a second opinion. Computed in the background: the
    first answers are 202 "analysing"."""
    game = games.load_now(owner, game_id).game
    if number > len(game.history):
        if number == len(game.history) + 1 and not game.is_over:
            return _refuse(
                409,
                f"Hand {number} is still being played: its review comes when it is over.",
                "in-progress",
            )
        return _refuse(404, f"This game has no hand {number}.", "not-found")
    if hides_unplayed_cards(game, number):
        return _refuse(
            409,
            f"Hand {number} ended by a claim: its review weighs cards never played, "
            "so it comes when the game is over.",
            "claimed-hand",
        )
    reviewer: HandReviewer = request.app.state.reviewer
    review = reviewer.review(game_id, number, game.history[number - 1].state, seed=game.seed)
    if review.status == "analysing":
        response.status_code = 202
    return review
