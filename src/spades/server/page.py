"""The page: the static files, and the routes that serve ``index.html``.

The page renders what the API sends and sends intents; it is one file for
every address that opens the game (``/`` and a table with friends'
``/tables/{id}``, served by ``tables/routes.py`` from here).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC_DIR: Final = Path(__file__).parent / "static"

PAGE_HEADERS: Final = {
    # The page loads nothing from elsewhere; say so, so nothing else can be injected.
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

router = APIRouter(include_in_schema=False)


def the_page() -> FileResponse:
    """``index.html`` under the page's own policy."""
    return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)


@router.api_route("/", methods=["GET", "HEAD"])
def index() -> FileResponse:
    return the_page()


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    return FileResponse(STATIC_DIR / "favicon.svg", media_type="image/svg+xml")
