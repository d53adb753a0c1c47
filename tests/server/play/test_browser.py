"""The web game in a real browser: headless Chromium against `spades serve`.

A whole hand is played by clicking, an illegal click is refused with the
engine's message, a reload and a server restart both show the same position,
and the score sheet adds up. Set SPADES_SCREENSHOTS=docs/screenshots to save
the pictures of the table (`make screenshots`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from ..browsers import (
    ANSWERED,
    FOCUSED_CARD,
    HEADER_ROWS,
    NEEDS_CHROMIUM,
    TAP_STRIPS,
    WAIT_FOR_SOUTH,
    Server,
    api,
    click_card,
    new_page,
    screenshot_dir,
    spades_command,
    table_position,
    two_nil_bids,
)

pytestmark = NEEDS_CHROMIUM


def test_play_a_whole_hand_in_the_browser(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    # No animation: thirteen tricks at a person's pace are 13 s of waiting that
    # test nothing here (the animations have their own tests: who won each trick,
    # reduced motion, the trick caption).
    page.goto(f"{server.url}/?speed=instant&seed=7")

    # First visit: one button deals.
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    page.wait_for_function("() => document.getElementById('bid-suggestion').textContent.length > 0")
    assert "Suggested:" in page.inner_text("#bid-suggestion")
    hand = page.eval_on_selector_all("#hand .card", "bs => bs.map(b => b.dataset.card)")
    assert len(hand) == 13
    # Every card is a button named as a person says it.
    from spades.core import card_long_name, parse_card

    first = hand[0]
    assert (
        page.get_by_role("button", name=card_long_name(parse_card(first)), exact=True).count() == 1
    )
    if shots:
        page.screenshot(path=str(shots / "bidding.png"))

    # Bid with the keyboard: type 3, press Enter.
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert "You bid 3" in page.inner_text("#announcer")

    tried_illegal = reloaded = restarted = False
    tricks_seen = 0
    while not page.evaluate("document.querySelector('#summary-dialog').open"):
        position = table_position(page)
        assert position["playable"], "South's turn shows bright cards"
        dimmed = page.locator("#hand .card.dimmed")
        if not tried_illegal and dimmed.count():
            click_card(dimmed.first)
            page.wait_for_function(
                "() => document.getElementById('message').textContent.length > 0"
            )
            message = page.inner_text("#message")
            assert any(
                words in message
                for words in (
                    "You must follow suit",
                    "Spades are not broken",
                    "may not lead a spade",
                )
            ), message
            assert table_position(page) == position, "a refused card changes nothing"
            tried_illegal = True

        tricks_seen = 13 - len(position["hand"])
        if tricks_seen == 5 and not reloaded:
            page.reload()
            page.wait_for_selector("#hand .card.playable")
            assert table_position(page) == position
            reloaded = True
            if shots:
                page.screenshot(path=str(shots / "mid-hand.png"))
        if tricks_seen == 7 and not restarted:
            server.stop()
            server.start()
            page.reload()
            page.wait_for_selector("#hand .card.playable")
            assert table_position(page) == position
            restarted = True

        click_card(page.locator("#hand .card.playable").first)
        page.wait_for_function(WAIT_FOR_SOUTH, timeout=30_000)

    assert tried_illegal and reloaded and restarted

    # The hand summary: made or set for each team.
    if shots:  # the picture once the folded review's line says what it found
        page.wait_for_function(
            "() => !document.getElementById('summary-fold-label').textContent.includes('analysing')",
            timeout=180_000,
        )
        page.screenshot(path=str(shots / "hand-summary.png"))
    summary = page.inner_text("#summary-body")
    assert "You & North" in summary and "West & East" in summary
    assert "Bid" in summary or "Nil" in summary
    page.click("#summary-continue")
    page.wait_for_function(
        "() => !document.querySelector('#summary-dialog').open"
        " && document.querySelector('#bid-buttons .bid-button:not([disabled])')"
    )

    # The score sheet matches the scores shown.
    page.click("#sheet-button")
    rows = page.eval_on_selector_all(
        "#sheet-body table.sheet tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))",
    )
    assert len(rows) == 2
    totals = [int(row[-1]) for row in rows]
    teams = table_position(page)["teams"]
    assert f"score {totals[0]}" in teams[0] and f"score {totals[1]}" in teams[1]
    assert rows[0][1] == "You & North" and rows[1][1] == "West & East"
    if shots:
        page.screenshot(path=str(shots / "score-sheet.png"))
    page.keyboard.press("Escape")

    assert page.outside_requests == []
    assert page.page_errors == []


def test_phone_layout_and_keyboard_play(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server, width=390, height=844)
    page.goto(f"{server.url}/?speed=instant&seed=8")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    # Nil with the keyboard: N focuses it, Enter bids it.
    page.keyboard.press("n")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    # Play a card with the keyboard only: focus the hand, then Enter.
    page.focus("#hand .card[tabindex='0']")
    focused = page.evaluate("document.activeElement.dataset.card")
    legal = page.eval_on_selector_all("#hand .card.playable", "bs => bs.map(b => b.dataset.card)")
    assert focused in legal
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert focused not in page.eval_on_selector_all(
        "#hand .card", "bs => bs.map(b => b.dataset.card)"
    )
    # Everything fits the phone's width.
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    page.click("#hint-button")
    page.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('Hint')"
    )
    if shots:
        page.screenshot(path=str(shots / "phone.png"))
    assert page.page_errors == []


def test_the_game_ends_with_a_winner_and_a_new_game_button(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    # A game to 1 point, with the page's own cookie: the first hand a team scores
    # in ends it, and the page plays that hand by clicking to the result. (Playing
    # most of a 500-point game through the API first left the page several hands to
    # click through: the suite's slowest test, and nothing more shown.)
    game = api(server, cookie, "POST", "/api/games", {"seed": 40, "rules": "cardcouch,target=1"})[
        "game"
    ]
    assert game["phase"] != "over"
    page.reload()
    last_button = ""
    for _ in range(400):
        if page.evaluate("document.querySelector('#gameover-dialog').open"):
            break
        page.wait_for_function(
            WAIT_FOR_SOUTH
            + " || document.querySelector('#bid-buttons .bid-button:not([disabled])')"
        )
        if page.evaluate("document.querySelector('#summary-dialog').open"):
            last_button = page.inner_text("#summary-continue")
            page.click("#summary-continue")
        elif page.locator("#bid-buttons .bid-button:not([disabled])").count():
            page.click("#bid-buttons .bid-button[data-bid='4']")
        elif page.locator("#hand .card.playable").count():
            click_card(page.locator("#hand .card.playable").first)
        page.wait_for_function(ANSWERED)
    assert last_button == "See the result"  # the last hand's summary leads to the result
    title = page.inner_text("#gameover-title")
    body = page.inner_text("#gameover-body")
    assert title in ("You win!", "West and East win")
    assert "win" in body and ("reached" in body or "sank" in body)
    page.click("#gameover-new")
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.inner_text("#hand-label").startswith("Hand 1")
    assert page.page_errors == []


def test_a_first_visit_logs_no_error(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.goto(f"{server.url}/")
    page.wait_for_selector("#welcome-dialog[open]")
    page.wait_for_load_state("networkidle")
    assert failed == []
    assert page.console_errors == []
    assert page.page_errors == []


def finish_by_api(server: Server, cookie: str) -> dict[str, Any]:
    """A fair game against quick random bots, played to its end through the API
    with the page's own cookie; returns the last state."""
    body = {"partner": "random", "opponents": "random"}
    game = api(server, cookie, "POST", "/api/games", body)["game"]
    first_commitment = game["fairness"]["commitment"]
    while game["phase"] != "over":
        if game["phase"] == "bidding":
            move = api(server, cookie, "POST", f"/api/games/{game['id']}/bid", {"bid": 6})
        else:
            card = game["legal_cards"][0]
            move = api(server, cookie, "POST", f"/api/games/{game['id']}/play", {"card": card})
        game = move["game"]
        assert game["fairness"]["commitment"] == first_commitment
    return game


