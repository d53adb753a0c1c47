"""The web game: a FastAPI app serving the page and the game API.

This module only assembles: it builds the services once, keeps them in
``app.state`` (read by ``deps.py``), adds the middleware and the error
handlers, and includes each feature's router. Nothing imports it but
``spades serve`` and the tests. A new feature is a folder with a
``routes.py`` whose ``router`` is included here with one line.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from spades.bots import BOT_LEVELS
from spades.session import Decider, make_decider
from spades.storage import BUSY_TIMEOUT, GameRepository, default_database_url

from . import page
from .challenge import routes as challenge
from .errors import add_error_handlers, document_refusals
from .http.guards import SameOriginOnly
from .http.headers import SecurityHeaders
from .http.held_requests import hold_requests_if_asked
from .http.limits import MAX_BODY_BYTES, LimitRequestBody
from .http.rates import REFUSAL_DELAY, AtOnce, Limits, Rates, RequestRate
from .play import routes as play
from .play.games import GameService
from .play.views import ScoreSheets
from .records import routes as records
from .records.replay_schemas import MAX_RECORD_BODY_BYTES
from .records.replayer import close as close_record_replayer
from .records.reviews import REVIEW_DEALS, HandReviewer
from .stats import routes as stats
from .tables import routes as tables
from .tables.live import LiveTables, Timer, event_loop_timer
from .tables.pushes import TablePushes
from .tables.service import TableService


def create_app(
    db_url: str | None = None,
    *,
    default_level: str | None = None,
    review_deals: int | None = None,
    limits: Limits | None = None,
    refusal_delay: float = REFUSAL_DELAY,
    allowed_origins: Iterable[str] = (),
    storage_wait: float = BUSY_TIMEOUT,
    bots: str | Decider | None = None,
    clock: Callable[[], float] = time.monotonic,
    timer: Timer = event_loop_timer,
    owns_process: bool = False,
) -> FastAPI:
    """The web game, storing games in ``db_url`` (default: an SQLite file in the
    user's data directory); new games seat ``default_level`` bots unless the
    player picks others (default: the strongest within the decision budget).
    Post-hand reviews sample ``review_deals`` deals a play (default ``REVIEW_DEALS``).
    ``limits`` caps what one player or address may ask (default: ``SPADES_LIMITS``,
    else ``Limits()``); a request past a limit per address is answered 429 after
    ``refusal_delay`` seconds (``rates.REFUSAL_DELAY``); pages of
    ``allowed_origins`` may act as this server's own.
    A read or write waits at most ``storage_wait`` seconds for the database, then
    answers 503. A database that refuses writes raises ``StorageFault`` here,
    before anything is served. The search bots think where ``bots`` says (a
    ``Decider``, or its name: see ``spades.session.BOT_SERVICES``; default a
    pool of processes, one per core). Tables with friends keep time on ``clock``
    (seconds) and set their deadlines (a person away, a turn timer) on ``timer``:
    a test passes its own to move time itself. An app that ``owns_process``
    (``spades serve``'s) also shuts down, when it stops, what the process shares
    between apps: the processes record files are re-played in."""
    decider = bots if isinstance(bots, Decider) else make_decider(bots)
    repository = GameRepository(db_url or default_database_url(), busy_timeout=storage_wait)
    repository.check_writable()
    service = GameService(repository, default_level, decider)  # checks the level first
    reviewer = HandReviewer(repository.reviews, deals=review_deals or REVIEW_DEALS, clock=clock)
    live = LiveTables(clock, timer)
    score_sheets = ScoreSheets()
    table_service = TableService(service, live.stood_in)
    pushes = TablePushes(table_service, live, score_sheets)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if service.bots_think([service.default_level]):
            decider.start()  # the first player's first move should not wait for it
        feed = pushes.feed()
        await feed.start()  # pushes from the other server processes to this one's sockets
        yield
        await feed.stop()
        live.close()
        reviewer.close()
        # Waited for: uvicorn ends the process by the SIGTERM that stopped it, and
        # the pool's semaphores would be reported leaked (tests/server/test_serve_command.py).
        decider.close()
        if owns_process:
            close_record_replayer()  # the processes record files are re-played in
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
    # What deps.py hands the routes.
    app.state.service = service
    app.state.repository = repository
    app.state.reviewer = reviewer
    app.state.score_sheets = score_sheets
    app.state.live = live
    app.state.tables = table_service
    app.state.pushes = pushes
    app.state.limits = limits or Limits.from_environment()
    # Counted in the database, for every process over it (but one in memory: alone).
    app.state.rates = Rates(shared=None if repository.alone else repository.rate_buckets)
    app.state.refusal_delay = refusal_delay
    app.state.replaying = AtOnce(app.state.limits.uploads_at_once, "record files")
    hold_requests_if_asked(app)  # a test-only hook, off unless its variable is set
    add_error_handlers(app, clock)
    app.add_middleware(
        LimitRequestBody,
        max_bytes=MAX_BODY_BYTES,
        larger={"/api/replays": MAX_RECORD_BODY_BYTES},  # a record file
    )
    # Added last, so they run first: a foreign page's request is refused unread.
    app.add_middleware(SameOriginOnly, allowed_origins=allowed_origins)
    app.add_middleware(RequestRate)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=page.STATIC_DIR), name="static")
    app.include_router(page.router)
    app.include_router(play.router)
    app.include_router(stats.router)
    app.include_router(records.router)
    app.include_router(tables.router)
    challenge.include_challenge(app)  # its router, and its refusals' answers
    _document_levels(app, service.default_level)
    return app


def _document_levels(app: FastAPI, default_level: str) -> None:
    """Write this server's bot levels and its default into the schema, and
    the refusals its middleware answers before any route (``document_refusals``).

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
            document_refusals(schema)
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]
