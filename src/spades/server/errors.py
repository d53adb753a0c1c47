"""Every refusal the API answers, in one shape: a JSON ``{detail, rule}`` with
the status that says what kind of problem it is.

``add_error_handlers`` turns each exception the services raise into its answer:
a broken rule (422, or 409 when it is not the caller's turn or the game is
over), a game or table that is not the caller's (404, the same as one that does
not exist), a storage fault (503 with ``Retry-After``), a refused request body
(422 worded from ``FIELD_HELP``), a limit reached (429). ``ERRORS`` documents
the game routes' refusals in the OpenAPI schema.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy import exc as database_errors
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match
from starlette.types import Scope

from spades.core import GameOverError, NotYourTurnError, RecordError, SpadesError
from spades.storage import StaleGameError, StorageFault, storage_fault
from spades.storage.outages import Refusals

from .http.limits import BodyTooLarge, quote, too_large_response
from .http.rates import RateLimited
from .play.games import BadSettings, GameInProgress, GameNotFound
from .play.schemas import MAX_LISTED
from .records.replay_schemas import MAX_RECORD_CHARS
from .tables.service import TableError


class ErrorResponse(BaseModel):
    detail: str = Field(description="Why the request was refused, in plain words.")
    rule: str = Field(description="A short code: the rule broken, or the kind of problem.")


RETRY_AFTER: Final = {
    "Retry-After": {
        "description": "Seconds to wait before asking again.",
        "schema": {"type": "integer"},
    }
}
STORE_FAILED: Final[dict[int | str, dict[str, Any]]] = {
    503: {
        "model": ErrorResponse,
        "description": "The game store failed: busy past the wait (storage-busy), out of reach "
        "(storage-unavailable), refusing writes (storage-read-only), or its index cut by "
        "another program (storage-index). Nothing was changed.",
        "headers": RETRY_AFTER,
    }
}
"""For every route that reads or writes the store: ``_on_storage_error``'s answer."""
ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    404: {"model": ErrorResponse, "description": "No such game among yours."},
    409: {"model": ErrorResponse, "description": "Not your turn, or the game is over."},
    422: {"model": ErrorResponse, "description": "A malformed request or an illegal move."},
    **STORE_FAILED,
}
"""The game routes' refusals (each loads the caller's game from the store)."""
SAFE_METHODS: Final = frozenset({"get", "head", "options"})
BEFORE_ANY_ROUTE: Final[dict[str, dict[str, Any]]] = {
    "429": {
        "description": "Too many requests (rate-limit): from this address, or of this costly "
        "kind (new games, tables, hints, claims, record files) from this address or player; "
        "see docs/security.md.",
        "headers": RETRY_AFTER,
    },
}
"""What the middleware may answer to any request before its route runs."""
BEFORE_A_CHANGE: Final[dict[str, dict[str, Any]]] = {
    "403": {
        "description": "Sent by a page of another origin (rule origin or cross-site): "
        "refused before the route runs."
    },
    "413": {"description": "The body is larger than the server takes (too-large)."},
    "415": {
        "description": "Sent as a form or plain text (content-type), as another site's page "
        "could send it: send JSON."
    },
}
"""What the middleware may answer to any state-changing request (not GET,
HEAD or OPTIONS) before its route runs."""


def document_refusals(schema: dict[str, Any]) -> None:
    """Add to each operation of the OpenAPI ``schema`` the refusals the
    middleware answers before any route runs (``BEFORE_ANY_ROUTE``,
    ``BEFORE_A_CHANGE``): they are no route's own, so no route declares them.
    A route that declares one of these statuses keeps its own words, and the
    middleware's are added after them."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}}
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            refusals = dict(BEFORE_ANY_ROUTE)
            if method not in SAFE_METHODS:
                refusals.update(BEFORE_A_CHANGE)
            responses = operation.setdefault("responses", {})
            for status, refusal in refusals.items():
                own = responses.get(status)
                if own is None:
                    responses[status] = {**refusal, "content": error}
                else:
                    own["description"] = f"{own['description']} Or: {refusal['description']}"
                    if "headers" in refusal:
                        own.setdefault("headers", {}).update(refusal["headers"])
                    own.setdefault("content", error)


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
"""What a refused request field should have been, by the field's name."""

