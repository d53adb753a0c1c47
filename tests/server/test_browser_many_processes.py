"""The page in Chromium against `spades serve --workers 2` over PostgreSQL: a
hand played by clicking whatever process answers, reloads that show the same
table, and both workers killed with kill -9 mid-hand: the page, reloaded,
shows the table as it was and play goes on."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from typing import Any

import pytest

from .browsers import (
    WAIT_FOR_SOUTH,
    Server,
    click_card,
    new_page,
    table_position,
)
from .serving import workers_of

pytestmark = [
    pytest.mark.skipif(os.name != "posix", reason="kill -9 is a POSIX signal"),
    pytest.mark.slow,  # three server processes, twice
]


@pytest.fixture
def server(postgres_url: str) -> Iterator[Server]:
    running = Server(postgres_url, "--workers", "2")
    running.startup_seconds = 120  # three processes import the server, on a busy machine too
    try:
        running.start()
        yield running
    finally:
        running.close()


def test_a_hand_in_the_browser_on_two_processes_survives_kill_9(
    browser: Any,
    server: Server,
) -> None:
    assert server.process is not None
    page = new_page(browser, server)
    # Without the animations (about 13 s of a hand at the fast pace): this test is
    # about the processes; test_browser.py plays a whole hand animated.
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)

    killed = False
    reloaded_at: set[int] = set()
    while not page.evaluate("document.querySelector('#summary-dialog').open"):
        position = table_position(page)
        tricks = 13 - len(position["hand"])
        if tricks == 5 and not killed:
            for pid in workers_of(server.process, 2):
                os.kill(pid, signal.SIGKILL)
            killed = True
            # Uvicorn starts new workers; how long they take to import the server is
            # the machine's (over 30 s, a reload's patience, under load): the page
            # reloads once one of them answers.
            server.wait_until_it_answers()
            page.reload()
            page.wait_for_selector("#hand .card.playable", timeout=60_000)
            assert table_position(page) == position
        elif tricks % 3 == 1 and tricks not in reloaded_at:
            reloaded_at.add(tricks)
            page.reload()  # whichever process answers shows the same table
            page.wait_for_selector("#hand .card.playable")
            assert table_position(page) == position
        click_card(page.locator("#hand .card.playable").first)
        page.wait_for_function(WAIT_FOR_SOUTH, timeout=60_000)

    assert killed and reloaded_at == {1, 4, 7, 10}
    summary = page.inner_text("#summary-body")
    assert "You & North" in summary and "West & East" in summary
    assert page.outside_requests == []
    assert page.page_errors == []
