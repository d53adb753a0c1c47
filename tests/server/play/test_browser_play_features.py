"""The table tools and the new views in Chromium: the last trick, undo, claims,
statistics and each seat's level. Set SPADES_SCREENSHOTS=docs/screenshots to
save their pictures (`make screenshots`)."""

from __future__ import annotations

from typing import Any

import pytest

from spades.arena import play_game, seat_bots
from spades.core import SOUTH, claim_terms
from spades.solver import Solver
from spades.storage import GameRepository, owner_key

from ..browsers import (
    ANSWERED,
    NEEDS_CHROMIUM,
    WAIT_FOR_SOUTH,
    Server,
    api,
    click_card,
    new_page,
    screenshot_dir,
    table_position,
)

pytestmark = NEEDS_CHROMIUM


SOUTH_TO_PLAY = "() => document.querySelector('#hand .card.playable')"


def deal(page: Any, server: Server, query: str = "speed=instant&seed=7") -> str:
    """Open the page, deal, and return the player's cookie."""
    page.goto(f"{server.url}/?{query}")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    return str(next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player"))


def bid_and_play(page: Any, cards: int) -> None:
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    for _ in range(cards):
        click_card(page.locator("#hand .card.playable").first)
        page.wait_for_function(WAIT_FOR_SOUTH)


def latest(server: Server, cookie: str) -> dict[str, Any]:
    game: dict[str, Any] = api(server, cookie, "GET", "/api/games/latest")["game"]
    return game


def test_the_last_trick_by_button_and_key_while_play_goes_on(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    cookie = deal(page, server)
    bid_and_play(page, 2)
    assert page.is_hidden("#last-trick")

    page.keyboard.press("l")
    page.wait_for_selector("#last-trick:not([hidden])")
    assert page.get_attribute("#last-trick-button", "aria-expanded") == "true"
    trick = latest(server, cookie)["last_trick"]
    shown = page.eval_on_selector_all("#last-trick .mini-card", "cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == sorted(p["card"] for p in trick["cards"])
    won = page.eval_on_selector("#last-trick .mini.won .mini-card", "c => c.dataset.card")
    assert won == next(p["card"] for p in trick["cards"] if p["seat"] == trick["winner"])
    caption = page.inner_text("#last-trick-caption")
    winner = {"N": "North", "E": "East", "S": "you", "W": "West"}[trick["winner"]]
    assert f"{winner} won with the" in caption
    if shots:
        page.screenshot(path=str(shots / "last-trick.png"))

    # The panel stays open and follows the play: a card is played through it.
    click_card(page.locator("#hand .card.playable").first)
    page.wait_for_function(WAIT_FOR_SOUTH)
    newer = latest(server, cookie)["last_trick"]
    shown = page.eval_on_selector_all("#last-trick .mini-card", "cs => cs.map(c => c.dataset.card)")
    assert sorted(shown) == sorted(p["card"] for p in newer["cards"])

    page.click("#last-trick-button")
    assert page.is_hidden("#last-trick")
    page.keyboard.press("l")
    page.keyboard.press("Escape")
    assert page.is_hidden("#last-trick")
    assert page.page_errors == []


def test_undo_takes_back_a_card_in_the_browser(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    deal(page, server)
    assert page.is_disabled("#undo-button")  # nothing of South's in this hand yet
    bid_and_play(page, 3)
    before = table_position(page)
    click_card(page.locator("#hand .card.playable").last)
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert table_position(page) != before
    page.keyboard.press("u")
    page.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('Taken back')"
    )
    assert table_position(page) == before
    assert "Taken back: your" in page.inner_text("#message")
    assert "Taken back" in page.inner_text("#announcer")
    # Back to the bid: the bidding opens again.
    while (
        page.is_enabled("#undo-button")
        and not page.locator("#bid-buttons .bid-button:not([disabled])").count()
    ):
        page.click("#undo-button")
        page.wait_for_function(ANSWERED)
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.page_errors == []


def late_game(server: Server, cookie: str, *, holds: bool) -> dict[str, Any]:
    """Through the API with the page's cookie: a game with few tricks left in which
    a claim of every trick left holds (or does not), checked on the server's database."""
    repository = GameRepository(server.db_url)
    try:
        for seed in range(20, 40):
            game: dict[str, Any] = api(server, cookie, "POST", "/api/games", {"seed": seed})["game"]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/bid", {"bid": 3})["game"]
            if game["seats"][0]["bid"] == "nil":
                continue
            while game["phase"] == "playing" and game["hand_number"] == 1:
                if game["tricks_played"] >= 8:
                    stored = repository.load(owner_key(cookie), game["id"])
                    assert stored is not None
                    state = stored.game.hand
                    left = game["claim"]["tricks_left"]
                    best = Solver().tricks(state, claim_terms(state, SOUTH, left).counted)
                    if (best == left) == holds:
                        return game
                card = game["legal_cards"][0]
                game = api(server, cookie, "POST", f"/api/games/{game['id']}/play", {"card": card})[
                    "game"
                ]
    finally:
        repository.close()
    raise AssertionError("no such position")  # pragma: no cover


def test_a_claim_that_holds_ends_the_hand(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    cookie = deal(page, server)
    game = late_game(server, cookie, holds=True)
    page.reload()
    page.wait_for_function(SOUTH_TO_PLAY)
    page.keyboard.press("c")
    page.wait_for_selector("#claim-dialog[open]")
    left = game["claim"]["tricks_left"]
    assert page.input_value("#claim-tricks") == str(left)  # all of them, first
    assert page.inner_text("#claim-note")
    if shots:
        page.screenshot(path=str(shots / "claim.png"))
    page.click("#claim-submit")
    page.wait_for_selector("#summary-dialog[open]")
    assert "the claim held" in page.inner_text("#summary-body")
    assert "Claim accepted" in page.inner_text("#announcer")
    assert page.page_errors == []


def test_a_refused_claim_says_so_and_play_goes_on(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    cookie = deal(page, server)
    late_game(server, cookie, holds=False)
    page.reload()
    page.wait_for_function(SOUTH_TO_PLAY)
    before = table_position(page)
    page.click("#claim-button")
    page.click("#claim-submit")
    page.wait_for_function(
        "() => document.getElementById('message').textContent.includes('Claim refused')"
    )
    assert table_position(page) == before
    assert page.is_disabled("#claim-button")  # one claim a trick
    while not page.evaluate("document.querySelector('#summary-dialog').open"):
        click_card(page.locator("#hand .card.playable").first)
        page.wait_for_function(WAIT_FOR_SOUTH)
    assert "The defence that beat it: trick" in page.inner_text("#summary-body")
    assert page.page_errors == []


def test_statistics_view_with_charts(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    cookie = deal(page, server)
    repository = GameRepository(server.db_url)
    try:
        for seed, level in [(1, "easy"), (2, "easy"), (3, "normal"), (4, "normal"), (6, "random")]:
            levels = {0: "normal", 1: level, 2: "normal", 3: level}
            game = play_game(seat_bots(levels, seed), seed=seed)
            repository.create(owner_key(cookie), game, partner_level="normal", opponent_level=level)
    finally:
        repository.close()
    stats = api(server, cookie, "GET", "/api/statistics")
    page.click("#sheet-button")
    page.click("#sheet-dialog .stats-link")
    page.wait_for_selector("#stats-body .stat-tiles")
    tiles = page.eval_on_selector_all(
        ".stat-tile", "ts => ts.map(t => t.innerText.replace(/\\n/g, ' '))"
    )
    assert tiles[0] == "6 games"
    assert tiles[1] == f"{stats['won']}–{stats['lost']} won–lost"
    labels = page.eval_on_selector_all(
        "svg.chart", "cs => cs.map(c => c.getAttribute('aria-label'))"
    )
    assert any(label.startswith("against easy:") for label in labels)
    assert any(
        label.startswith(f"Points in each of your last {len(stats['recent'])} hands")
        for label in labels
    )
    bars = page.eval_on_selector_all("svg.chart rect", "rs => rs.length")
    assert bars > len(stats["recent"])
    if shots:
        page.screenshot(path=str(shots / "statistics.png"))
    page.keyboard.press("Escape")
    assert page.evaluate("document.querySelector('#sheet-dialog').open")  # back where it was opened

    phone = new_page(browser, server, width=390, height=844)
    phone.context.add_cookies([{"name": "spades_player", "value": cookie, "url": server.url}])
    phone.goto(f"{server.url}/?speed=instant")
    # The game played last is the last one stored, finished: its result offers the statistics.
    phone.wait_for_selector("#gameover-dialog[open]")
    phone.click("#gameover-dialog .stats-link")
    phone.wait_for_selector("#stats-body .stat-tiles")
    assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    width = phone.eval_on_selector("#stats-body svg.chart", "c => c.getBoundingClientRect().width")
    assert 0 < width <= 390
    assert page.page_errors == [] and phone.page_errors == []


def test_each_seat_has_its_level_in_the_new_game_dialog(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    cookie = deal(page, server)
    page.click("#settings-button")
    page.select_option("#west-level", "random")
    page.select_option("#east-level", "easy")
    about = page.inner_text("#west-level-about")
    assert "random" in about.lower()
    assert page.inner_text("#east-level-about") != about
    page.uncheck("#undo-setting")
    if shots:
        page.screenshot(path=str(shots / "new-game.png"))
    page.click("#start-game")
    page.wait_for_selector("#confirm-dialog[open]")  # the game dealt first is still going on
    with page.expect_response(
        lambda r: r.url.endswith("/api/games") and r.request.method == "POST"
    ):
        page.click("#confirm-new")
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert "random" in page.inner_text("#seat-W").lower()
    assert "easy" in page.inner_text("#seat-E").lower()
    assert page.is_hidden("#undo-button")
    settings = latest(server, cookie)["settings"]
    assert (settings["west"], settings["east"], settings["undo"]) == ("random", "easy", False)
    # Your games names each opponent's level when the two differ.
    page.click("#games-button")
    page.wait_for_selector("#games-list .game-item >> nth=1")
    assert "West random, East easy" in page.inner_text("#games-list .game-item >> nth=0")
    page.keyboard.press("Escape")
    # The choices are remembered for the next game.
    page.click("#settings-button")
    assert page.input_value("#west-level") == "random"
    assert not page.is_checked("#undo-setting")
    assert page.page_errors == []


TOOLS_FIT = """() => {
    const tools = document.getElementById('table-tools');
    const buttons = [...tools.querySelectorAll('button')].filter((b) => !b.hidden);
    const panel = document.getElementById('last-trick').getBoundingClientRect();
    return {
        shown: getComputedStyle(tools).display !== 'none',
        right: Math.max(...buttons.map((b) => b.getBoundingClientRect().right)),
        panelRight: panel.right,
        scroll: document.documentElement.scrollWidth,
    };
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (360, 740)])
def test_the_table_tools_fit_a_phone(browser: Any, server: Server, width: int, height: int) -> None:
    """Last trick, Undo and Claim sit under South's seat without widening the page; while
    the hand is bid (when none of them has anything to do) they give their row to the cards."""
    page = new_page(browser, server, width=width, height=height)
    deal(page, server)
    assert page.evaluate(TOOLS_FIT)["shown"] is False
    bid_and_play(page, 1)
    fit = page.evaluate(TOOLS_FIT)
    assert fit["shown"] and fit["right"] <= width and fit["scroll"] <= width, fit
    page.keyboard.press("l")
    page.wait_for_selector("#last-trick:not([hidden])")
    fit = page.evaluate(TOOLS_FIT)
    assert fit["panelRight"] <= width and fit["scroll"] <= width, fit
    assert page.page_errors == []
