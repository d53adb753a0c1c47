"""A new player's first hour, in Chromium: what issue 24 saw trip a newcomer up,
each checked as they would meet it.

The layout is checked at the five sizes people play at (two laptops, a desktop,
two phones): nothing cut off at the sides, no page scroll where the table
should fit, the new-game panel opening at its title, every tap target 44 px
or more on a phone, and the hand's summary keeping its buttons in view with
the result first and the review folded below it, however long the review.
Then the words and the keys: a blind Nil named and scored as one, the trick's
caption gone with its trick, the focus where the turn is, house rules that
say they were kept, a chosen seed that deals one practice game, the pace.
"""

from __future__ import annotations

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
    two_nil_bids,
)

pytestmark = NEEDS_CHROMIUM

SIZES = [(1280, 800), (1440, 900), (1920, 1080), (390, 844), (360, 740)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
PHONE_WIDTH = 760
"""At this width and below the page lays itself out for a phone (style.css)."""

LAYOUT = """() => {
    const shown = (e) => {
        const r = e.getBoundingClientRect();
        const style = getComputedStyle(e);
        return r.width > 0 && r.height > 0 && style.visibility !== 'hidden'
            && !e.closest('.sr-only, .skip-link, dialog:not([open]), details:not([open]) > :not(summary)');
    };
    const open = [...document.querySelectorAll('dialog[open]')].at(-1);
    const scope = open ?? document.body;
    // Cut off: a part of the page that reaches past either side of the window.
    const cut = [...scope.querySelectorAll('*')]
        .filter((e) => shown(e) && !e.closest('#hand, svg'))
        .filter((e) => {
            const r = e.getBoundingClientRect();
            return r.left < -0.5 || r.right > innerWidth + 0.5;
        })
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
    // What a thumb taps: a box to tick counts with its label, which ticks it too.
    const small = [...scope.querySelectorAll('button, select, input, a[href], summary, label.file-button')]
        .filter((e) => shown(e) && !e.closest('#hand'))
        .map((e) => {
            const target = ['checkbox', 'radio'].includes(e.type) ? e.closest('label') ?? e : e;
            const r = target.getBoundingClientRect();
            return [e.id || e.className || e.tagName, Math.round(r.width), Math.round(r.height)];
        })
        .filter(([, w, h]) => w < 44 || h < 44);
    return {
        scrollDown: document.documentElement.scrollHeight - innerHeight,
        scrollAcross: document.documentElement.scrollWidth - innerWidth,
        cut, small,
    };
}"""

IN_VIEW = """(ids) => ids.map((id) => {
    // Fully in the window and on top there: a click at its centre reaches it.
    const e = document.getElementById(id);
    const r = e.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && hit !== null && (hit === e || e.contains(hit));
})"""


def check_layout(page: Any, width: int, *, scrolls: bool = False) -> None:
    layout = page.evaluate(LAYOUT)
    assert layout["scrollAcross"] <= 0, layout
    assert layout["cut"] == [], layout
    if not scrolls:
        assert layout["scrollDown"] <= 0, layout
    if width <= PHONE_WIDTH:
        assert layout["small"] == [], layout


def cookie_of(page: Any) -> str:
    return str(next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player"))


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_table_fits_from_the_first_screen_to_the_play(
    browser: Any, server: Server, width: int, height: int
) -> None:
    page = new_page(browser, server, width=width, height=height)
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.wait_for_selector("#welcome-dialog[open]")
    page.wait_for_function("() => document.getElementById('rules-about').textContent")

    # The first screen opens at its title and introduction, Deal in view and focused.
    dialog = page.evaluate(
        """() => {
        const d = document.getElementById('welcome-dialog');
        const box = d.getBoundingClientRect();
        const title = document.getElementById('welcome-title').getBoundingClientRect();
        return {scrollTop: d.scrollTop, titleShown: title.top >= box.top && title.bottom <= box.bottom,
                focused: document.activeElement.id};
    }"""
    )
    assert dialog == {"scrollTop": 0, "titleShown": True, "focused": "start-game"}, dialog
    shots = screenshot_dir()
    if shots and (width, height) in ((1280, 800), (390, 844)):
        name = "first-screen.png" if width > PHONE_WIDTH else "first-screen-phone.png"
        page.screenshot(path=str(shots / name))
    assert page.evaluate(IN_VIEW, ["start-game", "welcome-rules"]) == [True, True]
    check_layout(page, width)
    # The rules are a click away, and close back to the first screen.
    page.click("#welcome-rules")
    page.wait_for_selector("#rules-dialog[open]")
    page.keyboard.press("Escape")
    assert page.evaluate("document.getElementById('welcome-dialog').open")

    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    page.wait_for_function("() => document.getElementById('bid-suggestion').textContent")
    check_layout(page, width)
    assert min(page.evaluate(TAP_STRIPS)) >= 44
    if width > PHONE_WIDTH:
        header = page.evaluate(HEADER_ROWS)
        assert header["toolRows"] == 1 and header["sameRow"], header

    page.keyboard.press("3")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    check_layout(page, width)
    # The card the keyboard focuses shows it without covering its neighbours' strips.
    assert page.evaluate(FOCUSED_CARD)
    strips = page.evaluate(TAP_STRIPS)
    assert len(strips) == 13 and min(strips) >= 44, strips

    # The statistics fit as well: the panel scrolls inside, the page does not.
    page.keyboard.press("s")
    page.wait_for_selector("#stats-dialog[open] .stat-tiles, #stats-dialog[open] .empty")
    check_layout(page, width)
    assert page.evaluate(IN_VIEW, ["stats-title"]) == [True]
    assert page.page_errors == []


def long_review(hand: int) -> dict[str, Any]:
    """A review far longer than any screen: twelve costly plays, each explained."""
    text = (
        "Your Queen of diamonds cost 1.0 trick on average: ruffing with the 2 of spades was "
        "better (over 8 deals consistent with what you had seen, it did worse than the 2 of "
        "spades in 8 and better in 0)"
    )
    plays = [
        {
            "trick": trick, "seat": "S", "card": "QD", "card_name": "Queen of diamonds",
            "yours": True, "verdict": "mistake", "lost": ["tricks"], "tricks_lost": 1.0,
            "better": "2S", "explanation": text, "deals": 8,
            "double_dummy": {"mistake": True, "tricks_lost": 1, "better": ["2S"],
                             "explanation": "ruffing with the 2 of spades was better"},
        }
        for trick in range(1, 13)
    ]  # fmt: skip
    return {
        "hand": hand, "status": "ready", "plays": plays, "tricks_lost": {"S": 12.0},
        "judged": 30, "unjudged": 0, "deals": 8, "seconds": 2.0, "detail": "",
    }  # fmt: skip


def play_to_the_last_card(server: Server, cookie: str) -> None:
    """South bids 3 and plays its first legal card through the API until the
    hand's last trick wants South's last card."""
    game = api(server, cookie, "GET", "/api/games/latest")["game"]
    while not (game["phase"] == "playing" and game["tricks_played"] == 12):
        if game["phase"] == "bidding":
            move = {"bid": 3 if 3 in game["legal_bids"] else game["legal_bids"][-1]}
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/bid", move)["game"]
        else:
            card = {"card": game["legal_cards"][0]}
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/play", card)["game"]


SUMMARY_BUTTONS = ["summary-continue", "summary-sheet", "summary-replay"]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=SIZE_IDS)
def test_the_hand_summary_shows_the_result_first_and_keeps_its_buttons_in_view(
    browser: Any, server: Server, width: int, height: int
) -> None:
    page = new_page(browser, server, width=width, height=height)
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    play_to_the_last_card(server, cookie_of(page))
    page.route("**/hands/1/review", lambda route: route.fulfill(json=long_review(1)))
    page.reload()
    page.wait_for_selector("#hand .card.playable")
    click_card(page.locator("#hand .card.playable").first)
    page.wait_for_selector("#summary-dialog[open]")
    page.wait_for_function(
        "() => document.getElementById('summary-fold-label').textContent.includes('12 costly')"
    )

    # The result first, in view; the review folded below it, saying what it found.
    assert page.inner_text("#summary-fold-label") == (
        "Review of this hand: 12 costly plays, 12 of them yours"
    )
    assert not page.evaluate("document.getElementById('summary-fold').open")
    assert page.evaluate(IN_VIEW, ["summary-title", *SUMMARY_BUTTONS]) == [True] * 4
    assert page.evaluate("document.activeElement.id") == "summary-continue"
    check_layout(page, width)

    # Unfolded and scrolled to its end, the review leaves the buttons where they were.
    page.click("#summary-fold-label")
    page.wait_for_selector("#summary-review .review-play >> nth=11")
    page.evaluate(
        "() => { const d = document.getElementById('summary-dialog'); d.scrollTop = d.scrollHeight; }"
    )
    assert page.evaluate(IN_VIEW, SUMMARY_BUTTONS) == [True] * 3
    check_layout(page, width)
    page.click("#summary-continue")
    page.wait_for_function("() => !document.getElementById('summary-dialog').open")
    assert page.page_errors == []


def test_a_blind_nil_is_named_and_scored_as_one(browser: Any, server: Server) -> None:
    """The issue's game (first to 300, blind Nil, Nil passes 2): the team box,
    the summary and the score sheet say "Blind Nil", with the 200 it is worth."""
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=11")
    page.wait_for_selector("#rules-preset option", state="attached")
    page.fill("#rules-changes", "target=300, blind_nil=on, nil_pass=2")
    page.wait_for_function(
        "() => document.getElementById('rules-about').textContent.includes('blind Nil')"
    )
    page.click("#start-game")
    page.wait_for_selector("#blind-choice:not([hidden])")
    page.click("#blind-nil-button")
    page.wait_for_function(ANSWERED)
    cookie = cookie_of(page)
    game = api(server, cookie, "GET", "/api/games/latest")["game"]
    south = next(seat for seat in game["seats"] if seat["seat"] == "S")
    assert south["bid"] == "blind_nil"
    play_to_the_last_card(server, cookie)
    page.reload()
    page.wait_for_selector("#hand .card.playable")
    assert "+Blind Nil" in page.inner_text("#team-NS")
    click_card(page.locator("#hand .card.playable").first)
    page.wait_for_selector("#summary-dialog[open]")
    summary = page.inner_text("#summary-body")
    final = api(server, cookie, "GET", "/api/games/latest")["game"]
    ours = final["score_sheet"][0]["teams"][0]
    nil = next(n for n in ours["nils"] if n["seat"] == "S")
    assert nil["kind"] == "blind_nil" and abs(nil["points"]) == 200
    if nil["made"]:
        assert "Your blind Nil made: +200" in summary
    else:
        tricks = nil["tricks"]
        assert f"Your blind Nil failed ({tricks} trick{'s' * (tricks != 1)} taken" in summary
        assert "): -200" in summary
    assert "South's" not in summary
    page.click("#summary-sheet")
    page.wait_for_selector("#sheet-dialog[open]")
    assert "Your blind Nil" in page.inner_text("#sheet-body")
    assert page.page_errors == []


def test_the_header_stays_one_row_down_to_a_small_laptop(browser: Any, server: Server) -> None:
    """Both teams bidding a number and a Nil, scores far below zero: the widest
    header there is, one row from 761 px up."""
    page = new_page(browser, server, width=1280, height=800)
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    two_nil_bids(page, server)
    for blind in (False, True):
        if blind:  # "12+Blind Nil" beside "10+Blind Nil": wider still
            blind_nil_bids(page, server)
            assert "10+Blind Nil" in page.inner_text("#team-NS")
        for width in (1280, 1180, 1024, 900, 800, 761):
            page.set_viewport_size({"width": width, "height": 800})
            header = page.evaluate(HEADER_ROWS)
            assert header["toolRows"] == 1 and header["sameRow"], (width, blind, header)
            assert header["right"] <= width and header["clipped"] == 0, (width, blind, header)


def blind_nil_bids(page: Any, server: Server) -> None:
    """As ``two_nil_bids``, each Nil a blind one."""
    state = api(server, cookie_of(page), "GET", "/api/games/latest")
    for seat in state["game"]["seats"]:
        seat["bid"] = {"N": "blind_nil", "E": "blind_nil", "S": 10, "W": 12}[seat["seat"]]
    state["game"]["teams"][0].update(bid=10, nil_seats=["N"], score=-180, bags=9)
    state["game"]["teams"][1].update(bid=12, nil_seats=["E"], score=-170, bags=9)
    page.unroute("**/api/games/latest")
    page.route("**/api/games/latest", lambda route: route.fulfill(json=state))
    page.reload()
    page.wait_for_selector("#hand .card")


def test_the_trick_caption_goes_with_its_trick(browser: Any, server: Server) -> None:
    """Who took a trick is said while it shows and until the next trick's first
    card: under a new card, the words would seem to be about it."""
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=7")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    page.keyboard.press("3")
    page.keyboard.press("Enter")
    seen = {"led by you": 0, "after a lead": 0}
    for _trick in range(8):
        page.wait_for_function(WAIT_FOR_SOUTH)
        on_table = page.locator(".trick .played").count()
        caption = page.inner_text("#trick-result").strip()
        if page.evaluate("document.getElementById('summary-dialog').open"):
            break
        if on_table:
            assert caption == "", caption
            seen["after a lead"] += 1
        elif page.evaluate("() => document.querySelectorAll('#hand .card').length") < 13:
            assert " won the trick with the " in caption
            seen["led by you"] += 1
        click_card(page.locator("#hand .card.playable").first)
    assert min(seen.values()) > 0, seen


def test_the_keyboard_starts_where_the_turn_is(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=5")
    page.wait_for_selector("#welcome-dialog[open]")
    page.wait_for_function("() => !document.getElementById('start-game').disabled")
    page.keyboard.press("Enter")  # Deal is focused
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.evaluate("document.activeElement.id") == "bidding"
    page.keyboard.press("4")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert "You bid 4" in page.inner_text("#announcer")
    assert not page.evaluate("document.getElementById('welcome-dialog').open")
    # Playing: the focus is on a card the arrows move from, Enter plays it.
    assert page.evaluate("document.activeElement.closest('#hand') !== null")
    # S opens the statistics.
    page.keyboard.press("s")
    page.wait_for_selector("#stats-dialog[open]")
    assert page.page_errors == []


def test_with_blind_nil_open_a_typed_bid_looks_at_the_cards(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=5")
    page.wait_for_selector("#rules-preset option", state="attached")
    page.fill("#rules-changes", "blind_nil=on")
    page.wait_for_function(
        "() => document.getElementById('rules-about').textContent.includes('blind Nil')"
    )
    page.focus("#start-game")
    page.keyboard.press("Enter")
    page.wait_for_selector("#blind-choice:not([hidden])")
    # The safe choice has the focus: Enter would look, never bid blind.
    assert page.evaluate("document.activeElement.id") == "look-button"
    page.keyboard.press("4")
    assert page.locator("#hand .card[data-card]").count() == 13, "typing a bid shows the cards"
    assert page.evaluate("document.activeElement.dataset.bid") == "4"
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_FOR_SOUTH)
    assert "You bid 4" in page.inner_text("#announcer")
    assert not page.evaluate("document.getElementById('welcome-dialog').open")
    assert page.page_errors == []


def test_house_rules_kept_from_the_last_game_say_so(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant")
    page.wait_for_selector("#rules-preset option", state="attached")
    assert page.is_hidden("#rules-kept"), "a first game keeps nothing"
    page.fill("#rules-changes", "target=300")
    page.wait_for_function(
        "() => document.getElementById('rules-about').textContent.includes('300')"
    )
    page.click("#start-game")
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    # The table says the target once, in the rules.
    assert page.inner_text("#hand-label") == "Hand 1"
    assert page.inner_text("#rules-pill").startswith("first to 300")

    page.click("#settings-button")
    page.wait_for_selector("#welcome-dialog[open]")
    assert page.is_visible("#rules-kept")
    assert "kept from your last game" in page.inner_text("#rules-kept")
    assert page.input_value("#rules-changes") == "target=300"
    page.click("#rules-clear")
    page.wait_for_function(
        "() => document.getElementById('rules-about').textContent === 'Playing: first to 500, out at -200.'"
    )
    assert page.input_value("#rules-changes") == "" and page.is_hidden("#rules-kept")
    assert page.page_errors == []


def test_a_chosen_seed_deals_one_practice_game(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=42")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.inner_text("#deal-pill") == "Practice deal \u00b7 seed 42"
    assert "seed=" not in page.url
    page.click("#settings-button")
    page.click("#start-game")
    page.click("#confirm-new")
    page.wait_for_function(
        "() => document.getElementById('deal-pill').textContent.includes('Fair deal')"
    )
    assert page.page_errors == []


def test_the_default_pace_is_brisk_and_the_old_one_a_setting(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#welcome-dialog[open]")
    assert page.input_value("#speed-select") == "brisk"
    pace = page.evaluate(
        """async () => {
        const motion = await import('/static/motion.js');
        return {brisk: motion.roundTrip('brisk'), relaxed: motion.roundTrip('relaxed'),
                bot: (motion.BEATS.fly + motion.BEATS.botCard)};
    }"""
    )
    # From your card to your next turn with the three others between: under two
    # seconds by default; the page's old default pace, kept as Relaxed, 4.1 s.
    assert pace["brisk"] <= 2000, pace
    assert pace["relaxed"] == 500 + 3 * 800 + 1320, pace
    # An older page's saved "normal" (the old default) reads as today's default.
    page.goto(f"{server.url}/?speed=normal")
    page.wait_for_selector("#welcome-dialog[open]")
    assert page.input_value("#speed-select") == "brisk"
    assert page.page_errors == []


def test_the_lobby_says_an_expert_bot(browser: Any, server: Server) -> None:
    page = new_page(browser, server)
    page.goto(f"{server.url}/")
    words = page.evaluate(
        """async () => {
        const { withArticle } = await import('/static/words.js');
        return ['expert', 'normal', 'easy', 'hard'].map(withArticle);
    }"""
    )
    assert words == ["an expert", "a normal", "an easy", "a hard"]
