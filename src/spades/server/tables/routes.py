"""The routes of games with friends: tables, invites, moves and the live socket.

Thin: they check who is asking, hand the move to ``TableService`` and the
pushes that follow it to ``TablePushes``. A table's secret lives in an
HttpOnly cookie scoped to the table's own API path (``/api/tables/{id}``): one
per table, so a browser can sit at several, and no other route ever receives
it. Every message a seat is sent, over HTTP or the WebSocket, is built from
that seat's view alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Final

from fastapi import APIRouter, Path, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse
from starlette.websockets import WebSocketState

from spades.core import parse_rules
from spades.core.seats import SEAT_LETTERS, Seat, SeatLetter
from spades.storage import StoredGame

from ..deps import Live, OwnerOrNew, Pushes, ServerLimits, Tables
from ..errors import STORE_FAILED, ErrorResponse
from ..http.cookies import set_secret_cookie
from ..page import the_page
from ..play.games import GameInProgress, GameNotFound
from ..play.moments import Moment
from ..play.schemas import BidRequest, PassRequest, PlayRequest
from ..records.records import NothingToDownload, downloadable_record, record_attachment
from .live import LiveTables
from .pushes import TablePushes
from .schemas import (
    JoinRequest,
    NewTableRequest,
    ReactionMessage,
    ReactionRequest,
    TableInfo,
    TableUpdate,
)
from .service import Caller, Seating, TableError, TableService
from .views import table_info

COOKIE: Final = "spades_table"
COOKIE_MAX_AGE: Final = 30 * 24 * 3600
TOKEN_BYTES: Final = 32
MAX_TOKEN_LENGTH: Final = 128
SOCKETS_PER_SEAT_CLOSE: Final = 4008
"""The close code of a seat's oldest socket when it opened too many (1008, policy, as 4xxx)."""

ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    403: {"model": ErrorResponse, "description": "Only the host may do this."},
    404: {"model": ErrorResponse, "description": "No such table, or not one you sit at."},
    409: {"model": ErrorResponse, "description": "Not your turn, a seat taken, not started."},
    422: {"model": ErrorResponse, "description": "A malformed request or an illegal move."},
    **STORE_FAILED,
}

router = APIRouter(tags=["tables"])


# ------------------------------------------------------------------ who asks


def _token(cookies: dict[str, str]) -> str | None:
    token = cookies.get(COOKIE)
    if token is None or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        return None
    return token


def _set_cookie(request: Request, response: Response, game_id: str, token: str) -> None:
    set_secret_cookie(
        request, response, COOKIE, token, max_age=COOKIE_MAX_AGE, path=f"/api/tables/{game_id}"
    )


async def _caller(
    request: Request, game_id: str, tables: TableService, pushes: TablePushes
) -> tuple[StoredGame, Caller]:
    """The table and who asks: the host or a seat's person (404 for anyone else),
    seen now; a person coming back is shown to the others as here again."""
    live = pushes.live
    stored = await tables.load(game_id)
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(_token(request.cookies))
    if not caller.host and caller.seat is None:
        raise GameNotFound(game_id)
    if caller.seat is not None:
        was_here = live.present(game_id, caller.seat)
        live.seen(game_id, caller.seat)
        if not was_here and Seating(stored.seating).started:
            asyncio.get_running_loop().create_task(pushes.publish(stored, []))
    return stored, caller


# -------------------------------------------------------------------- routes


@router.get("/tables/{game_id}", include_in_schema=False)
def table_page(game_id: str) -> FileResponse:
    return the_page()  # the page is the game's own


@router.post("/api/tables", status_code=201, responses=ERRORS)
async def new_table(
    body: NewTableRequest,
    request: Request,
    response: Response,
    tables: Tables,
    live: Live,
    owner: OwnerOrNew,
) -> TableInfo:
    """Set a table: who sits where (a person, or a bot level), the house rules,
    how long an away person's seat waits, and an optional turn timer. You get
    an invite link for each person's seat."""
    # The tables an address makes: rates.RequestRate.
    token = secrets.token_urlsafe(TOKEN_BYTES)
    stored = await tables.create(
        token,
        seats={str(letter): who for letter, who in body.seats.items()},
        rules=parse_rules(body.rules),
        host_seat=body.host_seat,
        name=body.name,
        stand_in=body.stand_in,
        away_seconds=body.away_seconds,
        turn_seconds=body.turn_seconds,
        owner=owner,
    )
    _set_cookie(request, response, stored.id, token)
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(token)
    if caller.seat is not None:
        live.seen(stored.id, caller.seat)
    return table_info(stored, caller, live, tables)


