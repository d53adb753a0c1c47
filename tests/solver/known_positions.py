"""The file of fixed positions with known values (``regression.txt``, written by
``tools/solver_regression.py``), read: what the regression and kernel tests check
the solver against."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from spades.core.cards import parse_cards
from spades.core.hand import HandState
from spades.solver import make_position, parse_deal

FILE = Path(__file__).with_name("regression.txt")


@dataclass(frozen=True)
class Known:
    """A position of the file and what is known of it."""

    text: str
    state: HandState
    north_south: int
    east_west: int
    nil: str
    cards: dict[str, int] | None


def read_file() -> list[Known]:
    known = []
    for text in FILE.read_text().splitlines():
        if text.startswith("#"):
            continue
        deal, leader, broken, trick, ns, ew, nil, cards = text.split("\t")
        state = make_position(
            parse_deal(deal),
            "NESW".index(leader),
            [] if trick == "-" else parse_cards(trick),
            broken=broken == "yes",
        )
        values = None
        if cards != "-":
            values = {
                name: int(n) for name, _, n in (pair.partition("=") for pair in cards.split())
            }
        known.append(Known(text, state, int(ns), int(ew), nil, values))
    return known


KNOWN = read_file()


def tricks_left(state: HandState) -> int:
    return bin(state.hands[state.turn]).count("1")
