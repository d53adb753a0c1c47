"""The headers every answer carries: what a browser may do with it.

The game's page sets its own policy (``page.PAGE_HEADERS``). Every other
answer gets one here: the JSON answers and the static files a policy that
lets them run nothing and be framed by no page, and no content sniffing; the
API's documentation pages (``/docs``, ``/redoc``) a policy that allows their
own scripts and styles, the inline script each page starts with by its hash
(read from the page as it is sent, so it holds whatever the library writes),
and no framing either.
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Final

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOSNIFF: Final = ("x-content-type-options", "nosniff")
NO_FRAMES: Final = ("x-frame-options", "DENY")
"""``frame-ancestors`` said the way browsers before CSP 2 understand."""
ANSWER_POLICY: Final = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"
"""A JSON answer or a static file opened on its own runs nothing and is framed by nothing."""
DOCUMENT_POLICY: Final = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self'{scripts}; worker-src 'self' blob:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""The documentation pages: their own files; the style attributes their
widgets write; no page may frame them (clickjacking "Try it out")."""
INLINE_SCRIPT: Final = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL)
MAX_DOCUMENT_BYTES: Final = 256 * 1024
"""A documentation page is a few kilobytes; a larger HTML answer is not buffered."""


def script_hashes(page: bytes) -> list[str]:
    """CSP sources allowing each inline script of ``page`` by its SHA-256.

    >>> script_hashes(b"<script src='/a.js'></script><script>go()</script>")
    ["'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"]
    """
    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
        for body in INLINE_SCRIPT.findall(page)
    ]


class SecurityHeaders:
    """ASGI middleware: ``nosniff`` and a Content-Security-Policy on every
    HTTP answer that has none of its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None
        parts: list[bytes] = []

        async def send_with_headers(message: Message) -> None:
            nonlocal held
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault(*NOSNIFF)
                headers.setdefault(*NO_FRAMES)
                if "content-security-policy" in headers:
                    await send(message)
                elif (
                    headers.get("content-type", "").startswith("text/html")
                    and int(headers.get("content-length", "0") or 0) <= MAX_DOCUMENT_BYTES
                ):
                    held = message  # the policy needs the page's inline scripts: wait for them
                else:
                    headers["content-security-policy"] = ANSWER_POLICY
                    await send(message)
                return
            if held is None or message["type"] != "http.response.body":
                await send(message)
                return
            parts.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            page = b"".join(parts)
            hashes = "".join(f" {source}" for source in script_hashes(page))
            MutableHeaders(scope=held)["content-security-policy"] = DOCUMENT_POLICY.format(
                scripts=hashes
            )
            await send(held)
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, send_with_headers)
