"""`spades play --rules`: a whole game in the terminal under house rules, with
a blind Nil question before the hand is shown and a Nil pass typed by card
names; its record replays under the same rules."""

from __future__ import annotations

import json
from pathlib import Path

from spades.arena import seat_bots
from spades.cli.play import seeded_bot_turn
from spades.core import SOUTH, Game, Phase, card_name, game_from_record, parse_rules
from spades.core.cards import cards_in, sorted_for_display

from .terminal import BOT_OPTIONS, LEVELS, run_spades

RULES = "cardcouch,target=300,blind_nil=on,nil_pass=2"


def answers_for(seed: int) -> tuple[Game, list[str]]:
    """The same game in the engine, and South's answers: no blind Nil, Nil in the
    first hand and 3 after it, the two lowest cards passed, card 1 played."""
    game = Game(parse_rules(RULES), seed=seed)
    bots = seat_bots(LEVELS, seed)
    answers: list[str] = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        if seat != SOUTH:
            seeded_bot_turn(game, seat, bots[seat])
            continue
        view = game.view(SOUTH)
        if game.phase is Phase.BIDDING:
            if view.without_cards().legal_bids():
                answers.append("n")
            bid = "nil" if game.hand_number == 1 else "3"
            answers.append(bid)
            game.bid(SOUTH, 0 if bid == "nil" else 3)
        elif game.phase is Phase.PASSING:
            cards = list(cards_in(view.hand))[: view.pass_count]
            answers.append(" ".join(card_name(card) for card in cards))
            game.pass_cards(SOUTH, cards)
        else:
            answers.append("1")
            game.play(SOUTH, sorted_for_display(game.legal_cards())[0])
    return game, answers


def test_a_whole_game_under_house_rules_in_the_terminal(tmp_path: Path) -> None:
    # A game whose first hand passes cards (a partner's Nil too passes none).
    seed, (game, answers) = next(
        (seed, played)
        for seed in range(5, 60)
        if (played := answers_for(seed))[0].history[0].state.passes
    )
    out_file = tmp_path / "game.json"
    result = run_spades(
        "play", "--seed", str(seed), *BOT_OPTIONS, "--rules", RULES, "--out", str(out_file),
        stdin="\n".join(answers) + "\n",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Rules: cardcouch,target=300,blind_nil=on,nil_pass=2 (first to 300" in out
    assert "Bid blind Nil before you look at your cards? (y/n)" in out
    assert "Cards to pass to North (2, like" in out
    assert "South passes 2 cards to North" in out and "North passed you " in out
    assert game.outcome is not None and "Game over:" in out
    assert "reached 300" in out or "sank to -200 or below" in out  # this game's numbers
    record = json.loads(out_file.read_text(encoding="utf-8"))
    assert record["rules"]["target"] == 300 and record["hands"][0]["passes"]
    assert game_from_record(record).totals == game.totals


def test_rules_that_cannot_be_played_stop_the_command_before_play() -> None:
    result = run_spades("play", *BOT_OPTIONS, "--rules", "cardcouch,nil_pass=9")
    assert result.returncode == 2
    assert "rule 'nil_pass' must be from 0 to 3, got 9" in result.stderr
    simulate = run_spades("simulate", "--rules", "house")
    assert simulate.returncode == 2 and "no rule set is called 'house'" in simulate.stderr
