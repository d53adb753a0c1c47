"""Playing with friends in real browsers: separate Chromium contexts (separate
people, each with their own cookies) set a table, join by invite link, play a
whole game together, and one leaves mid-hand and comes back.

The server runs in this process with the tables' clock standing still: a person
away stays "away, a bot plays in 60 s" for as long as the test looks, however
busy the machine, instead of for the minute the page counts down."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from spades.server.app import create_app

from ..browsers import (
    PAGE_TEST_APP,
    InProcessServer,
    Server,
    new_page,
    pause_clock,
    screenshot_dir,
)
from ..clocks import ManualClock

SHORT = "target=1"
"""The game ends after the first hand a team scores in: a whole game, quickly."""

PLAYS_BY_ITSELF = """(minimumHand) => {
    // This page's person makes each of their moves the moment it is theirs, with
    // the page's own buttons (cards only while they hold more than minimumHand):
    // from inside the page, so that no move waits for the test to come round.
    clearInterval(window.__plays);
    window.__plays = setInterval(() => {
        if (document.querySelector('#gameover-dialog').open) return;
        const summary = document.querySelector('#summary-dialog');
        if (summary.open) { document.getElementById('summary-continue').click(); return; }
        if (document.body.classList.contains('is-busy')) return;
        const bid = document.querySelector('#bid-buttons .bid-button:not([disabled]):not(.nil)');
        if (bid && !document.getElementById('bidding').hidden) { bid.click(); return; }
        const card = document.querySelector('#hand .card.playable');
        if (card && document.querySelectorAll('#hand .card').length > minimumHand) card.click();
    }, 20);
}"""

WAITS_FOR_ME = """(hand) => document.querySelectorAll('#hand .card').length === hand
    && document.querySelector('#hand .card.playable') !== null
    && !document.body.classList.contains('is-busy')"""

EAST_AWAY = """() => [...document.querySelectorAll('.presence.away')]
    .some(e => /bot plays in \\d+ s/.test(e.textContent))"""
"""Someone away, their seat counting down to the stand-in bot."""

GAME_OVER = "() => document.querySelector('#gameover-dialog').open"


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    """The module's server (conftest's ``server`` starts it again if need be), its
    tables on a clock no test moves: no wait or timer ever runs out here."""
    database = tmp_path_factory.mktemp("tables") / "browser.db"
    clock = ManualClock()
    app = create_app(f"sqlite:///{database}", **PAGE_TEST_APP, clock=clock, timer=clock.timer)
    running = InProcessServer(app)
    running.start()
    yield running
    running.stop()


def set_table(page: Any, server: Server, seats: dict[str, str], name: str = "Ann") -> str:
    """The host sets a table from the first page; returns the table's address."""
    page.goto(f"{server.url}/?speed=instant")
    page.get_by_role("button", name="Play with friends…").click()
    page.fill("#host-name", name)
    for seat, who in seats.items():
        if seat != "S":
            page.select_option(f"#friend-{seat}", who)
    page.fill("#rules-changes", SHORT)
    page.wait_for_function(
        "() => document.getElementById('rules-about').textContent.includes('first to 1')"
    )
    page.get_by_role("button", name="Set the table").click()
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#lobby-dialog[open]")
    url: str = page.url
    return url


def invite(page: Any, seat: str) -> str:
    link: str = page.input_value(f"#lobby-seats [data-seat='{seat}'] .invite-link")
    return link


def join(page: Any, link: str, name: str) -> None:
    page.goto(f"{link}&speed=instant")
    page.wait_for_selector("#join-form:not([hidden])")
    page.fill("#join-name", name)
    page.get_by_role("button", name="Take the seat").click()
    page.wait_for_function(
        "() => document.getElementById('lobby-status').textContent.includes('Waiting for the host')"
    )


def play_to_the_end(pages: list[Any]) -> None:
    for page in pages:
        page.evaluate(PLAYS_BY_ITSELF, 0)
    for page in pages:
        page.wait_for_function(GAME_OVER, timeout=120_000)


def hand_of(page: Any) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand .card", "bs => bs.map(b => b.dataset.card)")
    return cards


