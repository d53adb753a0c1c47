"""What South may see, for the tests that check no response names any more: the
cards a text names, and the cards South has seen in some hands of a game."""

from __future__ import annotations

import re

from spades.core import SOUTH, Game, card_long_name, card_name
from spades.core.cards import cards_in

SHORT_NAME = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[SHDC](?![A-Za-z0-9])")


LONG_NAME = re.compile(r"\b(?:[2-9]|10|Jack|Queen|King|Ace) of (?:clubs|diamonds|hearts|spades)\b")


def names_in(text: str) -> set[str]:
    """Every card a text names, in short form, written either way."""
    found = {m.replace("10", "T") for m in SHORT_NAME.findall(text)}
    long_to_short = {card_long_name(c): card_name(c) for c in range(52)}
    found |= {long_to_short[m] for m in LONG_NAME.findall(text)}
    return found


def visible_to_south(game: Game, hands: range) -> set[str]:
    """South's cards and the cards played, in the hands ``hands`` (1-based)."""
    visible = 0
    states = {scored.number: scored.state for scored in game.history}
    if not game.hand.is_over:
        states[game.hand_number] = game.hand
    for number in hands:
        state = states.get(number)
        if state is None:
            continue
        visible |= state.deal[SOUTH]
        visible |= state.played
    return {card_name(c) for c in cards_in(visible)}
