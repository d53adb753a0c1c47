"""The web game: a FastAPI app serving the page and the game API.

Routes are thin: they check who is asking, hand the intent to ``GameService``
and turn the result into South's view. The game's routes are coroutines: the
service sends what thinks or waits (search bots, the solver, a database server)
to a worker thread and does the rest on the event loop, which for a quick move
costs less than the hand-off would. The rarer routes that read many rows or
whole records (lists, statistics, records) are plain ``def``: FastAPI runs them
in its thread pool.

A player is known by an unguessable token in an HttpOnly, SameSite=Lax cookie;
the database keeps only its hash. Every game route looks the game up by id
*and* owner, so another player's game answers 404 like a game that does not
exist.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from sqlalchemy import exc as database_errors
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from spades.bots import BOT_LEVELS, LEVEL_SUMMARIES
from spades.core import (
    PRESETS,
    GameOverError,
    NotYourTurnError,
    RecordError,
    RulesError,
    SpadesError,
    parse_rules,
    rules_name,
)
from spades.core.cards import CARD_NAMES, card_long_name
from spades.core.rules import OPTIONS
from spades.session import Decider, make_decider
from spades.storage import (
    BUSY_TIMEOUT,
    GameRepository,
    StaleGameError,
    StorageFault,
    default_database_url,
    owner_key,
    storage_fault,
)

from .cookies import set_secret_cookie
from .games import BadSettings, GameInProgress, GameNotFound, GameService, IntentResult
from .guards import SameOriginOnly
from .headers import SecurityHeaders
from .held_requests import hold_requests_if_asked
from .hints import hint_level
from .limits import MAX_BODY_BYTES, BodyTooLarge, LimitRequestBody, quote, too_large_response
from .live import LiveTables, Timer, event_loop_timer
from .rates import AtOnce, Limits, RateLimited, Rates, RequestRate
from .records import RECORD_INDENT, NothingToDownload, downloadable_record
from .replay_schemas import MAX_RECORD_BODY_BYTES, MAX_RECORD_CHARS
from .reviews import REVIEW_DEALS, HandReviewer
from .schemas import (
    MAX_RULES_LENGTH,
    BidRequest,
    BotLevels,
    ClaimRequest,
    ClaimUpdate,
    ErrorResponse,
    GameList,
    GameUpdate,
    HintResponse,
    NewGameRequest,
    PassRequest,
    PlayRequest,
    RuleOption,
    RulePreset,
    RulesCheck,
    RuleSets,
    Statistics,
    UndoUpdate,
)
from .statistics import player_statistics
from .tables import TableError, TableService
from .views import (
    ScoreSheets,
    bid_value,
    game_state,
    game_summary,
    public_events,
    record_file,
    taken_back,
)

STATIC_DIR: Final = Path(__file__).parent / "static"
COOKIE: Final = "spades_player"
COOKIE_MAX_AGE: Final = 400 * 24 * 3600  # the longest browsers keep a cookie
TOKEN_BYTES: Final = 32
MAX_TOKEN_LENGTH: Final = 128
MAX_LISTED: Final = 100

PAGE_HEADERS: Final = {
    # The page loads nothing from elsewhere; say so, so nothing else can be injected.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    404: {"model": ErrorResponse, "description": "No such game among yours."},
    409: {"model": ErrorResponse, "description": "Not your turn, or the game is over."},
    422: {"model": ErrorResponse, "description": "A malformed request or an illegal move."},
}


# ------------------------------------------------------------------ the owner


def _token(request: Request) -> str | None:
    token = request.cookies.get(COOKIE)
    if token is None or not 0 < len(token) <= MAX_TOKEN_LENGTH:
        return None
    return token


# The dependencies are async, though they wait for nothing: FastAPI runs a plain
# ``def`` dependency in the thread pool, a hand-off to a thread and back for
# each, which under load cost more than the work.


async def require_owner(request: Request) -> str:
    """The caller's owner key; without a cookie the caller owns no game."""
    token = _token(request)
    if token is None:
        raise GameNotFound("no cookie")
    return owner_key(token)


async def owner_or_new(request: Request, response: Response) -> str:
    """The caller's owner key, issuing a new token (and cookie) on first visit."""
    token = _token(request)
    if token is None:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        set_secret_cookie(request, response, COOKIE, token, max_age=COOKIE_MAX_AGE, path="/")
    return owner_key(token)


Owner = Annotated[str, Depends(require_owner)]


async def service(request: Request) -> GameService:
    return request.app.state.service  # type: ignore[no-any-return]