def test_fair_deals_show_a_commitment_then_the_seed_and_the_command(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")

    # From the first deal: the commitment, in short on the table and in full behind it.
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    state = api(server, cookie, "GET", "/api/games/latest")["game"]
    commitment = state["fairness"]["commitment"]
    pill = page.locator("#deal-pill")
    assert pill.inner_text() == f"\u2713 Fair deal \u00b7 {commitment[:8]}"
    pill.click()
    assert page.inner_text("#fair-commitment") == commitment
    assert "revealed here" in page.inner_text("#fair-body")
    assert page.locator("#fair-verify").count() == 0, "no seed while the game is on"
    if shots:
        page.screenshot(path=str(shots / "fair-deal.png"))
    page.keyboard.press("Escape")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert pill.inner_text() == f"\u2713 Fair deal \u00b7 {commitment[:8]}", "the same all game"

    # After the game: the seed, the salt, the command, and the record to run it on.
    over = finish_by_api(server, cookie)
    fair = over["fairness"]
    page.reload()
    page.wait_for_selector("#gameover-dialog[open]")
    page.click("#gameover-fair")
    text = page.inner_text("#fair-body")
    assert fair["seed"] in text and fair["salt"] in text
    assert page.inner_text("#fair-commitment") == fair["commitment"]
    assert page.inner_text("#fair-verify") == fair["verify"]
    if shots:
        page.screenshot(path=str(shots / "fair-deal-revealed.png"))
    with page.expect_download() as download:
        page.click("#fair-record")
    record = tmp_path / fair["record_file"]
    download.value.save_as(record)
    words = page.inner_text("#fair-verify").split()
    result = subprocess.run(
        [*spades_command(), *words[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert "deals verified" in result.stdout
    assert page.page_errors == []


def test_a_chosen_seed_is_marked_practice_on_the_table(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=42")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.inner_text("#deal-pill") == "Practice deal \u00b7 seed 42"
    page.click("#deal-pill")
    assert "anyone who knows the seed can work out every hand" in page.inner_text("#fair-body")
    assert page.page_errors == []


def test_new_game_asks_first_and_your_games_resumes_any_game(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    first = table_position(page)
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    first_id = api(server, cookie, "GET", "/api/games/latest")["game"]["id"]

    # "New game" on a game in progress asks first, and "Keep playing" changes nothing.
    page.click("#settings-button")
    page.click("#start-game")
    page.wait_for_selector("#confirm-dialog[open]")
    assert "Hand 1 is under way" in page.inner_text("#confirm-body")
    assert "Your games" in page.inner_text("#confirm-body")
    assert page.evaluate("document.activeElement.id") == "confirm-keep"
    page.click("#confirm-keep")
    assert table_position(page) == first
    assert len(api(server, cookie, "GET", "/api/games")["games"]) == 1

    # Confirmed, it deals a new game; the first one is kept.
    page.click("#settings-button")
    page.click("#start-game")
    page.click("#confirm-new")
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert table_position(page)["hand"] != first["hand"]

    # Your games: both unfinished games, the one on the table marked, the other resumable.
    page.click("#games-button")
    page.wait_for_selector("#games-list .game-item >> nth=1")
    items = page.locator("#games-list .game-item")
    assert items.count() == 2
    assert items.nth(0).locator("button").inner_text() == "Playing now"
    assert "Hand 1" in items.nth(1).inner_text() and "last played" in items.nth(1).inner_text()
    if shots:
        page.screenshot(path=str(shots / "your-games.png"))
    items.nth(1).get_by_role("button", name="Resume").click()
    page.wait_for_selector("#hand .card.playable")
    assert table_position(page) == first
    assert f"game={first_id}" in page.url
    # A reload stays on the game chosen, not the one dealt most recently.
    page.reload()
    page.wait_for_selector("#hand .card.playable")
    assert table_position(page) == first
    assert page.page_errors == []


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
TRICK_RESULT = """() => {
    const line = document.getElementById('trick-result');
    const part = (skip) => [...line.childNodes]
        .filter((node) => !(node.matches && node.matches(skip)))
        .map((node) => node.textContent).join('');
    return {
        shown: part('.sr-only'), spoken: part('[aria-hidden=true]'),
        live: line.getAttribute('aria-live'), fresh: line.classList.contains('fresh'),
    };
}"""


def test_who_won_each_trick_is_said_in_words(browser: Any, server: Server) -> None:
    from spades.core import card_long_name, parse_card

    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=normal&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH, timeout=30_000)
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    for trick in range(3):
        click_card(page.locator("#hand .card.playable").first)
        # While the winning card glows, the line says who took it.
        page.wait_for_selector("#trick-result.fresh", timeout=30_000)
        during = page.evaluate(TRICK_RESULT)
        page.wait_for_function(WAIT_FOR_SOUTH, timeout=30_000)
        last = api(server, cookie, "GET", "/api/games/latest")["game"]["last_trick"]
        card = next(p["card"] for p in last["cards"] if p["seat"] == last["winner"])
        who = {"N": "North", "E": "East", "W": "West", "S": "You"}[last["winner"]]
        short = ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]]
        after = page.evaluate(TRICK_RESULT)
        assert during["shown"] == f"{who} won the trick with the {short}", (trick, during)
        assert (
            during["spoken"] == f"{who} won the trick with the {card_long_name(parse_card(card))}"
        )
        assert during["live"] == "polite"
        # The words stay until the next trick's first card, and go with it.
        if page.locator(".trick .played").count():
            assert after["shown"] == "", (trick, after)
        else:
            assert after["shown"] == during["shown"], (trick, after)
    assert page.page_errors == []


SHEET_FITS = """() => {
    const box = document.getElementById('sheet-body');
    const right = box.getBoundingClientRect().right;
    const cut = [...box.querySelectorAll('th, td')]
        .filter((cell) => cell.getBoundingClientRect().right > right + 0.5)
        .map((cell) => cell.textContent);
    return {scroll: box.scrollWidth, client: box.clientWidth, cut};
}"""


def long_sheet(server: Server, cookie: str) -> dict[str, Any]:
    """A finished practice game whose sheet has long lines: Nils failed and made,
    sets, bag penalties, totals in the hundreds below zero."""
    body = {"partner": "random", "opponents": "random", "seed": 5}
    game = api(server, cookie, "POST", "/api/games", body)["game"]
    bids = ["nil", 2, 13, 1]
    while game["phase"] != "over":
        if game["phase"] == "bidding":
            bid = bids[game["hand_number"] % len(bids)]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/bid", {"bid": bid})["game"]
        else:
            card = game["legal_cards"][-1]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/play", {"card": card})[
                "game"
            ]
    return game


def test_the_score_sheet_fits_its_box_on_a_desktop_and_a_phone(
    browser: Any, server: Server
) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    game = long_sheet(server, cookie)
    totals = {str(team["total"]) for team in game["score_sheet"][-1]["teams"]}
    assert any(total.startswith("-") and len(total) >= 4 for total in totals)
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.reload()
        page.wait_for_selector("#gameover-dialog[open]")
        page.click("#gameover-sheet")
        page.wait_for_selector("#sheet-dialog[open]")
        fit = page.evaluate(SHEET_FITS)
        assert fit["scroll"] <= fit["client"], (width, fit)
        assert fit["cut"] == [], (width, fit)
        shown = page.eval_on_selector_all(
            "#sheet-body .col-total", "cells => cells.map(c => c.textContent)"
        )
        assert any(total in text for text in shown[-2:] for total in totals), shown
        page.keyboard.press("Escape")
    assert page.page_errors == []


def test_the_header_stays_one_row_at_1280_with_two_nil_bids(browser: Any, server: Server) -> None:
    page = new_page(browser, server, width=1280, height=800)
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    two_nil_bids(page, server)
    assert "+Nil" in page.inner_text("#team-NS") and "+Nil" in page.inner_text("#team-EW")
    header = page.evaluate(HEADER_ROWS)
    assert header["toolRows"] == 1 and header["sameRow"], header
    assert header["right"] <= 1280 and header["clipped"] == 0, header


BID_BUTTON_SIZES = """() => [...document.querySelectorAll('#bid-buttons .bid-button')]
    .map((b) => [b.getBoundingClientRect().width, b.getBoundingClientRect().height])"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_on_a_phone_every_card_and_bid_is_big_enough_to_tap(
    browser: Any, server: Server, width: int, height: int
) -> None:
    page = new_page(browser, server, width=width, height=height)
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    sizes = page.evaluate(BID_BUTTON_SIZES)
    assert len(sizes) == 14 and min(min(w, h) for w, h in sizes) >= 44, sizes
    assert min(page.evaluate(TAP_STRIPS)) >= 44
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    # Bid by keyboard, the play starts with a card focused: its focus shows, and
    # covers no neighbour's strip (a focused card once stacked over the next one).
    assert page.evaluate(FOCUSED_CARD)
    strips = page.evaluate(TAP_STRIPS)
    assert len(strips) == 13 and min(strips) >= 44, strips
    two_nil_bids(page, server)
    header = page.evaluate(HEADER_ROWS)
    assert header["right"] <= width and header["clipped"] == 0, header
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.page_errors == []