def test_two_friends_set_a_table_join_by_link_and_play_a_whole_game(
    browser: Any,
    server: Server,
) -> None:
    shots = screenshot_dir()
    ann = new_page(browser, server)
    bo = new_page(browser, server)  # another context: another person, other cookies
    set_table(ann, server, {"N": "person", "E": "normal", "W": "normal"})
    assert "North: open seat" in ann.inner_text("#lobby-seats")
    assert not ann.is_visible("#join-form")  # the host has a seat: nothing to join
    if shots:
        ann.screenshot(path=str(shots / "table-lobby.png"))
    join(bo, invite(ann, "N"), "Bo")
    # The host sees Bo arrive, live.
    ann.wait_for_function(
        "() => document.getElementById('lobby-seats').textContent.includes('North: Bo')"
    )
    ann.get_by_role("button", name="Deal").click()
    for page in (ann, bo):
        page.wait_for_function("() => !document.getElementById('lobby-dialog').open")
        page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")
    # Each sits at the bottom of their own table and sees only their own cards.
    assert "You (South)" in ann.inner_text("#seat-S") and "You (North)" in bo.inner_text("#seat-S")
    assert not set(hand_of(ann)) & set(hand_of(bo))
    assert "Bo" in ann.inner_text("#seat-N") and "Ann" in bo.inner_text("#seat-N")
    if shots:
        bo.screenshot(path=str(shots / "table-play.png"))
    # A quick reaction reaches the other side of the table.
    bo.get_by_role("button", name="React: Nice!").click()
    ann.wait_for_function(
        "() => document.querySelector('#seat-N .reaction-bubble')?.textContent === 'Nice!'"
    )
    play_to_the_end([ann, bo])
    for page in (ann, bo):
        assert page.is_visible("#gameover-dialog")
        assert not page.page_errors and not page.console_errors and not page.outside_requests
    assert ("You win!" in ann.inner_text("#gameover-title")) == (
        "You win!" in bo.inner_text("#gameover-title")
    )  # partners win or lose together


def test_four_friends_play_and_one_leaves_mid_hand_and_comes_back(
    browser: Any,
    server: Server,
) -> None:
    people = {"S": new_page(browser, server)}
    people["S"].clock.install()  # the page's time, paused while the test reads a countdown
    set_table(people["S"], server, {"N": "person", "E": "person", "W": "person"})
    links = {seat: invite(people["S"], seat) for seat in ("N", "E", "W")}
    for seat, name in (("N", "Bo"), ("E", "Cy"), ("W", "Di")):
        people[seat] = new_page(browser, server)
        people[seat].clock.install()
        join(people[seat], links[seat], name)
    host = people["S"]
    host.wait_for_function(
        "() => document.getElementById('lobby-status').textContent.includes('Everyone is here')"
    )
    host.get_by_role("button", name="Deal").click()
    pages = list(people.values())
    for page in pages:
        page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 13")
    # Play into the hand: three tricks, to the host's turn with ten cards; then
    # every other seat waits for the host.
    for page in pages:
        page.evaluate(PLAYS_BY_ITSELF, 10 if page is host else 0)
    host.wait_for_function(WAITS_FOR_ME, arg=10, timeout=60_000)
    # East closes the page mid-hand: the others are told, with the countdown.
    east_hand = hand_of(people["E"])
    east_cookies = people["E"].context.cookies()
    others = [people[seat] for seat in ("S", "N", "W")]
    for page in others:  # their countdowns stand still (the server's clock does too)
        pause_clock(page, ahead=1)
    people["E"].context.close()
    for page in others:
        page.wait_for_function(EAST_AWAY)
    # East comes back (the same person: the cookie that holds the seat) to exactly
    # where the game stands: the same cards, and the others see them back.
    east = people["E"] = new_page(browser, server)
    east.context.add_cookies(east_cookies)
    east.goto(f"{host.url.split('?')[0]}?speed=instant")
    east.wait_for_function("() => document.querySelectorAll('#hand .card').length > 0")
    assert set(hand_of(east)) <= set(east_hand) and "You (East)" in east.inner_text("#seat-S")
    for page in others:
        page.wait_for_function("() => !document.querySelector('.presence.away')")
        page.clock.resume()
    play_to_the_end(list(people.values()))
    for page in people.values():
        assert not page.page_errors and not page.console_errors


