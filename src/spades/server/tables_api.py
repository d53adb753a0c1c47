"""The routes of games with friends: tables, invites, moves and the live socket.

A table's secret lives in an HttpOnly cookie scoped to the table's own API
path (``/api/tables/{id}``): one per table, so a browser can sit at several,
and no other route ever receives it. Every message a seat is sent, over HTTP
or the WebSocket, is built from that seat's view alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Annotated, Any, Final

from fastapi import APIRouter, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse

from spades.core import parse_rules, rules_name
from spades.core.seats import SEAT_LETTERS, SEATS, Seat
from spades.storage import StaleGameError, StoredGame
from spades.storage.table_changes import ALIVE, TableChange

from .games import GameInProgress, GameNotFound, run_off_loop_if
from .http.cookies import set_secret_cookie
from .live import LiveTables, Subscriber
from .moments import Moment
from .records import RECORD_INDENT, NothingToDownload, downloadable_record
from .schemas import (
    BidRequest,
    ErrorResponse,
    JoinRequest,
    NewTableRequest,
    PassRequest,
    PlayRequest,
    ReactionMessage,
    ReactionRequest,
    TableInfo,
    TableSeat,
    TableUpdate,
)
from .table_feed import TableFeed
from .tables import Caller, Seating, TableError, TableService
from .views import ScoreSheets, game_state, public_events, record_file

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
}

log = logging.getLogger(__name__)
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


def _services(app: Any) -> tuple[TableService, LiveTables, ScoreSheets]:
    return app.state.tables, app.state.live, app.state.score_sheets


# ----------------------------------------------------------------- messages


def table_info(
    stored: StoredGame, caller: Caller, live: LiveTables, tables: TableService
) -> TableInfo:
    """The table as ``caller`` may see it: names, levels, presence; invites for the host."""
    assert stored.seating is not None
    seating = Seating(stored.seating)
    game = stored.game
    seats = []
    for seat in SEATS:
        person = seating.is_person(seat)
        taken = person and seating.seat(seat).get("key") is not None
        away = (
            live.away_left(stored.id, seat, seating.away_seconds)
            if taken and seating.started
            else None
        )
        seats.append(
            TableSeat(
                seat=SEAT_LETTERS[seat],
                kind="person" if person else "bot",
                name=seating.name(seat),
                level=seating.bot_level(seat) or (None if taken else seating.stand_in),
                connected=taken and live.connected(stored.id, seat),
                away_seconds_left=away,
                stood_in=person and seating.started and (not taken or away == 0),
            )
        )
    turn_left = None
    to_act = game.to_act
    if (
        seating.started
        and seating.turn_seconds
        and to_act is not None
        and seating.is_person(to_act)
    ):
        began = live.turn_started(stored.id, len(game.log), to_act)
        turn_left = max(0.0, began + seating.turn_seconds - live.clock())
    return TableInfo(
        id=stored.id,
        started=seating.started,
        host=caller.host,
        you=None if caller.seat is None else SEAT_LETTERS[caller.seat],
        seats=seats,
        invites=tables.invites(stored, caller.token) if caller.host and caller.token else {},  # type: ignore[arg-type]
        rules=rules_name(game.rules),
        rules_summary=game.rules.describe(),
        stand_in=seating.stand_in,
        away_seconds=seating.away_seconds,
        turn_seconds=seating.turn_seconds,
        turn_seconds_left=turn_left,
        played_by=stored.seating.get("played_by", []),
    )


def table_update(
    app: Any, stored: StoredGame, caller: Caller, since: int | None, info: TableInfo | None = None
) -> TableUpdate:
    """What ``caller`` is sent: their seat's view, and the events after ``since``
    (none when ``since`` is None: the game as it stands)."""
    tables, live, sheets = _services(app)
    assert stored.seating is not None
    seating = Seating(stored.seating)
    game = stored.game
    length = len(game.log)
    view = None
    events: list[dict[str, Any]] | None = []
    if seating.started and caller.seat is not None:
        view = game_state(
            game,
            game_id=stored.id,
            version=stored.version,
            partner_level="table",
            opponent_level="table",
            undo_enabled=False,
            sheets=sheets,
            viewer=caller.seat,
            players=seating.player_names(),
        )
        events = [] if since is None else live.events_since(stored.id, since, length)
    return TableUpdate.model_validate(
        {
            "table": info or table_info(stored, caller, live, tables),
            "game": view,
            "events": events or [],
            "log": length,
            "resync": events is None,
        }
    )


async def publish(
    app: Any, stored: StoredGame, made: list[Moment], *, skip: Subscriber | None = None
) -> None:
    """Keep ``made``, send every open socket of the table (but ``skip``) its
    seat's update, and log the change for the other server processes."""
    _tables, live, _sheets = _services(app)
    length = len(stored.game.log)
    events = [event.model_dump(mode="json") for event in public_events(made)]
    live.record(stored.id, length, events)
    schedule(app, stored)
    await push_here(app, stored, skip=skip)
    await announce(app, stored.id, length, events)