Games = Annotated[GameService, Depends(service)]


# ------------------------------------------------------------------- errors


def _error(status: int, detail: str, rule: str) -> JSONResponse:
    return JSONResponse({"detail": detail, "rule": rule}, status_code=status)


def _on_spades_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, SpadesError)
    if isinstance(error, RecordError):
        return _error(500, f"This game's stored record is damaged: {error}", error.rule)
    status = 409 if isinstance(error, NotYourTurnError | GameOverError) else 422
    return _error(status, error.message, error.rule)


def _on_not_found(_request: Request, _error_: Exception) -> JSONResponse:
    return _error(404, "No such game: it does not exist or it is not yours.", "not-found")


def _on_in_progress(_request: Request, _error_: Exception) -> JSONResponse:
    return _error(
        409,
        "No hand of this game can be downloaded yet: a record holds whole deals, and "
        "the cards of the hand being played, and those a claim left unplayed, stay "
        "hidden. Download it once hand 1 is over, or once the game is if a claim ended it.",
        "game-in-progress",
    )


def _on_bad_settings(_request: Request, error: Exception) -> JSONResponse:
    return _error(422, str(error), "settings")


def _on_stale(_request: Request, _error_: Exception) -> JSONResponse:
    return _error(
        409,
        "This game was changed in another tab or window: reload the page to see it.",
        "stale",
    )


def _on_http(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, StarletteHTTPException)
    if error.status_code == 405:
        # Starlette names only the first route whose path matched; /api/games has two.
        allowed = ", ".join(allowed_methods(request))
        return JSONResponse(
            {"detail": f"{request.method} is not allowed here: use {allowed}", "rule": "method"},
            status_code=405,
            headers={"Allow": allowed},
        )
    return JSONResponse(
        {"detail": str(error.detail), "rule": "http"},
        status_code=error.status_code,
        headers=error.headers,
    )


def allowed_methods(request: Request) -> list[str]:
    """Every method some route accepts at the request's path."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _scope = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return sorted(methods)


def _on_rate_limited(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RateLimited)
    return JSONResponse(
        {"detail": error.detail, "rule": "rate-limit"},
        status_code=429,
        headers={"Retry-After": str(error.retry_after)},
    )


log = logging.getLogger(__name__)


def _on_storage_error(request: Request, error: Exception) -> JSONResponse:
    """Every storage fault, wherever it was raised: a JSON 503 the page can show
    and a client can retry after; a database error that is no fault of the
    store's (a bug) is a JSON 500."""
    fault = storage_fault(error)
    if fault is None:
        log.error("database error on %s %s", request.method, request.url.path, exc_info=error)
        return _error(500, "The server failed on this request; nothing was changed.", "internal")
    log.warning("storage fault on %s %s: %s", request.method, request.url.path, fault)
    return JSONResponse(
        {"detail": fault.detail, "rule": fault.rule},
        status_code=503,
        headers={"Retry-After": str(fault.retry_after)},
    )


def _on_table_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, TableError)
    return _error(error.status, error.message, error.rule)


def _on_too_large(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, BodyTooLarge)
    return too_large_response(error.max_bytes)


