"""The daily challenge's routes: who is asking, then ``ChallengeService``.

A player is the owner cookie of the rest of the game (no account: a new
browser is a new player). The routes are plain ``def``: FastAPI runs them in
its thread pool, where the bots' moves and the database may take their time.
"""

from __future__ import annotations

import threading
from datetime import date
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, Response
from fastapi.responses import JSONResponse

from spades.challenge import ChallengeRefused, ChallengeService, Refusal, parse_day
from spades.challenge.service import StalePlay
from spades.core import SOUTH, record_to_json

from ..deps import owner_or_new, player_key
from ..errors import STORE_FAILED
from ..play.games import parse_bid_value, parse_card_value
from ..records.records import open_record_file
from ..records.replay_schemas import Replay
from ..records.review_schemas import HandReviewResponse
from ..records.reviews import HandReviewer
from .schemas import (
    ChallengeBidRequest,
    ChallengeDay,
    ChallengeHistory,
    ChallengePlayRequest,
    ChallengeResults,
    ChallengeTable,
    DayLeaderboard,
    NameAnswer,
    NameRequest,
    WeekLeaderboard,
)
from .views import (
    day_board_view,
    day_view,
    history_view,
    results_view,
    table_view,
    week_board_view,
)

router = APIRouter(prefix="/api/challenge", tags=["challenge"])

NO_OWNER: Final = ""
"""The owner of a caller without a cookie: no row has it, so they have played nothing."""
STATUS: Final = {Refusal.NOT_FOUND: 404, Refusal.NOT_NOW: 409, Refusal.NAME: 422}
ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    404: {"description": "No such day or deal, or you have not played it."},
    409: {"description": "Not now: a deal before is unfinished, the day is closed, or you "
          "have not finished the deal whose results you ask for."},
    422: {"description": "A malformed request, an illegal move, or no name yet."},
    **STORE_FAILED,
}  # fmt: skip
_making = threading.Lock()


def challenge_service(request: Request) -> ChallengeService:
    """The app's challenge: its bots play the server's default level and think
    where the game's bots do. Made on first use (a test sets its own first)."""
    state = request.app.state
    with _making:
        if not hasattr(state, "challenge"):
            games = state.service
            state.challenge = ChallengeService(
                state.repository.challenge, level=games.default_level, decide=games.decider
            )
    service: ChallengeService = state.challenge
    return service


def known_owner(request: Request) -> str:
    """The caller's owner key, or ``NO_OWNER`` without a cookie."""
    key = player_key(request)
    return NO_OWNER if key is None else key


Challenge = Annotated[ChallengeService, Depends(challenge_service)]
Owner = Annotated[str, Depends(known_owner)]
DayPath = Annotated[str, Path(max_length=10, description='"today", or a UTC date YYYY-MM-DD.')]
DealPath = Annotated[int, Path(ge=1, le=100)]


def the_day(challenge: ChallengeService, text: str) -> date:
    if text == "today":
        return challenge.today()
    try:
        return parse_day(text)
    except ValueError as error:
        raise ChallengeRefused(Refusal.NOT_FOUND, f"{error}.", "no-day") from None


@router.get("/days/{day}", responses=ERRORS)
def day_status(day: DayPath, challenge: Challenge, owner: Owner) -> ChallengeDay:
    """The day: its commitment (its seed once closed), tomorrow's commitment, your name and deals."""
    return day_view(challenge.status(owner, the_day(challenge, day)))


@router.put("/name", responses=ERRORS)
def set_name(
    body: NameRequest,
    challenge: Challenge,
    owner: Annotated[str, Depends(owner_or_new)],
) -> NameAnswer:
    """Choose the name the leaderboards show for you (kept with your browser's cookie)."""
    return NameAnswer(name=challenge.set_name(owner, body.name))


@router.post("/days/{day}/deals/{number}", status_code=201, responses=ERRORS)
def start_deal(
    day: DayPath,
    number: DealPath,
    challenge: Challenge,
    owner: Annotated[str, Depends(owner_or_new)],
) -> ChallengeTable:
    """Start the next deal of today: the deal, and the bots' bids before yours."""
    play, events = challenge.start(owner, the_day(challenge, day), number)
    return table_view(play, events)


@router.get("/days/{day}/deals/{number}", responses=ERRORS)
def get_deal(day: DayPath, number: DealPath, challenge: Challenge, owner: Owner) -> ChallengeTable:
    """Your deal as it stands."""
    return table_view(challenge.deal(owner, the_day(challenge, day), number))


@router.post("/days/{day}/deals/{number}/bid", responses=ERRORS)
def bid(
    day: DayPath, number: DealPath, body: ChallengeBidRequest, challenge: Challenge, owner: Owner
) -> ChallengeTable:
    """Bid, then the bots play until it is your turn again or the hand is over."""
    value = parse_bid_value(body.bid)
    play, events = challenge.act(
        owner, the_day(challenge, day), number, lambda game: game.bid(SOUTH, value)
    )
    return table_view(play, events)