async def announce(
    app: Any, game_id: str, length: int, events: list[dict[str, Any]], reaction: str | None = None
) -> None:
    """Log a change of this process's for the others (``table_feed.py``): its
    events, the seats whose sockets are here, a reaction to pass on."""
    tables, live, _sheets = _services(app)
    connected: list[str] = [SEAT_LETTERS[seat] for seat in live.connected_here(game_id)]

    def log_change() -> None:
        tables.repository.table_changes.add(
            game_id,
            origin=live.origin,
            log_length=length,
            events=events,
            connected=connected,
            reaction=None if reaction is None else json.loads(reaction),
        )

    try:
        await run_off_loop_if(tables.games.storage_waits, log_change)
    except Exception:  # the move itself is saved: the others will see it when they next ask
        log.warning("could not log a change of table %s for the other processes", game_id)


async def hear(app: Any, changes: list[TableChange]) -> None:
    """Changes made by other processes: keep their events and who is connected
    there, pass reactions on, and send the sockets here each table's update."""
    tables, live, _sheets = _services(app)
    moved: set[str] = set()
    for change in changes:
        live.alive_elsewhere(change.origin)
        if change.game_id == ALIVE:
            continue
        seats = {SEAT_LETTERS.index(letter) for letter in change.connected}
        live.connected_elsewhere(change.game_id, change.origin, seats)
        if live.table(change.game_id).subscribers:
            live.record(change.game_id, change.log_length, change.events)
        else:
            live.pass_over(change.game_id, change.log_length)
        if change.reaction is not None:
            await _send_here(live, change.game_id, json.dumps(change.reaction))
        else:
            moved.add(change.game_id)
    for game_id in moved:
        if not live.table(game_id).subscribers:
            continue  # no socket of it here: nothing to send
        try:
            stored = await tables.load(game_id)
        except GameNotFound:
            continue
        if len(stored.game.log) > live.table(game_id).known_length:
            continue  # saved since, and its change is still to be heard: it will push then
        await push_here(app, stored)


def table_feed(app: Any) -> TableFeed:
    """This process's listener for the changes the other processes make to tables."""
    tables, live, _sheets = _services(app)
    repository = tables.repository
    return TableFeed(
        repository.table_changes, repository.url, live.origin, lambda changes: hear(app, changes)
    )


async def push_here(app: Any, stored: StoredGame, *, skip: Subscriber | None = None) -> None:
    """Send each socket of the table this process holds (but ``skip``) its seat's update."""
    _tables, live, _sheets = _services(app)
    assert stored.seating is not None
    # Before the deal a seat is sent no events: it has seen none, and its first
    # update after the deal starts with the deal.
    length = len(stored.game.log) if Seating(stored.seating).started else 0
    subscribers = list(live.table(stored.id).subscribers)
    for subscriber in subscribers:
        if subscriber is skip:
            continue
        caller = Caller(subscriber.host, subscriber.seat, subscriber.token)
        update = table_update(app, stored, caller, subscriber.seen)
        subscriber.seen = length
        try:
            await subscriber.socket.send_text(update.model_dump_json())
        except Exception:  # a socket closing as we write: its own handler tidies up
            log.debug("a table socket closed while being written to", exc_info=True)