def _on_validation(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return _error(422, describe_validation(error.errors()), "request")


def describe_validation(errors: Any) -> str:
    """The first problem of a refused request, in words."""
    if not errors:
        return "The request is malformed."
    first = errors[0]
    kind = first.get("type", "")
    place = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path")]
    field = ".".join(place)
    if kind == "json_invalid":
        return "The request body is not valid JSON."
    if kind == "missing" and not field:
        return "The request needs a JSON body."
    if kind == "missing":
        return f"The request is missing {quote(field)}."
    if kind == "extra_forbidden":  # the field's name is the client's: quote a prefix only
        return f"Unknown field {quote(field)} in the request."
    if kind in ("model_attributes_type", "dict_type"):
        return "The request body must be a JSON object."
    name = place[0] if place else ""
    if name in FIELD_HELP:
        return FIELD_HELP[name]
    message = str(first.get("msg", "is not valid"))
    return f"{quote(field)}: {message}" if field else message


FIELD_HELP: Final = {
    "bid": 'The bid must be "nil" or a whole number from 1 to 13.',
    "card": 'The card must be written rank then suit, like "QH" or "10D".',
    "seed": "The seed must be a whole number from 0 to 2**63 - 1.",
    "partner": "The partner's level must be the name of a bot level.",
    "opponents": "The opponents' level must be the name of a bot level.",
    "west": "West's level must be the name of a bot level.",
    "east": "East's level must be the name of a bot level.",
    "undo": "undo must be true or false.",
    "tricks": "Claim a whole number of tricks, from 1 to the tricks left.",
    "limit": f"The limit must be a whole number from 1 to {MAX_LISTED}.",
    "unfinished": "unfinished must be true or false.",
    "text": f"The record file must be text of at most {MAX_RECORD_CHARS:,} characters: "
    "save one game's record on its own and open that.",
    "game": "The game to open must be a whole number from 1.",
    "seats": 'Each seat is "person" or a bot level, by its letter: N, E, S or W.',
    "host_seat": "Your seat is a letter: N, E, S or W.",
    "seat": "The seat is a letter: N, E, S or W.",
    "name": "A name is text of up to 24 characters.",
    "away_seconds": "The wait for an away person is a whole number of seconds, 5 to 900.",
    "turn_seconds": "The turn timer is a whole number of seconds, 5 to 600, or null for none.",
    "reaction": "A reaction is one of nice, oops, wow, thanks, hurry.",
    "stand_in": "The stand-in's level must be the name of a bot level.",
}


# -------------------------------------------------------------------- the app


def create_app(
    db_url: str | None = None,
    *,
    default_level: str | None = None,
    review_deals: int | None = None,
    limits: Limits | None = None,
    allowed_origins: Iterable[str] = (),
    storage_wait: float = BUSY_TIMEOUT,
    bots: str | Decider | None = None,
    clock: Callable[[], float] = time.monotonic,
    timer: Timer = event_loop_timer,
) -> FastAPI:
    """The web game, storing games in ``db_url`` (default: an SQLite file in the
    user's data directory); new games seat ``default_level`` bots unless the
    player picks others (default: the strongest within the decision budget).
    Post-hand reviews sample ``review_deals`` deals a play (default ``REVIEW_DEALS``).
    ``limits`` caps what one player or address may ask (default: ``SPADES_LIMITS``,
    else ``Limits()``); pages of ``allowed_origins`` may act as this server's own.
    A read or write waits at most ``storage_wait`` seconds for the database, then
    answers 503. A database that refuses writes raises ``StorageFault`` here,
    before anything is served. The search bots think where ``bots`` says (a
    ``Decider``, or its name: see ``spades.session.BOT_SERVICES``; default a
    pool of processes, one per core). Tables with friends keep time on ``clock``
    (seconds) and set their deadlines (a person away, a turn timer) on ``timer``:
    a test passes its own to move time itself."""
    decider = bots if isinstance(bots, Decider) else make_decider(bots)
    repository = GameRepository(db_url or default_database_url(), busy_timeout=storage_wait)
    repository.check_writable()
    service = GameService(repository, default_level, decider)  # checks the level first
    reviewer = HandReviewer(repository.reviews, deals=review_deals or REVIEW_DEALS)
    live = LiveTables(clock, timer)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        from .tables_api import table_feed  # as the router below: it uses this module

        if service.bots_think([service.default_level]):
            decider.start()  # the first player's first move should not wait for it
        feed = table_feed(_app)
        await feed.start()  # pushes from the other server processes to this one's sockets
        yield
        await feed.stop()
        live.close()
        reviewer.close()
        decider.close()
        repository.close()

    # fastapi-offline: the same FastAPI, with /docs served from the package, not a CDN.
    app = FastAPIOffline(
        title="Spades",
        summary="Classic partnership Spades in the browser: you sit South.",
        description=(
            "The server is authoritative: the page sends intents (a new game, a bid, a card, "
            "a hint) and renders the view it gets back, which holds South's cards and public "
            "facts only. Errors are `{detail, rule}` objects."
        ),
        version="1",
        lifespan=lifespan,
        favicon_url="/favicon.ico",
    )
    app.state.service = service
    app.state.repository = repository
    app.state.reviewer = reviewer
    app.state.score_sheets = ScoreSheets()
    app.state.live = live
    app.state.tables = TableService(service, live.stood_in)
    app.state.limits = limits or Limits.from_environment()
    app.state.rates = Rates()
    app.state.replaying = AtOnce(app.state.limits.uploads_at_once, "record files")
    hold_requests_if_asked(app)  # a test-only hook, off unless its variable is set
    app.add_exception_handler(SpadesError, _on_spades_error)
    app.add_exception_handler(GameNotFound, _on_not_found)
    app.add_exception_handler(GameInProgress, _on_in_progress)
    app.add_exception_handler(BadSettings, _on_bad_settings)
    app.add_exception_handler(StaleGameError, _on_stale)
    app.add_exception_handler(RequestValidationError, _on_validation)
    app.add_exception_handler(StarletteHTTPException, _on_http)
    app.add_exception_handler(BodyTooLarge, _on_too_large)
    app.add_exception_handler(TableError, _on_table_error)
    app.add_exception_handler(RateLimited, _on_rate_limited)
    for fault in (StorageFault, database_errors.DBAPIError, database_errors.TimeoutError):
        app.add_exception_handler(fault, _on_storage_error)
    app.add_middleware(
        LimitRequestBody,
        max_bytes=MAX_BODY_BYTES,
        larger={"/api/replays": MAX_RECORD_BODY_BYTES},  # a record file
    )
    # Added last, so they run first: a foreign page's request is refused unread.
    app.add_middleware(SameOriginOnly, allowed_origins=allowed_origins)
    app.add_middleware(RequestRate)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _add_page_routes(app)
    _add_api_routes(app)
    from .challenge import include_challenge  # the daily challenge: its routes and refusals
    from .records_api import router  # imported here: its routes use this module's dependencies
    from .tables_api import router as tables_router

    app.include_router(router)
    app.include_router(tables_router)
    include_challenge(app)
    _document_levels(app, service.default_level)
    return app


def _document_levels(app: FastAPI, default_level: str) -> None:
    """Write this server's bot levels and its default into the schema.

    The request models cannot know them: the default is chosen when the app is
    made (``create_app(default_level=...)``, ``spades serve --level``).
    """
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            fields = schema["components"]["schemas"]["NewGameRequest"]["properties"]
            for name in ("partner", "opponents", "west", "east"):
                fields[name]["anyOf"][0]["enum"] = list(BOT_LEVELS)
                fields[name]["description"] += f" One of {', '.join(BOT_LEVELS)} (see /api/levels)."
            for name in ("partner", "opponents"):
                fields[name]["description"] += f" Default on this server: {default_level}."
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


def _add_page_routes(app: FastAPI) -> None:
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")


def _add_api_routes(app: FastAPI) -> None:
    sheets: ScoreSheets = app.state.score_sheets

    def view_of(outcome: IntentResult) -> GameUpdate:
        """The game as South sees it now, and the events since the request."""
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

    @app.get("/api/levels", tags=["game"])
    async def levels() -> BotLevels:
        """The bot levels a game may use, the default, and the level the hint asks."""
        return BotLevels(
            levels=list(BOT_LEVELS),
            default=app.state.service.default_level,
            hint=hint_level(),
            summaries={level: LEVEL_SUMMARIES.get(level, "") for level in BOT_LEVELS},
        )

    @app.get("/api/rules", tags=["game"])
    async def rule_sets() -> RuleSets:
        """The presets and the options a new game's rules are written with."""
        return RuleSets(
            presets=[
                RulePreset(name=name, summary=preset.rules.describe(), source=preset.source)
                for name, preset in PRESETS.items()
            ],
            options=[RuleOption(name=option.name, summary=option.summary) for option in OPTIONS],
            default="cardcouch",
        )

    @app.get("/api/rules/check", tags=["game"])
    async def check_rules(
        rules: Annotated[str, Query(max_length=MAX_RULES_LENGTH, description="As in --rules.")],
    ) -> RulesCheck:
        """Read a rule set written in the short syntax: its shortest form and a
        summary, or what is wrong with it (a new game refuses such rules with 422)."""
        try:
            parsed = parse_rules(rules)
        except RulesError as error:
            return RulesCheck(ok=False, rules=None, summary=None, problem=error.message)
        return RulesCheck(
            ok=True, rules=rules_name(parsed), summary=parsed.describe(), problem=None
        )

    @app.post("/api/games", status_code=201, tags=["game"], responses=ERRORS)
    async def new_game(
        body: NewGameRequest,
        games: Games,
        owner: Annotated[str, Depends(owner_or_new)],
    ) -> GameUpdate:
        """Start a game: the deal, and the bots' bids before yours."""
        limits: Limits = app.state.limits
        rates: Rates = app.state.rates  # the address's limit: rates.RequestRate
        rates.take("games", owner, limits.games_per_owner, "new games from you")
        return view_of(
            await games.new_game(
                owner,
                partner=body.partner,
                opponents=body.opponents,
                west=body.west,
                east=body.east,
                undo=body.undo,
                seed=body.seed,
                rules=parse_rules(body.rules),
            )
        )

    @app.get("/api/games", tags=["game"])
    def list_games(
        games: Games,
        request: Request,
        unfinished: Annotated[
            bool, Query(description="Only the games still in progress, to resume one.")
        ] = False,
        limit: Annotated[int, Query(ge=1, le=MAX_LISTED, description="At most this many.")] = 20,
    ) -> GameList:
        """Your games, most recent first."""
        token = _token(request)
        if token is None:
            return GameList(games=[])
        rows = games.repository.list_games(owner_key(token), limit, unfinished_only=unfinished)
        return GameList(games=[game_summary(row) for row in rows])

    @app.get(
        "/api/games/latest",
        tags=["game"],
        response_model=GameUpdate,
        responses={204: {"description": "This browser has no game yet."}},
    )
    async def latest_game(games: Games, request: Request) -> GameUpdate | Response:
        """The game you played most recently, as it stands; 204 if you have none yet.

        Having no game is the normal first visit, not an error: no 404 to log."""
        token = _token(request)
        stored = None if token is None else await games.latest(owner_key(token))
        if stored is None:
            return Response(status_code=204)
        return view_of(IntentResult(stored, []))

    @app.get("/api/games/{game_id}", tags=["game"], responses=ERRORS)
    async def get_game(game_id: str, games: Games, owner: Owner) -> GameUpdate:
        """One of your games, as it stands."""
        return view_of(IntentResult(await games.load(owner, game_id), []))

    @app.post("/api/games/{game_id}/bid", tags=["game"], responses=ERRORS)
    async def bid(game_id: str, body: BidRequest, games: Games, owner: Owner) -> GameUpdate:
        """Bid, then the bots play until it is your turn again."""
        return view_of(await games.bid(owner, game_id, body.bid))

    @app.post("/api/games/{game_id}/pass", tags=["game"], responses=ERRORS)
    async def pass_cards(game_id: str, body: PassRequest, games: Games, owner: Owner) -> GameUpdate:
        """Pass cards to your partner (the rules' Nil pass), then the bots play on."""
        return view_of(await games.pass_cards(owner, game_id, body.cards))

    @app.post("/api/games/{game_id}/play", tags=["game"], responses=ERRORS)
    async def play(game_id: str, body: PlayRequest, games: Games, owner: Owner) -> GameUpdate:
        """Play a card, then the bots play until it is your turn again."""
        return view_of(await games.play(owner, game_id, body.card))

    @app.post("/api/games/{game_id}/undo", tags=["game"], responses=ERRORS)
    async def undo(game_id: str, games: Games, owner: Owner) -> UndoUpdate:
        """Take back your last bid or card of this hand, and every move made after it."""
        outcome, taken = await games.undo(owner, game_id)
        update = view_of(outcome)
        return UndoUpdate(game=update.game, events=update.events, taken_back=taken_back(taken))

    @app.post("/api/games/{game_id}/claim", tags=["game"], responses=ERRORS)
    async def claim(game_id: str, body: ClaimRequest, games: Games, owner: Owner) -> ClaimUpdate:
        """Claim tricks for you and North. Checked with every card visible: if your side
        takes them against any defence the hand ends with them, otherwise play goes on."""
        outcome, verdict = await games.claim(owner, game_id, body.tricks)
        update = view_of(outcome)
        events = update.events if verdict.event is None else [verdict.event, *update.events]
        return ClaimUpdate(game=update.game, events=events, claim=verdict.result)

    @app.get("/api/statistics", tags=["statistics"])
    def statistics(games: Games, request: Request) -> Statistics:
        """Your games in numbers: results by level, points, contracts, Nils, bags, undos."""
        token = _token(request)
        records = [] if token is None else games.repository.records(owner_key(token))
        return player_statistics(records)

    @app.get(
        "/api/games/{game_id}/record",
        tags=["game"],
        responses={
            200: {"description": "The game's spades-record/1 record: its finished hands."},
            404: ERRORS[404],
            409: {"model": ErrorResponse, "description": "No hand of the game is over yet."},
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
        return Response(
            json.dumps(record, indent=RECORD_INDENT) + "\n",
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{record_file(stored.id)}"'},
        )

    @app.get("/api/games/{game_id}/hint", tags=["game"], responses=ERRORS)
    async def hint(game_id: str, games: Games, owner: Owner) -> HintResponse:
        """What the strongest bot would bid or play in your place, and why."""
        suggestion = await games.hint(owner, game_id)
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
