"""How much the server takes in, and how much of bad input it repeats.

Every request of this API fits in a few hundred bytes, so bodies are capped
(64 KiB is generous; opening a record file takes more, see ``larger``): a larger one is refused with 413 before it is read when
its length is declared, and as soon as the cap is passed when it is streamed.
A refusal that names the bad input quotes only a short prefix of it, so a
10 MB string is never sent back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES: Final = 64 * 1024
QUOTE_LIMIT: Final = 24
"""Characters of a bad value a refusal repeats."""


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as ``repr`` writes it, cut to a short prefix when it is long.

    >>> quote("grandmaster")
    "'grandmaster'"
    >>> quote("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxx…' (1000 characters)"
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit] + '…'!r} ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else f"{text[:limit]}…"


def too_large_detail(max_bytes: int) -> str:
    return f"The request body is too large: this API accepts at most {max_bytes // 1024} KiB."


class BodyTooLarge(HTTPException):
    """A streamed body passed the cap while it was being read."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, too_large_detail(max_bytes))
        self.max_bytes = max_bytes


def too_large_response(max_bytes: int) -> JSONResponse:
    return JSONResponse({"detail": too_large_detail(max_bytes), "rule": "too-large"}, 413)


class LimitRequestBody:
    """ASGI middleware: refuse request bodies longer than ``max_bytes`` with 413.

    Starlette and uvicorn have no such limit of their own (uvicorn caps only
    the headers), hence these few lines.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_BODY_BYTES,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        """``larger`` gives paths that take more (opening a record file)."""
        self.app = app
        self.max_bytes = max_bytes
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.larger.get(scope["path"], self.max_bytes)
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            await too_large_response(max_bytes)(scope, receive, send)
            return
        received = 0

        async def receive_within_limit() -> Message:
            # A body sent in chunks declares no length: count it as it comes.
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > max_bytes:
                    # An HTTPException, so FastAPI passes it on as it is rather
                    # than as "There was an error parsing the body".
                    raise BodyTooLarge(max_bytes)
            return message

        await self.app(scope, receive_within_limit, send)