@router.post("/days/{day}/deals/{number}/play", responses=ERRORS)
def play(
    day: DayPath, number: DealPath, body: ChallengePlayRequest, challenge: Challenge, owner: Owner
) -> ChallengeTable:
    """Play a card, then the bots play until it is your turn again or the hand is over."""
    card = parse_card_value(body.card)
    played, events = challenge.act(
        owner, the_day(challenge, day), number, lambda game: game.play(SOUTH, card)
    )
    return table_view(played, events)


@router.get("/days/{day}/deals/{number}/results", responses=ERRORS)
def results(day: DayPath, number: DealPath, challenge: Challenge, owner: Owner) -> ChallengeResults:
    """How everyone did on the deal (the spread, the most common bid, the par):
    only once you have played it, or the day is over."""
    return results_view(challenge.results(owner, the_day(challenge, day), number), owner)


@router.get("/days/{day}/deals/{number}/replay", responses=ERRORS)
def replay(
    day: DayPath,
    number: DealPath,
    challenge: Challenge,
    owner: Owner,
    of: Annotated[Literal["par", "yours"], Query(description="Whose play.")] = "par",
) -> Replay:
    """The par play of the deal (``of=par``) or your own (``of=yours``), for
    the replay viewer; once you have played it."""
    on = the_day(challenge, day)
    if of == "yours":
        mine = challenge.deal(owner, on, number)
        if not mine.over:
            raise ChallengeRefused(Refusal.NOT_NOW, "Finish the deal first.", "finish-first")
        record = mine.kept.record
    else:
        par = challenge.par_record(owner, on, number)
        if par is None:
            raise ChallengeRefused(
                Refusal.NOT_NOW,
                "The bots are still playing the par: ask again soon.",
                "par-pending",
            )
        record = par
    return open_record_file(record_to_json(record))


@router.get(
    "/days/{day}/deals/{number}/review",
    response_model=HandReviewResponse,
    responses={**ERRORS, 202: {"model": HandReviewResponse, "description": "Being analysed."}},
)
def review(
    day: DayPath,
    number: DealPath,
    challenge: Challenge,
    owner: Owner,
    request: Request,
    response: Response,
) -> HandReviewResponse:
    """Your play of the deal judged by what each player could know (as a
    game's hand review); the first answers are 202 "analysing"."""
    mine = challenge.deal(owner, the_day(challenge, day), number)
    if not mine.game.history:
        raise ChallengeRefused(Refusal.NOT_NOW, "Finish the deal first.", "finish-first")
    reviewer: HandReviewer = request.app.state.reviewer
    answer = reviewer.review(mine.kept.id, 1, mine.game.history[0].state, seed=mine.game.seed)
    if answer.status == "analysing":
        response.status_code = 202
    return answer


@router.get("/days/{day}/leaderboard", responses=ERRORS)
def day_leaderboard(day: DayPath, challenge: Challenge, owner: Owner) -> DayLeaderboard:
    """The day's players by matchpoints: for everyone once the day is closed,
    else for a player who has played all its deals."""
    return day_board_view(challenge.leaderboard(owner, the_day(challenge, day)), owner)


@router.get("/weeks/{day}/leaderboard", responses=ERRORS)
def week_leaderboard(day: DayPath, challenge: Challenge, owner: Owner) -> WeekLeaderboard:
    """The running board of the week (Monday to Sunday, UTC) holding ``day``."""
    return week_board_view(challenge.week(owner, the_day(challenge, day)), owner)


@router.get("/history", responses=ERRORS)
def history(challenge: Challenge, owner: Owner) -> ChallengeHistory:
    """The days you played, newest first: your percentage, your score against the par, your rank."""
    return history_view(challenge.history(owner) if owner != NO_OWNER else [])


@router.get(
    "/days/{day}/record",
    responses={**ERRORS, 200: {"description": "One spades-record/1 record a line, deal by deal."}},
)
def day_record(
    day: DayPath,
    challenge: Challenge,
    owner: Owner,
    of: Annotated[Literal["par", "yours"], Query(description="Whose plays.")] = "par",
) -> Response:
    """A closed day's deals as records, one a line (the par play of each, or
    with ``of=yours`` your own plays), to check with ``spades replay FILE
    --seed S --salt X --commitment H``."""
    on = the_day(challenge, day)
    records = challenge.day_records(owner, on, yours=of == "yours")
    return Response(
        "".join(record_to_json(record) + "\n" for record in records),
        media_type="application/x-ndjson",
        headers={
            "Content-Disposition": f'attachment; filename="challenge-{on.isoformat()}-{of}.jsonl"'
        },
    )


# ----------------------------------------------------------------- errors


def _on_refused(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ChallengeRefused)
    return JSONResponse(
        {"detail": error.message, "rule": error.rule}, status_code=STATUS[error.refusal]
    )


def _on_stale(_request: Request, _error: Exception) -> JSONResponse:
    return JSONResponse(
        {"detail": "This deal was played on in another tab: reload it.", "rule": "stale"},
        status_code=409,
    )


def include_challenge(app: FastAPI) -> None:
    """Add the challenge's routes, and its refusals' answers, to ``app``."""
    app.include_router(router)
    app.add_exception_handler(ChallengeRefused, _on_refused)
    app.add_exception_handler(StalePlay, _on_stale)


__all__ = ["include_challenge", "router"]