def test_a_move_answered_after_someone_left_does_not_bring_them_back(
    browser: Any, server: Server
) -> None:
    """The reply to a move is built when the move is made; the push that says
    someone left can reach the page first (they left just then). The older reply
    must not put them back "here": while the socket is open, the table's people
    are its news. The test holds North's reply to a bid until the page has shown
    East away, then lets it through."""
    people = {"S": new_page(browser, server)}
    set_table(people["S"], server, {"N": "person", "E": "person", "W": "normal"})
    links = {seat: invite(people["S"], seat) for seat in ("N", "E")}
    for seat, name in (("N", "Bo"), ("E", "Cy")):
        people[seat] = new_page(browser, server)
        join(people[seat], links[seat], name)
    north = people["N"]
    held: list[tuple[Any, Any]] = []
    north.route(f"{server.url}/api/tables/*/bid", lambda route: held.append((route, route.fetch())))
    people["S"].wait_for_function(
        "() => document.getElementById('lobby-status').textContent.includes('Everyone is here')"
    )
    people["S"].get_by_role("button", name="Deal").click()
    for seat in ("S", "E"):  # they bid when their turn comes; North bids by hand
        people[seat].wait_for_function("() => document.querySelectorAll('#hand .card').length")
        people[seat].evaluate(PLAYS_BY_ITSELF, 13)
    north.locator("#bid-buttons .bid-button:not([disabled]):not(.nil)").first.click()
    deadline = time.monotonic() + 30
    while not held:  # the server has answered the bid; the page has not been told
        assert time.monotonic() < deadline, "North's bid never reached the server"
        north.evaluate("0")  # lets Playwright run the route's handler
    people["E"].context.close()
    north.wait_for_function(EAST_AWAY)
    route, answer = held[0]
    route.fulfill(response=answer)
    north.wait_for_function("() => !document.body.classList.contains('is-busy')")
    assert north.evaluate(EAST_AWAY), "the bid's older answer brought East back"
    assert not north.page_errors and not north.console_errors


def test_the_host_frees_a_seat_and_its_new_link_seats_someone_else(
    browser: Any, server: Server
) -> None:
    ann = new_page(browser, server)
    bo = new_page(browser, server)
    cy = new_page(browser, server)
    set_table(ann, server, {"N": "person", "E": "normal", "W": "normal"})
    first_link = invite(ann, "N")
    join(bo, first_link, "Bo")
    ann.wait_for_function(
        "() => document.getElementById('lobby-seats').textContent.includes('North: Bo')"
    )
    ann.get_by_role("button", name="Free North's seat: Bo left for good").click()
    ann.wait_for_function(
        "() => document.getElementById('lobby-seats').textContent.includes('North: open seat')"
    )
    new_link = invite(ann, "N")
    assert new_link != first_link
    join(cy, new_link, "Cy")
    ann.wait_for_function(
        "() => document.getElementById('lobby-seats').textContent.includes('North: Cy')"
    )
    for page in (ann, bo, cy):
        assert not page.page_errors


def test_your_games_lists_the_tables_this_browser_sits_at(browser: Any, server: Server) -> None:
    """A table's seat is held by a cookie of the table's own address: Your games
    lists the tables this browser opened, to go back to one from the first page."""
    ann = new_page(browser, server)
    address = set_table(ann, server, {"N": "person", "E": "normal", "W": "normal"})
    ann.goto(f"{server.url}/?speed=instant")
    ann.wait_for_selector("#welcome-dialog[open]")
    ann.click("#welcome-games")
    ann.wait_for_selector("#games-list .table-item")
    item = ann.locator("#games-list .table-item")
    assert "Table with friends" in item.inner_text() and "you sit South" in item.inner_text()
    item.get_by_role("link").click()
    ann.wait_for_url(address)
    ann.wait_for_selector("#lobby-dialog[open]")
    assert "South: Ann (you)" in ann.inner_text("#lobby-seats")
    assert not ann.page_errors
