"""House rules in the page, in Chromium: chosen in the new-game dialog, shown on
the table, a blind Nil offered with the cards face down, a Nil pass made by
clicking cards, and the game's record replaying through the engine."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from spades.core import game_from_record

from ..browsers import Server, api, click_card, new_page, screenshot_dir

RULES = "target=300, blind_nil=on, nil_pass=2"


def choose_rules(page: Any, changes: str) -> None:
    page.select_option("#rules-preset", "cardcouch")
    page.fill("#rules-changes", changes)


def test_a_game_under_house_rules_in_the_page(browser: Any, server: Server) -> None:
    shots = screenshot_dir()
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=3")
    page.wait_for_selector("#rules-preset option", state="attached")

    # A mistyped rule is explained as it is typed, and no game can be dealt under it.
    choose_rules(page, "target=300, nil_pass=7")
    page.wait_for_function(
        "() => document.querySelector('#rules-about').classList.contains('error')"
    )
    assert "rule 'nil_pass' must be from 0 to 3, got 7" in page.inner_text("#rules-about")
    assert page.is_disabled("#start-game")
    choose_rules(page, RULES)
    page.wait_for_function(
        "() => document.querySelector('#rules-about').textContent.includes('first to 300')"
    )
    assert (
        page.inner_text("#rules-about")
        == "Playing: first to 300, out at -200, Nil passes 2, blind Nil."
    )
    assert "CardCouch rule page" in page.inner_text("#rules-preset-source")
    if shots:
        page.screenshot(path=str(shots / "house-rules.png"))
    page.click("#start-game")

    # The table says which rules are played, once: the target in the rules, not twice.
    page.wait_for_selector("#blind-choice:not([hidden])")
    assert page.inner_text("#hand-label") == "Hand 1"
    assert page.inner_text("#rules-pill") == "first to 300, out at -200, Nil passes 2, blind Nil"

    # Blind Nil is open: the cards stay face down until South chooses.
    assert page.locator("#hand .card.face-down").count() == 13
    assert page.locator("#hand .card[data-card]").count() == 0
    assert page.is_hidden("#bid-buttons")
    if shots:
        page.screenshot(path=str(shots / "blind-nil.png"))
    page.click("#look-button")
    page.wait_for_selector("#bid-buttons .bid-button:not([disabled])")
    assert page.locator("#hand .card[data-card]").count() == 13
    page.click("#bid-buttons .bid-button[data-bid='nil']")

    # South bid Nil: South and North pass each other two cards, chosen by clicking.
    page.wait_for_selector("#pass-button:not([hidden])")
    assert "choose 2 cards to pass to North" in page.inner_text("#pass-prompt")
    assert page.is_disabled("#pass-button")
    chosen = [
        page.locator("#hand .card.passable").nth(i).get_attribute("data-card") for i in (0, 1)
    ]
    for card in chosen:
        click_card(page.locator(f"#hand .card[data-card='{card}']"))
    assert page.inner_text("#pass-button") == "Pass 2 of 2"
    if shots:
        page.screenshot(path=str(shots / "nil-pass.png"))
    page.click("#pass-button")
    page.wait_for_selector("#hand .card.playable, #hand .card.received")
    hand = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")
    received = page.eval_on_selector_all(
        "#hand .card.received", "cards => cards.map(c => c.dataset.card)"
    )
    assert len(received) == 2 and not set(chosen) & set(hand)

    # The rest of the game through the API with the page's cookie, then its record.
    cookie = next(c["value"] for c in page.context.cookies() if c["name"] == "spades_player")
    game = api(server, cookie, "GET", "/api/games/latest")["game"]
    for _ in range(600):
        if game["phase"] == "over":
            break
        if game["phase"] == "bidding":
            bid = 4 if 4 in game["legal_bids"] else game["legal_bids"][-1]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/bid", {"bid": bid})["game"]
        elif game["phase"] == "passing":
            cards = game["hand"][: game["passing"]["count"]]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/pass", {"cards": cards})[
                "game"
            ]
        else:
            card = game["legal_cards"][0]
            game = api(server, cookie, "POST", f"/api/games/{game['id']}/play", {"card": card})[
                "game"
            ]
    assert game["phase"] == "over" and game["target"] == 300
    with urllib.request.urlopen(
        urllib.request.Request(
            f"{server.url}/api/games/{game['id']}/record",
            headers={"Cookie": f"spades_player={cookie}"},
        ),
        timeout=30,
    ) as response:
        record = json.loads(response.read())
    assert record["rules"]["target"] == 300 and record["rules"]["nil_pass"] == 2
    replayed = game_from_record(record)
    assert replayed.is_over and replayed.rules.blind_nil
    assert any(hand.get("passes") for hand in record["hands"])
    page.reload()
    page.wait_for_selector("#gameover-dialog[open]")
    assert "first to 300" in page.inner_text("#rules-pill")
    assert page.page_errors == [] and page.console_errors == []


HOW_TO_PLAY = """() => ({
    rules: document.getElementById('rules-dialog').dataset.rules,
    text: document.querySelector('#rules-dialog .rules').innerText,
    scoring: [...document.querySelectorAll('#rules-scoring tr')].map((row) =>
        [...row.cells].map((cell) => cell.textContent)),
    passing: !document.getElementById('rules-passing-section').hidden,
})"""


def test_how_to_play_words_the_rules_of_the_game_in_play(browser: Any, server: Server) -> None:
    """The rules dialog says the game's own rules: blind Nil and its points, the
    Nil points, the bags, the target, the floor, the lead and the spade lead;
    before any game, the default ones."""
    page = new_page(browser, server)
    page.goto(f"{server.url}/?speed=instant&seed=3")
    page.wait_for_function("() => document.getElementById('rules-dialog').dataset.rules")
    default = page.evaluate(HOW_TO_PLAY)
    assert default["rules"] == "cardcouch" and not default["passing"]
    assert "No blind Nil." in default["text"] and "First team to 500 wins" in default["text"]
    assert default["scoring"][3][:2] == ["Nil failed", "\u2212100, its tricks become bags"]

    house = (
        "target=250, floor=none, blind_nil=on, blind_nil_bonus=150, nil_bonus=50, "
        "bag_limit=5, bag_penalty=50, nil_pass=1, first_lead=two_of_clubs, spades_break=off"
    )
    choose_rules(page, house)
    page.wait_for_function(
        "() => document.querySelector('#rules-about').textContent.includes('first to 250')"
    )
    # Before the deal, How to play already says the rules typed, not the default.
    typed = page.evaluate(HOW_TO_PLAY)
    assert "target=250" in typed["rules"] and "First team to 250 wins" in typed["text"]
    page.click("#start-game")
    page.wait_for_selector("#blind-choice:not([hidden])")
    page.wait_for_function(
        "() => document.getElementById('rules-dialog').dataset.rules.includes('target=250')"
    )
    page.click("#rules-button")
    page.wait_for_selector("#rules-dialog[open]")
    shown = page.evaluate(HOW_TO_PLAY)
    text = shown["text"]
    assert "No blind Nil" not in text and "\u00b1100" not in text
    assert "bid Nil blind: +150 if you take no trick, \u2212150 if you take one" in text
    assert "+50 if you manage it, \u221250 if you take even one" in text
    assert "pass each other 1 card before the play" in text and shown["passing"]
    assert "Whoever holds the two of clubs leads it to the first trick." in text
    assert "Spades may be led at any time" in text and "spades are broken" not in text
    assert "First team to 250 wins" in text and "loses on the spot" not in text
    rows = {row[0]: row[1] for row in shown["scoring"]}
    assert rows["Nil made"] == "+50" and rows["Nil failed"] == "\u221250, its tricks become bags"
    assert rows["Blind Nil made"] == "+150" and rows["Every 5 bags"] == "\u221250"
    assert page.page_errors == []
