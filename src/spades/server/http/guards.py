"""Refusing, before any route runs, what another site's page sends in a player's name.

A browser attaches the player's cookies to any request a page makes to this
server, whichever site the page came from; SameSite=Lax holds back only
*cross-site* ones, and another port of the same host, or a sibling
subdomain, is the same site. So every request that changes something (any
method but GET, HEAD and OPTIONS) and every WebSocket handshake passes one
check here, in one place, not a check per route:

- **Origin.** A browser names the page's origin on such requests. It must be
  this server's own (its host and port equal the ``Host`` the request was
  sent to; a default port may be left out) or one of the origins the server
  was told to allow (``spades serve --allow-origin``). ``Origin: null`` (a
  sandboxed frame, a file) is refused.
- **Sec-Fetch-Site.** Browsers also say where the request comes from:
  ``cross-site`` and ``same-site`` are refused unless the Origin is allowed.
- **Content type.** A form (``x-www-form-urlencoded``, ``multipart/form-data``)
  or ``text/plain``, the types a page may send to another origin without the
  browser asking it first (a CORS preflight, which this server never grants),
  is refused even on a route that reads no body (``/undo``, ``/start``).
  Bodies are JSON; a client sending another type with no body (aiohttp's
  ``application/octet-stream``) is no page, and passes.

A request with neither header (curl, the bot protocol, the tests, scripts) is
no browser's page acting for a player, and is let through as before: the
cookie, not the header, says whose game it is. Refusals are 403 (415 for the
content type) with ``{detail, rule}``; a refused socket handshake is closed
before it is accepted (HTTP 403, close code 1008 naming the rule). See
docs/security.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
FOREIGN_SITES: Final = frozenset({"cross-site", "same-site"})
DEFAULT_PORTS: Final = {"http": "80", "https": "443", "ws": "80", "wss": "443"}
JSON_TYPE: Final = "application/json"
FORM_TYPES: Final = frozenset(
    {"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"}
)
"""What an HTML form (or a page's fetch without a preflight) can send anywhere."""
POLICY_VIOLATION: Final = 1008
"""The WebSocket close code of a refused handshake."""


class BadOrigin(ValueError):
    """An origin that cannot be allowed: not ``scheme://host[:port]``."""


def normal_origin(origin: str) -> str:
    """``origin`` as compared: lower case, without a default port.

    >>> normal_origin("HTTPS://Spades.example:443")
    'https://spades.example'
    >>> normal_origin("http://127.0.0.1:8000")
    'http://127.0.0.1:8000'
    """
    parts = urlsplit(origin.strip().lower())
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        raise BadOrigin(f"{origin!r} is not an origin: write scheme://host[:port]")
    host = parts.netloc.rpartition("@")[2]
    return f"{parts.scheme}://{_without_default_port(host, parts.scheme)}"


def _without_default_port(host: str, scheme: str | None = None) -> str:
    name, colon, port = host.rpartition(":")
    if not colon or "]" in port:  # no port (an IPv6 address's colons are inside brackets)
        return host
    defaults = {DEFAULT_PORTS[scheme]} if scheme else {"80", "443"}
    return name if port in defaults else host


def refusal(headers: Headers, allowed: frozenset[str]) -> tuple[str, str] | None:
    """Why a state-changing request or a handshake is refused, and its rule; None if it is not."""
    origin = headers.get("origin")
    if origin is not None:
        try:
            normal = normal_origin(origin)
        except BadOrigin:
            return (
                f"Requests from the page at {origin[:64]!r} are refused: "
                "only this server's own pages may act for a player.",
                "origin",
            )
        if normal in allowed:
            return None
        own = _without_default_port(headers.get("host", "").lower())
        if normal.partition("://")[2] != own:
            return (
                f"Requests from {normal[:64]} are refused: only this server's own pages "
                "(or an origin it was told to allow) may act for a player.",
                "origin",
            )
    site = headers.get("sec-fetch-site")
    if site in FOREIGN_SITES:
        return (
            f"A {site} request is refused: only this server's own pages may act for a player.",
            "cross-site",
        )
    return None


def content_type_refusal(headers: Headers) -> tuple[str, str] | None:
    """A state-changing request sent as a form or plain text."""
    declared = headers.get("content-type")
    if declared is None:
        return None
    media = declared.partition(";")[0].strip().lower()
    if media not in FORM_TYPES:
        return None
    return (
        f"A request body here is JSON (Content-Type: {JSON_TYPE}), not {media[:48]!r}.",
        "content-type",
    )


def _body(detail: str, rule: str) -> bytes:
    return json.dumps({"detail": detail, "rule": rule}).encode()


class SameOriginOnly:
    """ASGI middleware: the checks of this module, on every state-changing
    request and every WebSocket handshake."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(normal_origin(origin) for origin in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http" and scope["method"] not in SAFE_METHODS:
            headers = Headers(scope=scope)
            found = refusal(headers, self.allowed)
            status = 403
            if found is None:
                found, status = content_type_refusal(headers), 415
            if found is not None:
                await _send_json(send, status, *found)
                return
        elif kind == "websocket":
            found = refusal(Headers(scope=scope), self.allowed)
            if found is not None:
                await _deny_socket(receive, send, found[1])
                return
        await self.app(scope, receive, send)


async def _send_json(send: Send, status: int, detail: str, rule: str) -> None:
    body = _body(detail, rule)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"x-content-type-options", b"nosniff"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _deny_socket(receive: Receive, send: Send, rule: str) -> None:
    """Refuse a handshake by closing it before it is accepted: the server
    answers it with a 403 (uvicorn), and the close names the rule. (No JSON
    body: a page's WebSocket is shown none, and uvicorn's denial responses log
    an error each, which a flood of foreign handshakes would turn into noise.)"""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": rule})
