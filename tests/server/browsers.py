"""What the browser tests drive: Debian's Chromium, and `spades serve` as a subprocess.

The fixtures built on these (``tests/server/conftest.py``) start one Chromium and
one server per test module and give each test fresh browser contexts: starting
them is most of a browser test's time, and a fresh context is a new person with
cookies of their own, so no test sees another's games. Below them, what the
browser tests share: a new page that refuses every outside request, a click
on a card where it shows, and the page's waits."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Final

import pytest
import uvicorn
from fastapi import FastAPI

from .serving import ServeProcess, spades_command

__all__ = ["spades_command"]  # the browser tests' own commands run it too

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


PAGE_TEST_OPTIONS = (
    "--level", "normal",  # quick bots: these tests are about the page
    # The hints' searches in the server's own process: a pool of bot processes
    # (the default) is two more Python processes started with every server.
    "--bots", "inline",
    # The page asks for a hand's review when its summary shows: one deal a play
    # instead of 24 (every verdict still worked out the same way), unless the
    # pictures are taken (make screenshots), which show the product's review.
    *(() if os.environ.get("SPADES_SCREENSHOTS") else ("--review-deals", "1")),
)  # fmt: skip
"""What every browser test's server runs with; a module's ``SERVE_OPTIONS``
come after these, and an option given twice takes its last value."""

PAGE_TEST_APP: Final[dict[str, Any]] = {
    "default_level": "normal",
    "bots": "inline",
    "review_deals": None if os.environ.get("SPADES_SCREENSHOTS") else 1,
}
"""The same for a browser test's server in this process (``InProcessServer``):
``create_app``'s arguments. Without ``bots``, the first search asked for (a
hint, at the strongest level) spawns a pool of two bot processes, each importing the game."""


class Server:
    """`spades serve` as a subprocess, restartable on the same port and database.

    The port is a socket this object binds once and keeps (``--fd``): between a
    stop and a start no other process can take it, as it could a port released
    and named again."""

    startup_seconds = 120
    """A deadline, not a wait: on a machine busy with other work, starting the
    server (imports, database, bot processes) has taken over 30 s."""

    def __init__(self, db_url: str, *options: str) -> None:
        self._socket = socket.create_server(("127.0.0.1", 0))  # port 0: the system picks
        self._socket.set_inheritable(True)
        self.port: int = self._socket.getsockname()[1]
        self.db_url = db_url
        self.options = options
        """More options for `spades serve`."""
        self.url = f"http://127.0.0.1:{self.port}"
        self._serving: ServeProcess | None = None

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        return None if self._serving is None else self._serving.process

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        fd = self._socket.fileno()
        self._serving = ServeProcess(
            ["--fd", str(fd), "--db", self.db_url, *PAGE_TEST_OPTIONS, *self.options],
            pass_fds=[fd],
        )
        try:
            self.wait_until_it_answers()
        except RuntimeError:
            self.stop()
            raise

    def wait_until_it_answers(self) -> None:
        """Until the server answers (after a start, or once its workers are started
        again after a kill), within ``startup_seconds``."""
        assert self._serving is not None, "the server is not started"
        self._serving.wait_until_it_answers(self.url, self.startup_seconds)

    def stop(self) -> None:
        if self._serving is not None:
            self._serving.stop()
        self._serving = None

    def close(self) -> None:
        """Stop it and give up its port: it cannot be started again."""
        self.stop()
        self._socket.close()


class InProcessServer:
    """The web game served from this process (uvicorn on a thread) for tests that
    hold the app itself: its tables' clock, say. Like ``spades serve`` with one
    process, without the process: ``create_app`` is called as the command calls it."""

    startup_seconds = 30

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        # Bound here and handed to uvicorn: no other process can take the port first.
        self._socket = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._socket.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": [self._socket]}, name="spades-serve", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + self.startup_seconds
        while not server.started:  # until it listens: how long that takes is the machine's
            if not self._thread.is_alive():
                raise RuntimeError("the server's thread ended before it listened")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start within {self.startup_seconds} s")
            time.sleep(0.05)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=30)
        self._socket.close()  # uvicorn closed it if it served; else it is closed here
        self._server = self._thread = None


# ------------------------------------------------------------ the page's helpers

NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="needs Debian's Chromium at /usr/bin/chromium (apt-get install chromium); "
    "CI installs it and always runs these tests",
)
"""Every browser test module's mark: CI always has Chromium."""


def screenshot_dir() -> Path | None:
    target = os.environ.get("SPADES_SCREENSHOTS")
    if not target:
        return None
    path = Path(target)
    path.mkdir(parents=True, exist_ok=True)
    return path


def new_page(browser: Any, server: Server, *, width: int = 1280, height: int = 800) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    outside: list[str] = []

    def refuse(route: Any) -> None:  # the page loads nothing from anywhere else
        outside.append(route.request.url)
        route.abort()

    # Only what is not the server's is stopped, matched in Playwright's driver:
    # a route for every request would take each of the page's requests through
    # this process and back (up to a tenth of a second of CPU a page load).
    context.route(re.compile(f"^(?!{re.escape(server.url)}/)"), refuse)
    page = context.new_page()
    page.outside_requests = outside
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors
    # What the browser's console shows a user who opens the developer tools.
    console: list[str] = []
    page.on("console", lambda message: message.type == "error" and console.append(message.text))
    page.console_errors = console
    return page


