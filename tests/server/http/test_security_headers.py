"""Every answer says what a browser may do with it: no sniffing a JSON answer
or a static file into a page, nothing of this server framed by another page
(``/docs`` with its "Try it out" included), and the docs run only their own scripts."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from httpx import Response

from spades.server.http.headers import script_hashes


def policy(response: Response) -> str:
    headers = response.headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    csp: str = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp
    return csp


def test_the_docs_cannot_be_framed_and_run_only_their_own_scripts(client: TestClient) -> None:
    for path in ("/docs", "/redoc"):
        page = client.get(path)
        assert page.status_code == 200
        csp = policy(page)
        inline = script_hashes(page.content)
        assert inline or path == "/redoc", "Swagger UI's page starts with an inline script"
        scripts = re.search(r"script-src ([^;]*)", csp)
        assert scripts is not None
        allowed = scripts.group(1).split()
        assert "'unsafe-inline'" not in allowed and "'unsafe-eval'" not in allowed
        assert set(inline) <= set(allowed)


def test_json_answers_and_static_files_run_nothing_and_are_not_sniffed(
    client: TestClient,
) -> None:
    for response in (
        client.get("/api/levels"),
        client.get("/openapi.json"),
        client.get("/api/games/nope"),  # an error answer too
        client.post("/api/games/nope/undo", headers={"Origin": "http://evil.example"}),
        client.get("/static/app.js"),
        client.get("/static/style.css"),
        client.get("/favicon.ico"),
    ):
        assert "default-src 'none'" in policy(response), response.request.url


def test_the_page_keeps_its_own_policy(client: TestClient) -> None:
    csp = policy(client.get("/"))
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp
