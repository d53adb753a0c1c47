"""The daily challenge in Chromium: two people, in two browser contexts (two
cookies, two players), play the whole day; the matchpoints each deal shows and
the day's leaderboard are checked against a hand computation from the scores.
Bob plays every deal on the page and reads his score from it; Ann, whose part
is to be the field Bob is scored against, plays hers through the page's API
with her page's cookie (the page's play is Bob's to test: doing it twice cost
half this module's CPU), then both pages show the boards.

The server runs in this process, its challenge on a clock the test sets, and
the pars played at once: nothing here depends on today's date or waits on a
background thread. Set SPADES_SCREENSHOTS=docs/screenshots to save pictures."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from spades.server.app import create_app
from spades.server.http.rates import Limits
from tests.challenge.conftest import SetClock

from ..browsers import CHROMIUM, PAGE_TEST_APP, InProcessServer, new_page, screenshot_dir
from .conftest import play_whole_deal, with_challenge

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="needs Debian's Chromium at /usr/bin/chromium",
)

DAY = "2026-12-05"
ANN = "O'Neil & Co (!)"
"""Punctuation a page must write as text: the leaderboard shows it as typed."""
BOB = "Bob"

MOVE = """() => {
    // One move on the challenge's table, the page's own buttons (the highest bid but
    // Nil, the last legal card: the API tests' greedy player); returns what it did.
    const results = document.querySelector('#ch-results');
    if (results) return 'results:' + results.dataset.deal;
    const bids = [...document.querySelectorAll('#ch-bids .bid-button')].filter(b => b.dataset.bid !== 'nil');
    const cards = [...document.querySelectorAll('#ch-hand .card.legal')];
    const choices = bids.length ? bids : cards;
    if (!choices.length) return 'wait';
    // The page redraws the table once the server has answered: the button clicked leaves it.
    window.clickedInChallenge = choices[choices.length - 1];
    window.clickedInChallenge.click();
    return bids.length ? 'bid' : 'card';
}"""


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    database = tmp_path_factory.mktemp("challenge") / "browser.db"
    app = create_app(f"sqlite:///{database}", **PAGE_TEST_APP, limits=Limits.off())
    with_challenge(app, SetClock(datetime(2026, 12, 5, 9, 30, tzinfo=UTC)))
    running = InProcessServer(app)
    running.start()
    yield running
    running.stop()


def open_challenge(page: Any, server: Any, name: str) -> None:
    page.goto(server.url)
    page.locator("#welcome-dialog .challenge-link").click()  # a first visit: from the welcome
    page.wait_for_selector("#ch-name-input")
    assert len(page.locator(".ch-commitment").text_content().strip()) == 64
    assert "a new browser" in page.locator(".ch-note").first.inner_text()
    page.fill("#ch-name-input", name)
    page.click("#ch-save-name")
    page.wait_for_selector("#ch-start")


def play_deal(page: Any, number: int) -> int:
    """Play deal ``number`` on the page; returns the score its results show."""
    page.click("#ch-start" if number == 1 else "#ch-next")
    page.wait_for_selector(".ch-table")
    for _ in range(40):
        done = page.evaluate(MOVE)
        if done == f"results:{number}":
            break
        page.wait_for_function("() => !window.clickedInChallenge?.isConnected")
    else:
        raise AssertionError(f"deal {number} did not end")
    shown = page.locator("#ch-results .ch-yours strong").inner_text()  # "You: +61"
    return int(shown.split(":")[1])


def test_two_players_play_the_day_and_the_page_scores_them_as_by_hand(
    browser: Any, server: Any
) -> None:
    ann, bob = new_page(browser, server), new_page(browser, server)
    open_challenge(ann, server, ANN)
    open_challenge(bob, server, BOB)
    cookies = {cookie["name"]: cookie["value"] for cookie in ann.context.cookies()}
    with httpx.Client(base_url=server.url, cookies=cookies) as ann_api:
        ann_scores = [
            play_whole_deal(ann_api, DAY, number)["result"]["score"] for number in range(1, 9)
        ]
    bob_scores: list[int] = []
    for number in range(1, 9):
        bob_scores.append(play_deal(bob, number))
        # Against one other result: a point for beating it, half for a tie.
        mine, theirs = bob_scores[-1], ann_scores[number - 1]
        expected = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        shown = bob.locator("#ch-results .ch-mp")
        assert float(shown.get_attribute("data-matchpoints")) == expected
        assert f"of 1 ({100 * expected:.1f}%)" in shown.inner_text()
        assert (
            "Par (the normal bots in your seat)" in bob.locator("#ch-results .ch-par").inner_text()
        )
    bob_percent = (
        sum(
            100.0 if b > a else 50.0 if a == b else 0.0
            for a, b in zip(ann_scores, bob_scores, strict=True)
        )
        / 8
    )
    expected_board = {BOB: bob_percent, ANN: 100.0 - bob_percent}
    for page in (ann, bob):
        page.click("#ch-tab-boards")
        page.wait_for_selector("#ch-day-board tbody tr td")
        rows = page.eval_on_selector_all(
            "#ch-day-board tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
        )
        board = {row[1]: float(row[4].rstrip("%")) for row in rows}
        assert board == pytest.approx(expected_board, abs=0.05)
        assert page.locator("#ch-week-board tbody tr").count() == 2
    assert (
        ann.locator("#ch-day-board").inner_html().count("O'Neil &amp; Co (!)") == 1
    )  # text, not markup
    target = screenshot_dir()
    if target is not None:
        bob.locator("#challenge-dialog").screenshot(path=str(target / "challenge-leaderboard.png"))
    # The deal's results once more, with the par's replay, for the eye.
    bob.click("#ch-tab-play")
    bob.click(".ch-progress li[data-deal='8'] button")
    bob.wait_for_selector("#ch-results[data-deal='8']")
    if target is not None:
        bob.locator("#challenge-dialog").screenshot(path=str(target / "challenge.png"))
    bob.click("#ch-replay-par")
    bob.wait_for_selector("#replay-dialog[open]")
    assert "the par play" in bob.locator("#replay-title").inner_text()
    for page in (ann, bob):
        assert page.page_errors == [] and page.console_errors == [] and page.outside_requests == []