def pause_clock(page: Any, ahead: float) -> None:
    """Stop the page's installed clock ``ahead`` seconds from now, to move only
    when the test says. ``clock.pause_at`` needs a time still ahead of the page's
    clock when the command arrives, and a busy machine can take longer than the
    lead between reading the time and sending it (CI once took over 0.1 s): then
    the time is read again, with twice the lead. The deadline is for a page that
    stopped answering, not a wait."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + 60
    while True:
        now = page.evaluate("Date.now()") / 1000  # seconds, as pause_at takes them
        try:
            page.clock.pause_at(now + ahead)
            return
        except Error as error:
            if "to the past" not in str(error) or time.monotonic() > deadline:
                raise
            ahead *= 2


def table_position(page: Any) -> dict[str, Any]:
    """What the table shows: South's cards, the trick, the scores, whose turn."""
    result: dict[str, Any] = page.evaluate(
        """() => ({
            hand: [...document.querySelectorAll('#hand .card')].map(b => b.dataset.card),
            playable: [...document.querySelectorAll('#hand .card.playable')].map(b => b.dataset.card),
            trick: [...document.querySelectorAll('.trick .played')].map(e => e.dataset.card),
            teams: [...document.querySelectorAll('.teambox')].map(e => e.getAttribute('aria-label')),
            seats: ['N', 'E', 'W', 'S'].map(s => document.getElementById('seat-' + s).getAttribute('aria-label')),
            broken: document.getElementById('spades-broken').textContent,
        })"""
    )
    return result


WAIT_FOR_SOUTH = """() => document.querySelector('#hand .card.playable')
    || document.querySelector('#summary-dialog').open
    || document.querySelector('#gameover-dialog').open"""
ANSWERED = """() => !document.body.classList.contains('is-busy')
    || document.querySelector('#summary-dialog').open
    || document.querySelector('#gameover-dialog').open"""
"""The page waits for the player again after an action: a click that sends one
marks the page busy at once (app.js's ``perform``) until the answer is drawn, or
until the hand's summary, shown while the answer is played out, asks for a click."""


VISIBLE_POINT = """(card) => {
    const box = card.getBoundingClientRect();
    for (let y = box.top + 24; y < box.bottom - 4; y += 6) {
        for (let x = box.left + 3; x < box.right - 3; x += 3) {
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest('.card') === card) return [x, y];
        }
    }
    return null;
}"""


def click_card(card: Any) -> None:
    """Click a card where it shows, as a person would: the hand is fanned and overlaps.

    The mouse is used directly, so a dimmed (aria-disabled) card can be clicked too.
    """
    card.scroll_into_view_if_needed()
    point = card.evaluate(VISIBLE_POINT)
    assert point is not None, "the card shows nowhere"
    card.page.mouse.click(point[0], point[1])


def api(server: Server, cookie: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{server.url}{path}",
        data=data,
        method=method,
        headers={"Cookie": f"spades_player={cookie}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


HEADER_ROWS = """() => {
    const tops = [...document.querySelectorAll('.topbar .tool')].map((e) => e.getBoundingClientRect().top);
    const scores = document.querySelector('.topbar .scores').getBoundingClientRect();
    const tools = document.querySelector('.topbar .actions').getBoundingClientRect();
    return {
        toolRows: new Set(tops.map(Math.round)).size,
        sameRow: scores.top < tools.bottom && tools.top < scores.bottom,
        right: Math.max(...[...document.querySelectorAll('.topbar .tool, .topbar .teambox')]
            .map((e) => e.getBoundingClientRect().right)),
        clipped: [...document.querySelectorAll('.topbar .teambox')]
            .filter((e) => e.scrollWidth > e.clientWidth + 0.5).length,
    };
}"""


def two_nil_bids(page: Any, server: Server) -> None:
    """The page shows the widest scores: both teams "N+Nil", totals far below zero
    (the server's own state for this game, with the bids and scores changed)."""
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    state = api(server, cookie, "GET", "/api/games/latest")
    for seat in state["game"]["seats"]:
        seat["bid"] = {"N": "nil", "E": "nil", "S": 10, "W": 12}[seat["seat"]]
    state["game"]["teams"][0].update(bid=10, nil_seats=["N"], score=-180, bags=9)
    state["game"]["teams"][1].update(bid=12, nil_seats=["E"], score=-170, bags=9)
    page.route("**/api/games/latest", lambda route: route.fulfill(json=state))
    page.reload()
    page.wait_for_selector("#hand .card")


TAP_STRIPS = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
    // The widest run of points, on any line across the card, where a tap lands on it.
    const box = card.getBoundingClientRect();
    let widest = 0;
    for (let y = box.top + 2; y < box.bottom - 2; y += 3) {
        let run = 0;
        for (let x = Math.floor(box.left); x <= box.right; x += 1) {
            const hit = document.elementFromPoint(x, y);
            run = hit && hit.closest('.card') === card ? run + 1 : 0;
            widest = Math.max(widest, run);
        }
    }
    return widest;
})"""


FOCUSED_CARD = """() => {
    // The card the keyboard is on, and whether its focus shows (its ring).
    const card = document.activeElement.closest('#hand .card');
    return card !== null && getComputedStyle(card).outlineStyle !== 'none';
}"""