log = logging.getLogger(__name__)


def add_error_handlers(app: FastAPI, clock: Callable[[], float] = time.monotonic) -> None:
    """Answer every exception a route may raise as a JSON ``{detail, rule}``;
    the storage faults' refusals are said in the log on ``clock`` (``Refusals``)."""
    on_storage_error = functools.partial(_on_storage_error, Refusals(log, clock=clock))
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
        app.add_exception_handler(fault, on_storage_error)


def refusal(status: int, detail: str, rule: str) -> JSONResponse:
    """A refusal answered by a route itself rather than raised."""
    return JSONResponse({"detail": detail, "rule": rule}, status_code=status)


def _on_spades_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, SpadesError)
    if isinstance(error, RecordError):
        return refusal(500, f"This game's stored record is damaged: {error}", error.rule)
    status = 409 if isinstance(error, NotYourTurnError | GameOverError) else 422
    return refusal(status, error.message, error.rule)


def _on_not_found(_request: Request, _error_: Exception) -> JSONResponse:
    return refusal(404, "No such game: it does not exist or it is not yours.", "not-found")


def _on_in_progress(_request: Request, _error_: Exception) -> JSONResponse:
    return refusal(
        409,
        "No hand of this game can be downloaded yet: a record holds whole deals, and "
        "the cards of the hand being played, and those a claim left unplayed, stay "
        "hidden. Download it once hand 1 is over, or once the game is if a claim ended it.",
        "game-in-progress",
    )


def _on_bad_settings(_request: Request, error: Exception) -> JSONResponse:
    return refusal(422, str(error), "settings")


def _on_stale(_request: Request, _error_: Exception) -> JSONResponse:
    return refusal(
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


HTTP_METHODS: Final = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
STATIC_METHODS: Final = ["GET", "HEAD"]
"""What the static files (a mount, whose routes answer every method) accept."""


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app accepts at the request's path.

    Each route is asked, through Starlette's public ``matches``, whether it
    would serve the path with each method in turn: a route that serves it with
    every method (a mount, whose app picks its methods itself) says nothing
    about methods, and is left out. This holds however FastAPI keeps an
    included router (it once copied its routes in, and now keeps it whole)."""
    allowed: set[str] = set()
    for route in request.app.routes:
        serves = {method for method in HTTP_METHODS if _serves(route, request.scope, method)}
        if serves != set(HTTP_METHODS):
            allowed |= serves
    return sorted(allowed) or STATIC_METHODS


def _serves(route: BaseRoute, scope: Scope, method: str) -> bool:
    match, _child_scope = route.matches({**scope, "method": method})
    return match is Match.FULL


def _on_rate_limited(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RateLimited)
    return JSONResponse(
        {"detail": error.detail, "rule": "rate-limit"},
        status_code=429,
        headers={"Retry-After": str(error.retry_after)},
    )


def _on_storage_error(refusals: Refusals, request: Request, error: Exception) -> JSONResponse:
    """Every storage fault, wherever it was raised: a JSON 503 the page can show
    and a client can retry after; a database error that is no fault of the
    store's (a bug) is a JSON 500."""
    fault = storage_fault(error)
    if fault is None:
        log.error("database error on %s %s", request.method, request.url.path, exc_info=error)
        return refusal(500, "The server failed on this request; nothing was changed.", "internal")
    refusals.refused(f"{request.method} {request.url.path}", fault)
    return JSONResponse(
        {"detail": fault.detail, "rule": fault.rule},
        status_code=503,
        headers={"Retry-After": str(fault.retry_after)},
    )


def _on_table_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, TableError)
    return refusal(error.status, error.message, error.rule)


def _on_too_large(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, BodyTooLarge)
    return too_large_response(error.max_bytes)


def _on_validation(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    return refusal(422, describe_validation(error.errors()), "request")


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