@router.get("/api/tables/{game_id}", responses=ERRORS)
async def get_table(
    game_id: str,
    request: Request,
    tables: Tables,
    live: Live,
    seat: Annotated[str | None, Query(max_length=1)] = None,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> TableInfo:
    """The table: its seats and who has joined. Yours, or the one an invite opens."""
    stored = await tables.load(game_id)
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(_token(request.cookies))
    if not caller.host and caller.seat is None:
        letter = (seat or "").upper()
        if letter not in SEAT_LETTERS or not tables.invite_opens(
            stored, SEAT_LETTERS.index(letter), invite or ""
        ):
            raise GameNotFound(game_id)
    return table_info(stored, caller, live, tables)


@router.post("/api/tables/{game_id}/join", responses=ERRORS)
async def join_table(
    game_id: str,
    body: JoinRequest,
    request: Request,
    response: Response,
    tables: Tables,
    pushes: Pushes,
    owner: OwnerOrNew,
) -> TableInfo:
    """Take the seat your invite opens, under a display name (all that is kept of
    you); your statistics count the game from that seat once it is over."""
    token = _token(request.cookies) or secrets.token_urlsafe(TOKEN_BYTES)
    stored = await tables.join(
        game_id,
        seat_letter=body.seat,
        invite=body.invite,
        name=body.name,
        token=token,
        owner=owner,
    )
    _set_cookie(request, response, game_id, token)
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(token)
    if caller.seat is not None:
        pushes.live.seen(game_id, caller.seat)
    await pushes.publish(stored, [])
    return table_info(stored, caller, pushes.live, tables)


@router.post("/api/tables/{game_id}/seats/{seat}/free", responses=ERRORS)
async def free_seat(
    game_id: str,
    seat: Annotated[SeatLetter, Path(description="N, E, S or W")],
    request: Request,
    tables: Tables,
    pushes: Pushes,
) -> TableInfo:
    """Free the seat of a person who left for good (the host only): a bot plays it
    until someone takes it with its new invite link."""
    stored, caller = await _caller(request, game_id, tables, pushes)
    stored = await tables.free_seat(game_id, caller, seat)
    await pushes.publish(stored, [])
    return table_info(stored, caller, pushes.live, tables)


@router.post("/api/tables/{game_id}/start", responses=ERRORS)
async def start_table(
    game_id: str, request: Request, tables: Tables, pushes: Pushes
) -> TableUpdate:
    """Deal (the host only). Bots keep the seats nobody took until someone does."""
    stored, caller = await _caller(request, game_id, tables, pushes)
    since = len(stored.game.log) - 1  # the first deal is the first event to show
    made = await tables.start(game_id, caller)
    stored = await tables.load(game_id)
    await pushes.publish(stored, made)
    return pushes.update(stored, caller, max(since, 0))


@router.get("/api/tables/{game_id}/game", responses=ERRORS)
async def table_game(
    game_id: str,
    request: Request,
    tables: Tables,
    pushes: Pushes,
    since: Annotated[
        int | None,
        Query(ge=0, description="The log count you have seen; leave out for no events."),
    ] = None,
) -> TableUpdate:
    """Your view of the game and the events since ``since``: the fallback when
    the WebSocket cannot be opened (poll every two seconds)."""
    stored, caller = await _caller(request, game_id, tables, pushes)
    return pushes.update(stored, caller, since)


Move = Callable[[TableService, Caller], Awaitable[list[Moment]]]
"""A seat's move at a table: what it made happen."""


async def _move(
    request: Request, game_id: str, tables: TableService, pushes: TablePushes, make: Move
) -> TableUpdate:
    stored, caller = await _caller(request, game_id, tables, pushes)
    since = len(stored.game.log)
    made = await make(tables, caller)
    stored = await tables.load(game_id)
    await pushes.publish(stored, made)
    return pushes.update(stored, caller, since)


@router.post("/api/tables/{game_id}/bid", responses=ERRORS)
async def table_bid(
    game_id: str, body: BidRequest, request: Request, tables: Tables, pushes: Pushes
) -> TableUpdate:
    """Bid; the bots answer, and every seat is sent the bid as it happens."""
    return await _move(request, game_id, tables, pushes, lambda t, c: t.bid(game_id, c, body.bid))


@router.post("/api/tables/{game_id}/pass", responses=ERRORS)
async def table_pass(
    game_id: str, body: PassRequest, request: Request, tables: Tables, pushes: Pushes
) -> TableUpdate:
    """Pass cards to your partner (the rules' Nil pass)."""
    return await _move(
        request, game_id, tables, pushes, lambda t, c: t.pass_cards(game_id, c, body.cards)
    )


@router.post("/api/tables/{game_id}/play", responses=ERRORS)
async def table_play(
    game_id: str, body: PlayRequest, request: Request, tables: Tables, pushes: Pushes
) -> TableUpdate:
    """Play a card; the bots answer, and every seat sees it as it happens."""
    return await _move(request, game_id, tables, pushes, lambda t, c: t.play(game_id, c, body.card))


@router.get(
    "/api/tables/{game_id}/record",
    responses={**ERRORS, 200: {"description": "The game's spades-record/1 record."}},
)
async def table_record(game_id: str, request: Request, tables: Tables, pushes: Pushes) -> Response:
    """The record of the table's game (its finished hands while it is played, as
    for a game against bots), with ``played_by``: who made each seat's moves,
    hand by hand."""
    stored, _ = await _caller(request, game_id, tables, pushes)
    try:
        record = downloadable_record(stored.game)
    except NothingToDownload:
        raise GameInProgress(game_id) from None
    assert stored.seating is not None
    record["played_by"] = stored.seating.get("played_by", [])[: len(record["hands"])]
    return record_attachment(record, stored.id)


@router.post("/api/tables/{game_id}/react", status_code=204, responses=ERRORS)
async def react(
    game_id: str, body: ReactionRequest, request: Request, tables: Tables, pushes: Pushes
) -> Response:
    """A quick reaction the others see for a moment (there is no chat)."""
    live = pushes.live
    stored, caller = await _caller(request, game_id, tables, pushes)
    if caller.seat is None:
        raise GameNotFound(game_id)
    if not live.may_react(game_id, caller.seat):
        raise TableError(429, "One reaction at a time: wait a moment.", "too-fast")
    assert stored.seating is not None
    message = ReactionMessage(
        seat=SEAT_LETTERS[caller.seat],
        name=Seating(stored.seating).name(caller.seat) or "",
        reaction=body.reaction,
    ).model_dump_json()
    await pushes.send_here(game_id, message)
    await pushes.announce(game_id, len(stored.game.log), [], reaction=message)
    return Response(status_code=204)


@router.websocket("/api/tables/{game_id}/ws")
async def table_socket(
    socket: WebSocket,
    game_id: str,
    tables: Tables,
    pushes: Pushes,
    limits: ServerLimits,
    since: Annotated[int | None, Query(ge=0)] = None,
) -> None:
    """Live play: each bid and card of the table as it happens, for your seat.

    Sends your update at once, then one after every change (a move, someone
    joining, leaving or coming back) and each reaction. Nothing is read from
    it: moves go to the POST routes, where a refusal can answer with a reason."""
    live = pushes.live
    try:
        stored = await tables.load(game_id)
    except GameNotFound:
        await socket.close(code=4404, reason="No such table")
        return
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(_token(socket.cookies))
    if caller.seat is None:
        await socket.close(code=4403, reason="Not a seat of yours")
        return
    await socket.accept()
    # Before the deal a seat has seen nothing: the first update after it starts with the deal.
    seen = len(stored.game.log) if Seating(stored.seating).started else 0
    was_connected = live.connected(game_id, caller.seat)
    subscriber = live.subscribe(
        game_id, socket, caller.seat, seen, host=caller.host, token=caller.token
    )
    await _close_oldest_past(limits.sockets_per_seat, live, game_id, caller.seat)
    await socket.send_text(pushes.update(stored, caller, since).model_dump_json())
    if not was_connected:  # another tab of a seat already here changes nothing the others see
        await pushes.publish(stored, [], skip=subscriber)  # the others see them here
    try:
        # Until the socket closes: the client leaving (WebSocketDisconnect), or this
        # server closing it from another task (a freed seat, a tab too many), after
        # which reading it again would raise instead (a CI run saw that race).
        while socket.application_state is WebSocketState.CONNECTED:
            await socket.receive_text()  # only to notice the socket closing
    except WebSocketDisconnect:
        pass
    finally:
        live.unsubscribe(game_id, subscriber)
        if not live.connected(game_id, caller.seat):
            with contextlib.suppress(GameNotFound):
                await pushes.publish(await tables.load(game_id), [])  # and see them go


async def _close_oldest_past(most: int | None, live: LiveTables, game_id: str, seat: Seat) -> None:
    """Close a seat's oldest sockets past ``most`` (None: no cap): a person
    opening one more tab keeps playing, and one client cannot hold hundreds."""
    if most is None:
        return
    mine = [sub for sub in live.table(game_id).subscribers if sub.seat == seat]
    for oldest in mine[: max(0, len(mine) - most)]:
        live.unsubscribe(game_id, oldest)
        with contextlib.suppress(Exception):  # closing already: nothing to tell it
            await oldest.socket.close(code=SOCKETS_PER_SEAT_CLOSE, reason="too many sockets")