def schedule(app: Any, stored: StoredGame) -> None:
    """Set the table's next wake-up: when the person to act has been away for
    the table's wait, or their turn timer runs out."""
    _tables, live, _sheets = _services(app)
    assert stored.seating is not None
    seating = Seating(stored.seating)
    game = stored.game
    seat = game.to_act
    if not seating.started or seat is None or seating.seat(seat).get("key") is None:
        live.wake_at(stored.id, None, _noop)
        return
    length = len(game.log)
    away = live.away_left(stored.id, seat, seating.away_seconds)
    if away is not None:
        live.wake_at(stored.id, away + 0.05, lambda: _wake(app, stored.id, length, None))
    elif seating.turn_seconds:
        began = live.turn_started(stored.id, length, seat)
        delay = began + seating.turn_seconds - live.clock()
        live.wake_at(stored.id, delay, lambda: _wake(app, stored.id, length, seat))
    else:
        live.wake_at(stored.id, None, _noop)


async def _noop() -> None:
    return None


async def _wake(app: Any, game_id: str, length: int, timed_out: Seat | None) -> None:
    """A deadline passed: the stand-in plays what is now its to play."""
    tables, _live, _sheets = _services(app)
    try:
        stored = await tables.load(game_id)
        if len(stored.game.log) != length:
            return  # someone moved meanwhile; that move set the next wake-up
        made = await tables.step_in(game_id, timed_out=timed_out)
        await publish(app, await tables.load(game_id), made)
    except (GameNotFound, StaleGameError):
        pass  # gone, or moved by another request at that very moment
    except Exception:
        log.exception("the stand-in could not play at table %s", game_id)


async def _caller(request: Request, game_id: str) -> tuple[StoredGame, Caller]:
    tables, live, _ = _services(request.app)
    stored = await tables.load(game_id)
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(_token(request.cookies))
    if not caller.host and caller.seat is None:
        raise GameNotFound(game_id)
    if caller.seat is not None:
        was_here = live.present(game_id, caller.seat)
        live.seen(game_id, caller.seat)
        if not was_here and Seating(stored.seating).started:
            asyncio.get_running_loop().create_task(publish(request.app, stored, []))
    return stored, caller


# -------------------------------------------------------------------- routes


@router.get("/tables/{game_id}", include_in_schema=False)
def table_page(game_id: str) -> FileResponse:
    from .app import PAGE_HEADERS, STATIC_DIR  # the page is the game's own

    return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)


@router.post("/api/tables", status_code=201, responses=ERRORS)
async def new_table(body: NewTableRequest, request: Request, response: Response) -> TableInfo:
    """Set a table: who sits where (a person, or a bot level), the house rules,
    how long an away person's seat waits, and an optional turn timer. You get
    an invite link for each person's seat."""
    tables, live, _ = _services(request.app)  # the tables an address makes: rates.RequestRate
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
    seat: Annotated[str | None, Query(max_length=1)] = None,
    invite: Annotated[str | None, Query(max_length=64)] = None,
) -> TableInfo:
    """The table: its seats and who has joined. Yours, or the one an invite opens."""
    tables, live, _ = _services(request.app)
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
    game_id: str, body: JoinRequest, request: Request, response: Response
) -> TableInfo:
    """Take the seat your invite opens, under a display name (all that is kept of you)."""
    tables, live, _ = _services(request.app)
    token = _token(request.cookies) or secrets.token_urlsafe(TOKEN_BYTES)
    stored = await tables.join(
        game_id, seat_letter=body.seat, invite=body.invite, name=body.name, token=token
    )
    _set_cookie(request, response, game_id, token)
    assert stored.seating is not None
    caller = Seating(stored.seating).caller(token)
    if caller.seat is not None:
        live.seen(game_id, caller.seat)
    await publish(request.app, stored, [])
    return table_info(stored, caller, live, tables)


@router.post("/api/tables/{game_id}/start", responses=ERRORS)
async def start_table(game_id: str, request: Request) -> TableUpdate:
    """Deal (the host only). Bots keep the seats nobody took until someone does."""
    tables, _live, _ = _services(request.app)
    stored, caller = await _caller(request, game_id)
    since = len(stored.game.log) - 1  # the first deal is the first event to show
    made = await tables.start(game_id, caller)
    stored = await tables.load(game_id)
    await publish(request.app, stored, made)
    return table_update(request.app, stored, caller, max(since, 0))


