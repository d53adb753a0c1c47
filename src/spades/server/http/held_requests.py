"""A test-only hook: hold a request the test names in flight, so the test decides
the moment something happens to it (the server process killed, another request
let through first) instead of hoping the timing falls its way.

Off unless the server starts with ``SPADES_TEST_HOLDS`` set to a directory. Then a
request carrying the header ``X-Spades-Test-Hold: POINT:NAME`` waits at POINT:

- ``before``: before the app sees it (nothing of it is stored);
- ``loaded``: once a move's game is loaded, before the move is applied and the
  game saved (``GameService.after_load``): another request may then save the
  same game first, and this one's save is refused as stale;
- ``after``: once the app has answered (the move stored), until the answer leaves.

While a request waits, the process writes its id to ``NAME.held`` in the
directory; it goes on when ``NAME.go`` appears there. Requests without the header
pass untouched. ``tests/server/test_many_processes.py`` uses it.
"""

from __future__ import annotations

import asyncio
import os
import re
from contextvars import ContextVar
from pathlib import Path
from typing import Final

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HOLDS_VARIABLE: Final = "SPADES_TEST_HOLDS"
HOLD_HEADER: Final = b"x-spades-test-hold"
HOLD_VALUE: Final = re.compile(r"(before|loaded|after):([a-z0-9-]{1,40})")
"""Where to hold, and a name that can only make a file inside the directory."""
POLL_SECONDS: Final = 0.01

_held_when_loaded: ContextVar[tuple[Path, str] | None] = ContextVar(
    "held_when_loaded", default=None
)
"""The directory and name of the request being served, when it asked to be
held once its game is loaded: set by the middleware, read by the service."""


def hold_requests_if_asked(app: FastAPI) -> None:
    """Install the hook on ``app`` when the server was started with the variable set."""
    directory = os.environ.get(HOLDS_VARIABLE)
    if directory:
        app.add_middleware(HeldRequests, directory=Path(directory))
        app.state.service.after_load = hold_if_asked_when_loaded


class HeldRequests:
    """ASGI middleware that holds the requests a test names (see the module's doc)."""

    def __init__(self, app: ASGIApp, directory: Path) -> None:
        self.app = app
        self.directory = directory

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        hold = _hold_asked(scope)
        if hold is None:
            await self.app(scope, receive, send)
            return
        when, name = hold
        if when == "before":
            await _wait(self.directory, name)
            await self.app(scope, receive, send)
            return
        if when == "loaded":
            token = _held_when_loaded.set((self.directory, name))
            try:
                await self.app(scope, receive, send)
            finally:
                _held_when_loaded.reset(token)
            return
        answer: list[Message] = []

        async def keep(message: Message) -> None:
            answer.append(message)

        await self.app(scope, receive, keep)
        await _wait(self.directory, name)
        for message in answer:
            await send(message)


async def hold_if_asked_when_loaded() -> None:
    """Wait here if the request being served asked to be held once its game is loaded."""
    asked = _held_when_loaded.get()
    if asked is not None:
        await _wait(*asked)


async def _wait(directory: Path, name: str) -> None:
    held = directory / f"{name}.held"
    written = held.with_suffix(".writing")
    written.write_text(str(os.getpid()))
    written.replace(held)  # whole: the test never reads half a process id
    go = directory / f"{name}.go"
    while not go.exists():
        await asyncio.sleep(POLL_SECONDS)


def _hold_asked(scope: Scope) -> tuple[str, str] | None:
    if scope["type"] != "http":
        return None
    for key, value in scope["headers"]:
        if key == HOLD_HEADER:
            match = HOLD_VALUE.fullmatch(value.decode("latin-1"))
            if match is None:
                raise ValueError(
                    f"{HOLD_HEADER.decode()} must be before:NAME, loaded:NAME or after:NAME"
                )
            return match[1], match[2]
    return None
