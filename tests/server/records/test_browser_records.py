"""Records, replays, the post-hand review, sounds, the light theme and reduced
motion, in headless Chromium against `spades serve` (fixtures of test_browser).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from spades.core import game_from_record, game_to_record
from spades.core.cards import card_name
from spades.core.record import record_to_json

from ..browsers import (
    NEEDS_CHROMIUM,
    WAIT_FOR_SOUTH,
    Server,
    api,
    click_card,
    new_page,
    pause_clock,
    screenshot_dir,
)
from .stories import a_story, finished_game, revoked_record

pytestmark = NEEDS_CHROMIUM

BID_OR_CARD = (
    WAIT_FOR_SOUTH + " || document.querySelector('#bid-buttons .bid-button:not([disabled])')"
)


SERVE_OPTIONS = ("--review-deals", "8")
"""Reviews on 8 deals a play: the page is what is tested here, not the judgement."""


def deal_in_page(page: Any, server: Server, query: str = "speed=instant&seed=7") -> str:
    """Open the page, deal, and return the page's cookie."""
    page.goto(f"{server.url}/?{query}")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    return str(next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player"))


def play_by_api(server: Server, cookie: str, *, until_hand: int, stop_at_trick: int = 14) -> None:
    """South bids 3 and plays its first legal card until hand ``until_hand`` (or,
    in the hand before it, until ``stop_at_trick`` tricks have been played)."""
    game = api(server, cookie, "GET", "/api/games/latest")["game"]
    while game["hand_number"] < until_hand:
        if game["phase"] == "bidding":
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/bid", {"bid": 3})["game"]
        elif game["tricks_played"] + 1 >= stop_at_trick:
            return
        else:
            card = game["legal_cards"][0]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/play", {"card": card})[
                "game"
            ]


def seat_cards(page: Any, seat: str) -> dict[str, int]:
    counts: dict[str, int] = page.evaluate(
        """(seat) => ({
            faces: document.querySelectorAll(`#rp-${seat} .rp-card[data-card]`).length,
            backs: document.querySelectorAll(`#rp-${seat} .rp-card.back`).length,
        })""",
        seat,
    )
    return counts