@router.get("/api/tables/{game_id}/game", responses=ERRORS)
async def table_game(
    game_id: str,
    request: Request,
    since: Annotated[
        int | None,
        Query(ge=0, description="The log count you have seen; leave out for no events."),
    ] = None,
) -> TableUpdate:
    """Your view of the game and the events since ``since``: the fallback when
    the WebSocket cannot be opened (poll every two seconds)."""
    stored, caller = await _caller(request, game_id)
    return table_update(request.app, stored, caller, since)


async def _move(request: Request, game_id: str, make: Any) -> TableUpdate:
    tables, _live, _ = _services(request.app)
    stored, caller = await _caller(request, game_id)
    since = len(stored.game.log)
    made = await make(tables, caller)
    stored = await tables.load(game_id)
    await publish(request.app, stored, made)
    return table_update(request.app, stored, caller, since)


@router.post("/api/tables/{game_id}/bid", responses=ERRORS)
async def table_bid(game_id: str, body: BidRequest, request: Request) -> TableUpdate:
    """Bid; the bots answer, and every seat is sent the bid as it happens."""
    return await _move(request, game_id, lambda t, c: t.bid(game_id, c, body.bid))


@router.post("/api/tables/{game_id}/pass", responses=ERRORS)
async def table_pass(game_id: str, body: PassRequest, request: Request) -> TableUpdate:
    """Pass cards to your partner (the rules' Nil pass)."""
    return await _move(request, game_id, lambda t, c: t.pass_cards(game_id, c, body.cards))


@router.post("/api/tables/{game_id}/play", responses=ERRORS)
async def table_play(game_id: str, body: PlayRequest, request: Request) -> TableUpdate:
    """Play a card; the bots answer, and every seat sees it as it happens."""
    return await _move(request, game_id, lambda t, c: t.play(game_id, c, body.card))


@router.get(
    "/api/tables/{game_id}/record",
    responses={**ERRORS, 200: {"description": "The game's spades-record/1 record."}},
)
async def table_record(game_id: str, request: Request) -> Response:
    """The record of the table's game (its finished hands while it is played, as
    for a game against bots), with ``played_by``: who made each seat's moves,
    hand by hand."""
    stored, _ = await _caller(request, game_id)
    try:
        record = downloadable_record(stored.game)
    except NothingToDownload:
        raise GameInProgress(game_id) from None
    assert stored.seating is not None
    record["played_by"] = stored.seating.get("played_by", [])[: len(record["hands"])]
    return Response(
        json.dumps(record, indent=RECORD_INDENT) + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{record_file(stored.id)}"'},
    )


@router.post("/api/tables/{game_id}/react", status_code=204, responses=ERRORS)
async def react(game_id: str, body: ReactionRequest, request: Request) -> Response:
    """A quick reaction the others see for a moment (there is no chat)."""
    _tables, live, _ = _services(request.app)
    stored, caller = await _caller(request, game_id)
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
    await _send_here(live, game_id, message)
    await announce(request.app, game_id, len(stored.game.log), [], reaction=message)
    return Response(status_code=204)


async def _send_here(live: LiveTables, game_id: str, message: str) -> None:
    for subscriber in list(live.table(game_id).subscribers):
        try:
            await subscriber.socket.send_text(message)
        except Exception:
            log.debug("a table socket closed while being written to", exc_info=True)


@router.websocket("/api/tables/{game_id}/ws")
async def table_socket(
    socket: WebSocket, game_id: str, since: Annotated[int | None, Query(ge=0)] = None
) -> None:
    """Live play: each bid and card of the table as it happens, for your seat.

    Sends your update at once, then one after every change (a move, someone
    joining, leaving or coming back) and each reaction. Nothing is read from
    it: moves go to the POST routes, where a refusal can answer with a reason."""
    tables, live, _ = _services(socket.app)
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
    await _close_oldest_past(socket.app.state.limits.sockets_per_seat, live, game_id, caller.seat)
    await socket.send_text(table_update(socket.app, stored, caller, since).model_dump_json())
    if not was_connected:  # another tab of a seat already here changes nothing the others see
        await publish(socket.app, stored, [], skip=subscriber)  # the others see them here
    try:
        while True:
            await socket.receive_text()  # only to notice the socket closing
    except WebSocketDisconnect:
        pass
    finally:
        live.unsubscribe(game_id, subscriber)
        if not live.connected(game_id, caller.seat):
            with contextlib.suppress(GameNotFound):
                await publish(socket.app, await tables.load(game_id), [])  # and see them go


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
