"""Request dependencies: who is asking, and the services a route works with.

Every routes module stands on this one, and it on the services: it imports no
route and nothing imports the app module (``app.py`` builds the services once
and keeps them in ``app.state``, under the names read here).

A player is known by an unguessable token in an HttpOnly, SameSite=Lax cookie;
the database keeps only its hash. Every game route looks the game up by id
*and* owner, so another player's game answers 404 like a game that does not
exist.

The dependencies are async, though they wait for nothing: FastAPI runs a plain
``def`` dependency in the thread pool, a hand-off to a thread and back for
each, which under load cost more than the work. They take an
``HTTPConnection``, so a WebSocket route can ask for them as a request does.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Final

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from spades.storage import owner_key

from .http.cookies import set_secret_cookie
from .http.rates import AtOnce, Limits, Rates
from .play.games import GameNotFound, GameService
from .play.views import ScoreSheets
from .records.reviews import HandReviewer
from .tables.live import LiveTables
from .tables.pushes import TablePushes
from .tables.service import TableService

COOKIE: Final = "spades_player"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600  # the longest browsers keep a cookie
TOKEN_BYTES: Final = 32
MAX_TOKEN_LENGTH: Final = 128


# ------------------------------------------------------------------ the owner


def player_token(request: Request) -> str | None:
    """The caller's player token, if the request carries a well-formed one."""
    token = request.cookies.get(COOKIE)
    if token is None or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        return None
    return token


def player_key(request: Request) -> str | None:
    """The caller's owner key, if the request carries a token: a caller without
    one owns no game (the routes that list answer an empty list, not 404)."""
    token = player_token(request)
    return None if token is None else owner_key(token)


async def require_owner(request: Request) -> str:
    """The caller's owner key; without a cookie the caller owns no game."""
    token = player_token(request)
    if token is None:
        raise GameNotFound("no cookie")
    return owner_key(token)


async def owner_or_new(request: Request, response: Response) -> str:
    """The caller's owner key, issuing a new token (and cookie) on first visit."""
    token = player_token(request)
    if token is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        set_secret_cookie(request, response, COOKIE, token, max_age=COOKIE_MAX_AGE, path="/")
    return owner_key(token)


Owner = Annotated[str, Depends(require_owner)]
"""The caller's owner key; 404 for a caller with no cookie."""
OwnerOrNew = Annotated[str, Depends(owner_or_new)]
"""The caller's owner key, a new one (with its cookie) on a first visit."""


# --------------------------------------------------------------- the services


async def game_service(connection: HTTPConnection) -> GameService:
    return connection.app.state.service  # type: ignore[no-any-return]


async def score_sheets(connection: HTTPConnection) -> ScoreSheets:
    return connection.app.state.score_sheets  # type: ignore[no-any-return]


async def hand_reviewer(connection: HTTPConnection) -> HandReviewer:
    return connection.app.state.reviewer  # type: ignore[no-any-return]


async def table_service(connection: HTTPConnection) -> TableService:
    return connection.app.state.tables  # type: ignore[no-any-return]


async def live_tables(connection: HTTPConnection) -> LiveTables:
    return connection.app.state.live  # type: ignore[no-any-return]


async def table_pushes(connection: HTTPConnection) -> TablePushes:
    return connection.app.state.pushes  # type: ignore[no-any-return]


async def server_limits(connection: HTTPConnection) -> Limits:
    return connection.app.state.limits  # type: ignore[no-any-return]


async def server_rates(connection: HTTPConnection) -> Rates:
    return connection.app.state.rates  # type: ignore[no-any-return]


async def replaying(connection: HTTPConnection) -> AtOnce:
    return connection.app.state.replaying  # type: ignore[no-any-return]


Games = Annotated[GameService, Depends(game_service)]
Sheets = Annotated[ScoreSheets, Depends(score_sheets)]
"""The score sheets made so far (a scored hand's line is made once and kept)."""
Reviewer = Annotated[HandReviewer, Depends(hand_reviewer)]
Tables = Annotated[TableService, Depends(table_service)]
Live = Annotated[LiveTables, Depends(live_tables)]
Pushes = Annotated[TablePushes, Depends(table_pushes)]
ServerLimits = Annotated[Limits, Depends(server_limits)]
"""What one player or address may ask of this server."""
ServerRates = Annotated[Rates, Depends(server_rates)]
"""What each player has asked lately, against ``ServerLimits``."""
Replaying = Annotated[AtOnce, Depends(replaying)]
"""The record files being re-played at once."""