def test_download_and_replay_your_game(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    cookie = deal_in_page(page, server)
    play_by_api(server, cookie, until_hand=2)
    page.reload()
    page.wait_for_function(BID_OR_CARD)

    page.click("#games-button")  # Records is reached from Your games (or the R key)
    page.click("#games-records")
    page.wait_for_selector("#records-games .records-game")
    assert "hand in progress stays out" in page.inner_text("#records-download-note")
    with page.expect_download() as download:
        page.click("#records-download")
    record = json.loads(Path(download.value.path()).read_text())
    assert download.value.suggested_filename.startswith("spades-")
    assert len(record["hands"]) == 1 and record["seed"] is None
    game_from_record(record)
    if shots:
        page.screenshot(path=str(shots / "records.png"))

    page.click("#records-replay")
    page.wait_for_function("() => document.querySelector('#replay-dialog').open")
    # Hand 2 is being played: only South's cards are shown.
    assert page.input_value("#rp-hand-picker") == "1"
    assert seat_cards(page, "S")["faces"] == 13
    for seat in "NEW":
        assert seat_cards(page, seat) == {"faces": 0, "backs": 13}, seat

    # Hand 1 is over: every card, stepped through with the keyboard.
    page.keyboard.press("PageUp")
    assert "Hand 1, " in page.inner_text("#replay-where")
    assert all(seat_cards(page, seat)["faces"] == 13 for seat in "NESW")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#rp-step") == "Card 5 of 52"
    assert "trick 2:" in page.inner_text("#replay-where")
    assert page.locator("#rp-trick .played").count() == 1
    assert sum(seat_cards(page, seat)["faces"] for seat in "NESW") == 52 - 5
    page.keyboard.press("ArrowDown")  # to the end of trick 2
    assert page.inner_text("#rp-step") == "Card 8 of 52"
    assert "wins the trick with the" in page.inner_text("#replay-where")
    assert page.locator("#rp-trick .played.winner").count() == 1
    if shots:
        page.screenshot(path=str(shots / "replay.png"))
    page.get_by_role("button", name="Previous card").click()
    assert page.inner_text("#rp-step") == "Card 7 of 52"
    page.keyboard.press("End")
    assert "End of the hand" in page.inner_text("#replay-where")
    assert "North-South" in page.inner_text("#replay-result")
    page.keyboard.press("Home")
    assert page.inner_text("#rp-step") == "Card 0 of 52"
    assert page.get_by_role("button", name="Previous hand").is_disabled()
    page.keyboard.press("Escape")
    assert not page.evaluate("document.querySelector('#replay-dialog').open")
    page.keyboard.press("r")  # Records from the keyboard
    page.wait_for_function("() => document.querySelector('#records-dialog').open")
    assert page.page_errors == [] and page.outside_requests == []


def test_open_a_record_file_and_refuse_a_broken_one(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    # Before any game: the welcome panel leads to Records.
    page.click("#welcome-records")
    page.wait_for_function("() => document.querySelector('#records-dialog').open")

    broken = tmp_path / "broken.json"
    broken.write_text(revoked_record())
    page.set_input_files("#records-file", str(broken))
    page.wait_for_function("() => !document.getElementById('records-message').hidden")
    message = page.inner_text("#records-message")
    assert message.startswith("broken.json cannot be opened.")
    assert "line 1 is broken at line " in message and ": hand 1, trick 1, East's " in message
    assert "East must follow suit" in message or "East does not hold" in message
    assert not page.evaluate("document.querySelector('#replay-dialog').open")

    games = [finished_game(11), finished_game(12)]
    good = tmp_path / "games.jsonl"
    good.write_text("".join(record_to_json(game_to_record(g)) + "\n" for g in games))
    page.set_input_files("#records-file", str(good))
    page.wait_for_function("() => document.querySelector('#replay-dialog').open")
    assert page.inner_text("#replay-title") == "games.jsonl (game 1 of 2)"
    assert all(seat_cards(page, seat)["faces"] == 13 for seat in "NESW")
    assert "won" in page.inner_text("#replay-ending")
    options = page.eval_on_selector_all("#rp-hand-picker option", "os => os.length")
    assert options == len(games[0].history)
    page.select_option("#rp-file-game-select", "2")
    page.wait_for_function(
        "() => document.getElementById('replay-title').textContent.includes('game 2 of 2')"
    )
    options = page.eval_on_selector_all("#rp-hand-picker option", "os => os.length")
    assert options == len(games[1].history)
    assert page.page_errors == []


def test_a_record_with_an_undo_and_claims_in_the_viewer(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """Hand 1 of the story: a card taken back, a claim refused, one that held."""
    story = a_story()
    state = story.game.history[0].state
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    page.click("#welcome-records")
    page.wait_for_function("() => document.querySelector('#records-dialog').open")
    path = tmp_path / "claims.json"
    path.write_text(json.dumps(game_to_record(story.game), indent=2))
    page.set_input_files("#records-file", str(path))
    page.wait_for_function("() => document.querySelector('#replay-dialog').open")
    page.keyboard.press("End")
    assert page.inner_text("#rp-step") == f"Card {story.held_at} of {story.held_at}"
    where = page.inner_text("#replay-where")
    assert "South claims" in where and "the claim holds and ends the hand" in where
    last = [card_name(c) for c in state.trick] or [card_name(state.tricks[-1].cards[-1])]
    shown = page.eval_on_selector_all("#rp-trick .played", "cs => cs.map((c) => c.dataset.card)")
    assert shown[-1] == last[-1]  # the cards that stood, up to the claim
    notes = page.inner_text("#replay-result .rp-notes")
    assert "the claim held" in notes and "You took back a move in this hand." in notes
    assert page.page_errors == []


COUNT_REVIEWS_ASKED = """
// How often the page asks for a review, and how many of the answers it has read:
// once both are equal, the page's review loop is waiting on its timer.
window.__reviewsAsked = 0;
window.__reviewsRead = 0;
const fetchAsBefore = window.fetch;
window.fetch = async (resource, ...rest) => {
    const review = String(resource.url ?? resource).includes('/review');
    if (review) window.__reviewsAsked += 1;
    const response = await fetchAsBefore(resource, ...rest);
    if (review) {
        const read = response.json.bind(response);
        response.json = async () => {
            const body = await read();
            window.__reviewsRead += 1;
            return body;
        };
    }
    return response;
};
"""


def reviews_asked_once_read(page: Any) -> int:
    """The number of times the page has asked for the review, once it has read
    every answer (the page's clock stands still: the loop then waits on its timer)."""
    # No sleep: each evaluate lets Playwright answer the page's request from the
    # test's route, so the answer arrives as this asks; the deadline is only for a
    # page that stopped reading answers at all.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        asked, read = page.evaluate("[window.__reviewsAsked, window.__reviewsRead]")
        if asked == read:
            return int(asked)
    raise AssertionError(f"the page read {read} of the {asked} reviews it asked for")


def test_closing_the_summary_stops_asking_for_its_review(browser: Any, server: Server) -> None:
    """The page asks for the hand's review every second while it is analysing,
    and no more once the summary is closed. The test holds the server's answer
    (always "analysing") and the page's clock, so nothing is left to timing."""
    page = new_page(browser, server)
    page.add_init_script(COUNT_REVIEWS_ASKED)
    page.route(
        "**/api/games/*/hands/*/review",
        lambda route: route.fulfill(status=202, json={"status": "analysing"}),
    )
    page.clock.install()
    cookie = deal_in_page(page, server)
    play_by_api(server, cookie, until_hand=2, stop_at_trick=13)
    page.reload()
    page.wait_for_selector("#hand .card.playable")
    click_card(page.locator("#hand .card.playable").first)
    page.wait_for_function("() => document.querySelector('#summary-dialog').open", timeout=30_000)
    page.wait_for_function("() => window.__reviewsAsked >= 1")
    # From here the page's clock stands still and moves only when the test says.
    pause_clock(page, ahead=0.1)
    asked = reviews_asked_once_read(page)
    page.clock.run_for(1000)  # a second of the page's time: it asks again ...
    assert page.evaluate("window.__reviewsAsked") == asked + 1
    asked = reviews_asked_once_read(page)
    assert "analysing" in page.inner_text("#summary-fold-label")

    page.click("#summary-continue")
    assert not page.evaluate("document.querySelector('#summary-dialog').open")
    # The dialog's "close" event comes as a task of its own after the click: until
    # its handler has taken the analysing review off the page, a timer run now
    # could still find the review there and ask (the race one run in four lost).
    page.wait_for_function("() => !document.querySelector('#summary-review[aria-busy=\"true\"]')")
    page.clock.run_for(10_000)  # ... and, the summary closed, not once in ten
    assert page.evaluate("window.__reviewsAsked") == asked
    assert page.page_errors == []


def test_the_hand_summary_brings_the_review(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    cookie = deal_in_page(page, server)
    play_by_api(server, cookie, until_hand=2, stop_at_trick=13)
    page.reload()
    page.wait_for_selector("#hand .card.playable")
    click_card(page.locator("#hand .card.playable").first)
    page.wait_for_function("() => document.querySelector('#summary-dialog').open", timeout=30_000)
    # The review is folded below the result: unfolded, it is analysing at first
    # (computed in the background), then the verdicts, and its line says what it found.
    page.click("#summary-fold-label")
    page.wait_for_function(
        "() => document.querySelector('#summary-review .review-title')", timeout=180_000
    )
    assert "costly play" in page.inner_text("#summary-fold-label")
    review = page.inner_text("#summary-review")
    assert "costly play" in review or "No costly play" in review
    assert "plays weighed, up to 8 deals each" in review
    items = page.locator("#summary-review .review-play")
    for index in range(items.count()):
        text = items.nth(index).inner_text()
        assert "Trick " in text and ("better" in text or "could not have known" in text)
    if shots:
        page.screenshot(path=str(shots / "hand-review.png"))

    # The same review from the replay of the hand.
    page.click("#summary-replay")
    page.wait_for_function("() => document.querySelector('#replay-dialog').open")
    page.keyboard.press("End")
    page.get_by_role("button", name="Review this hand").click()
    page.wait_for_function(
        "() => document.querySelector('#replay-result .review .review-title')", timeout=30_000
    )
    assert page.inner_text("#replay-result .review .review-title") == page.inner_text(
        "#summary-review .review-title"
    )
    assert page.page_errors == []


SPY = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__animations += 1; return animate.apply(this, args); };
window.__sounds = 0;
class FakeAudio {
  constructor() { this.state = "running"; this.currentTime = 0; this.sampleRate = 8000; this.destination = {}; }
  resume() { return Promise.resolve(); }
  node() {
    const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {}, value: 0 };
    return { connect: (next) => next, start() { window.__sounds += 1; }, stop() {},
             frequency: param, gain: param, Q: param, type: "" };
  }
  createOscillator() { return this.node(); }
  createGain() { return this.node(); }
  createBiquadFilter() { return this.node(); }
  createBufferSource() { return this.node(); }
  createBuffer(_c, length) { return { getChannelData: () => new Float32Array(length) }; }
}
window.AudioContext = FakeAudio;
"""


def spied_page(browser: Any, server: Server, *, reduced: bool) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    context.add_init_script(SPY)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.page_errors = errors
    return page


def bid_and_wait(page: Any) -> None:
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)


def test_reduced_motion_means_no_animation(browser: Any, server: Server) -> None:
    moving = spied_page(browser, server, reduced=False)
    moving.goto(f"{server.url}/?speed=fast&seed=7")
    moving.get_by_role("button", name="Deal").click()
    moving.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    bid_and_wait(moving)
    assert moving.evaluate("window.__animations") > 0  # the spy sees animations ...

    still = spied_page(browser, server, reduced=True)
    still.goto(f"{server.url}/?speed=fast&seed=7")
    still.get_by_role("button", name="Deal").click()
    still.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    bid_and_wait(still)
    assert still.evaluate("window.__animations") == 0  # ... and none here
    durations = still.evaluate(
        "() => ['#hand .card', '.seat', '.bid-button'].map(s => document.querySelector(s))"
        ".filter(Boolean).map(e => getComputedStyle(e).transitionDuration)"
    )
    assert durations and set(durations) == {"0s"}
    assert still.page_errors == [] and moving.page_errors == []


def test_sounds_are_off_until_turned_on_and_remembered(browser: Any, server: Server) -> None:
    page = spied_page(browser, server, reduced=False)
    page.goto(f"{server.url}/?speed=instant&seed=9")
    assert not page.is_checked("#sound-toggle")  # the welcome panel shows the setting: off
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    bid_and_wait(page)
    assert page.evaluate("window.__sounds") == 0

    page.click("#settings-button")
    page.check("#sound-toggle")
    page.click("#cancel-new-game")
    after_toggle = page.evaluate("window.__sounds")
    assert after_toggle > 0  # a sample at once
    click_card(page.locator("#hand .card.playable").first)
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert page.evaluate("window.__sounds") > after_toggle + 3  # cards, and your turn

    page.reload()
    page.wait_for_function(WAIT_FOR_SOUTH)
    page.click("#settings-button")
    assert page.is_checked("#sound-toggle")
    assert page.page_errors == []


def test_the_light_theme_is_a_choice_that_stays(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    deal_in_page(page, server, "speed=instant&seed=10")
    felt = page.evaluate("getComputedStyle(document.body).backgroundImage")
    assert page.evaluate("document.documentElement.dataset.theme") == "felt"
    page.click("#settings-button")
    page.select_option("#theme-select", "light")
    page.click("#cancel-new-game")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    light = page.evaluate("getComputedStyle(document.body).backgroundImage")
    assert light != felt
    ink = page.evaluate("getComputedStyle(document.querySelector('.seat-name')).color")
    assert ink == "rgb(31, 42, 36)"  # dark text on the light table
    page.reload()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    if shots:
        page.screenshot(path=str(shots / "light-theme.png"))
    assert page.page_errors == []
