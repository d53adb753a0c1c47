"""The terminal words each Nil as it was scored (kind and points, a double Nil
scored as one once), and says "Spades are broken." when the engine says a card
broke them: never under ``spades_break=off``."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from spades.analysis import HandReview
from spades.cli import analyze
from spades.cli.play import TerminalGame, score_sheet, team_result
from spades.cli.summary import print_game_summary
from spades.core import BLIND_NIL, NIL, Game, parse_rules
from spades.core.game import CardPlayed
from tests.helpers import ALL_SPADES, LOW_HAND, LOW_NORTH, nil_game

BLIND = "cardcouch,blind_nil=on"
DOUBLE = "cardcouch,double_nil_bonus=200"


@pytest.mark.parametrize(
    ("rules", "bids", "north", "south", "result"),
    [
        (BLIND, {0: 4, 1: 3, 2: BLIND_NIL, 3: 4}, "", LOW_HAND, "bid 4 set; S blind Nil made +200"),
        (
            BLIND,
            {0: 4, 1: 3, 2: BLIND_NIL, 3: 4},
            "",
            ALL_SPADES,
            "bid 4 set; S blind Nil failed -200; bag penalty -100",
        ),
        (DOUBLE, {0: NIL, 1: 3, 2: NIL, 3: 4}, LOW_NORTH, LOW_HAND, "NS double Nil made +200"),
        (
            DOUBLE,
            {0: NIL, 1: 3, 2: NIL, 3: 4},
            "",
            ALL_SPADES,
            "NS double Nil failed -200; bag penalty -100",
        ),
        ("cardcouch", {0: 4, 1: 3, 2: NIL, 3: 4}, "", LOW_HAND, "bid 4 set; S Nil made +100"),
    ],
    ids=["blind Nil made", "blind Nil failed", "double Nil made", "double Nil failed", "Nil"],
)
def test_the_score_sheet_says_what_each_nil_was_scored(
    rules: str, bids: dict[int, int], north: str, south: str, result: str
) -> None:
    game = nil_game(rules, bids, south=south, north=north)
    scored = game.history[0]
    assert team_result(scored.scores[0]) == result
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(score_sheet(game.history))
    assert result in out.getvalue()


def narration(rules: str) -> str:
    """What the terminal says of the first hand's cards, played as the engine made them."""
    game = Game(parse_rules(rules), seed=3)
    out = io.StringIO()
    terminal = TerminalGame(game, {}, Console(file=out, width=200, color_system=None))
    while game.hand_number == 1 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        if game.phase.value == "bidding":
            events = game.bid(seat, 3)
        else:
            events = game.play(seat, game.legal_cards()[-1])  # spades soon: the highest card
        terminal.announce(event for event in events if isinstance(event, CardPlayed))
    return out.getvalue()


def test_spades_are_said_broken_once_a_hand_when_a_card_breaks_them() -> None:
    assert narration("cardcouch").count("Spades are broken.") == 1


def test_spades_are_never_said_broken_when_they_lead_any_time() -> None:
    text = narration("cardcouch,spades_break=off")
    assert "plays" in text and "Spades are broken." not in text


@pytest.mark.parametrize(("bid", "name"), [(NIL, "Nil"), (BLIND_NIL, "blind Nil")])
def test_the_review_notes_a_blind_nil_it_did_not_judge(
    monkeypatch: pytest.MonkeyPatch, bid: int, name: str
) -> None:
    out = io.StringIO()
    monkeypatch.setattr(analyze, "console", Console(file=out, width=200, color_system=None))
    review = HandReview(
        number=1, first_trick=1, bids=(4, 3, bid, 4), start=None, plays=(), tricks_lost=(0, 0, 0, 0)
    )
    analyze.print_review(review)
    assert f"South's {name} not judged" in out.getvalue()


def test_the_game_summary_says_each_nil_as_it_was_scored() -> None:
    game = nil_game(DOUBLE, {0: NIL, 1: 3, 2: NIL, 3: 4}, south=ALL_SPADES)
    out = io.StringIO()
    print_game_summary(Console(file=out, width=200, color_system=None), game, 1)
    assert "hand 1: NS double Nil failed -200" in out.getvalue()
    game = nil_game(BLIND, {0: 4, 1: 3, 2: BLIND_NIL, 3: 4}, south=LOW_HAND)
    out = io.StringIO()
    print_game_summary(Console(file=out, width=200, color_system=None), game, 1)
    assert "hand 1: S blind Nil made +200" in out.getvalue()
