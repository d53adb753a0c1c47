"""The one way this server hands out a secret: an HttpOnly cookie.

The single-player owner token and a table seat's token differ in name,
lifetime and path, never in how they are protected: out of reach of the
page's scripts, not sent on cross-site requests, and over HTTPS only when
the page itself came over HTTPS.
"""

from __future__ import annotations

from fastapi import Request, Response


def set_secret_cookie(
    request: Request, response: Response, name: str, token: str, *, max_age: int, path: str
) -> None:
    response.set_cookie(
        name,
        token,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path=path,
    )
