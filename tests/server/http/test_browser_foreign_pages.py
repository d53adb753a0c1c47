"""The attacks of issue 23 in a real browser: a page on another port of the
same host (the same site, so SameSite=Lax sends the player's cookies) opens a
seat's WebSocket, fetches ``/undo`` and auto-submits a form to it. None of it
reaches the game; and the API docs render under their Content-Security-Policy."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from ..browsers import Server, new_page

QUICK = {"partner": "random", "opponents": "random"}
TABLE = {"seats": {"N": "random", "E": "random", "S": "person", "W": "random"}}

ATTACK = """<!doctype html><title>another page</title>
<form id="undo" method="POST" action="{base}/api/games/{game}/undo">
<input name="x" value="1"></form>
<script>
window.result = {{opened: false, messages: 0, closed: false, fetched: false}};
const socket = new WebSocket("{ws}/api/tables/{table}/ws");
socket.onopen = () => {{ result.opened = true; }};
socket.onmessage = () => {{ result.messages += 1; }};
socket.onclose = () => {{ result.closed = true; }};
fetch("{base}/api/games/{game}/undo", {{method: "POST", credentials: "include", mode: "no-cors"}})
  .finally(() => {{ result.fetched = true; }});
</script>"""


@pytest.fixture
def other_port() -> Iterator[tuple[str, dict[str, str]]]:
    """A page server on another port of 127.0.0.1: its URL, and the page it serves."""
    page: dict[str, str] = {"html": ""}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = page["html"].encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            return

    host = ThreadingHTTPServer(("127.0.0.1", 0), Handler)  # port 0: the system picks
    thread = threading.Thread(target=host.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{host.server_address[1]}", page
    host.shutdown()
    host.server_close()


def test_a_page_on_another_port_cannot_open_a_seat_or_take_a_move_back(
    browser: Any, server: Server, other_port: tuple[str, dict[str, str]]
) -> None:
    context = browser.new_context()
    api = context.request  # shares the context's cookies: the player's browser
    game = api.post(f"{server.url}/api/games", data={"seed": 5, **QUICK}).json()["game"]
    bid = game["legal_bids"][3]
    moved = api.post(f"{server.url}/api/games/{game['id']}/bid", data={"bid": bid}).json()
    version = moved["game"]["version"]
    table = api.post(f"{server.url}/api/tables", data={**TABLE, "host_seat": "S", "name": "Ann"})
    table_id = table.json()["id"]
    assert api.post(f"{server.url}/api/tables/{table_id}/start").status == 200

    url, page_served = other_port
    page_served["html"] = ATTACK.format(
        base=server.url, ws=server.url.replace("http", "ws"), game=game["id"], table=table_id
    )
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => result.closed && result.fetched", timeout=20_000)
    result = page.evaluate("() => result")
    assert result == {"opened": False, "messages": 0, "closed": True, "fetched": True}
    with page.expect_navigation():
        page.evaluate("() => document.getElementById('undo').submit()")
    assert '"rule": "origin"' in page.content() or '"rule":"origin"' in page.content()
    after = api.get(f"{server.url}/api/games/{game['id']}").json()["game"]
    assert after["version"] == version, "nothing was taken back"
    own = context.new_page()  # the server's own page, with its Origin, may
    own.goto(server.url)
    status = own.evaluate(f"() => fetch('/api/games/{game['id']}/undo', {{method: 'POST'}})"
                          ".then(answer => answer.status)")  # fmt: skip
    assert status == 200
    context.close()


def test_the_api_docs_render_offline_under_their_content_security_policy(
    browser: Any, server: Server
) -> None:
    """The docs' page and scripts come from the server itself (fastapi-offline),
    and nothing they run breaks the policy. (One render of the docs in the suite:
    it is seconds of Chromium.)"""
    page = new_page(browser, server)
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
    assert "/api/games/{game_id}/play" in page.inner_text(".swagger-ui")
    assert page.outside_requests == []
    assert page.console_errors == [], page.console_errors
    assert page.page_errors == []
