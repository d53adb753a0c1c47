"""The brute-force reference, stored: random small endgames with every answer
plain minimax (``brute.py``) gives for them, in ``brute_force.txt``.

Like the regression file (``known_positions.py``) and perft files in chess, the
answers are worked out once, by ``tools/brute_force_reference.py``, and checked
in: working them out again at every run was most of the brute-force tests'
time. ``test_against_brute_force.py`` checks the solver against every line;
``test_brute_force_reference.py`` keeps the file honest (its positions are the
ones made here from the seed, and minimax, run again on a sample, gives the
answers written).

A line: the hands at the start of the trick in progress (N E S W), the leader,
whether spades were broken then, the cards of the trick played so far (- when
none); then the answers: the tricks North-South and East-West take from here;
the tricks each of N E S W takes alone (its side playing for it, the other side
against); for each of N E S W whether a Nil would hold (+) or not (-); for each
legal card of the seat to act, the tricks its side then takes (the trick it
finishes included); for each legal card, whether each of N E S W's Nil then
holds."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from spades.core.cards import CARD_NAMES, parse_cards
from spades.core.hand import HandState
from spades.solver import make_position, parse_deal
from spades.solver.position import random_position

from .brute import brute_nil, brute_tricks, random_endgame

FILE: Final = Path(__file__).with_name("brute_force.txt")

SEED: Final = 2026
ENDGAMES: Final = 1000
"""Endgames of 1 to 4 tricks (half of them in the middle of a trick): every
question is asked of each, where the tests before the file asked each of a few
hundred."""
DEALS_SEED: Final = 10
DEALS: Final = 6
"""Whole deals played at random to 5 tricks left: positions of more cards than
the endgames, where the solver's tables and bounds have more to do."""

HEADER: Final = """\
# Plain minimax's answers on random small endgames (tools/brute_force_reference.py;
# read by tests/solver/reference.py, which says what each column is).
"""

SIGNS: Final = {True: "+", False: "-"}


@dataclass(frozen=True)
class Answers:
    """What exhaustive minimax says of one position."""

    teams: tuple[int, int]
    """The tricks North-South and East-West take from here (the one in progress included)."""
    seats: tuple[int, int, int, int]
    """The tricks each seat takes alone, its side playing for it, the other against."""
    nil: tuple[bool, bool, bool, bool]
    """Whether each seat's side can keep it from winning any trick."""
    cards: dict[int, int]
    """Each legal card of the seat to act: the tricks its side then takes."""
    nil_cards: dict[int, tuple[bool, bool, bool, bool]]
    """Each legal card of the seat to act: whether each seat's Nil then holds."""


@dataclass(frozen=True)
class Stored:
    """A line of the file: the position and its answers."""

    text: str
    state: HandState
    answers: Answers


def positions() -> list[HandState]:
    """The file's positions, made again from their seeds."""
    rng = random.Random(SEED)
    endgames = [
        random_endgame(rng, rng.randint(1, 4), mid_trick=rng.random() < 0.5)
        for _ in range(ENDGAMES)
    ]
    deals = random.Random(DEALS_SEED)
    return endgames + [random_position(deals, 5) for _ in range(DEALS)]


def card_tricks(state: HandState, seats: int) -> dict[int, int]:
    """What each legal card leads to: the tricks ``seats`` then take, the one it finishes included."""
    values = {}
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        won = 1 if finishing and seats >> state.tricks[-1].winner & 1 else 0
        values[card] = won + brute_tricks(state, seats)
        state.undo()
    return values


def card_nil(state: HandState, seat: int) -> dict[int, bool]:
    """Whether ``seat``'s Nil holds after each legal card."""
    holds = {}
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        lost = finishing and state.tricks[-1].winner == seat
        holds[card] = not lost and brute_nil(state, seat)
        state.undo()
    return holds


def minimax_answers(state: HandState) -> Answers:
    """Every answer of the file for ``state``, by exhaustive minimax."""
    by_seat = [card_nil(state, seat) for seat in range(4)]
    return Answers(
        teams=(brute_tricks(state, 0b0101), brute_tricks(state, 0b1010)),
        seats=(
            brute_tricks(state, 0b0001),
            brute_tricks(state, 0b0010),
            brute_tricks(state, 0b0100),
            brute_tricks(state, 0b1000),
        ),
        nil=(brute_nil(state, 0), brute_nil(state, 1), brute_nil(state, 2), brute_nil(state, 3)),
        cards=card_tricks(state, 0b0101 << (state.turn & 1)),
        nil_cards={
            card: (by_seat[0][card], by_seat[1][card], by_seat[2][card], by_seat[3][card])
            for card in state.legal_cards()
        },
    )


def names(mask: int) -> str:
    return " ".join(CARD_NAMES[card] for card in range(51, -1, -1) if mask >> card & 1)


def position_columns(state: HandState) -> list[str]:
    """The position as the file writes it: the hands at the start of the trick
    in progress, its leader, whether spades were broken then, its cards."""
    start = state.clone()
    for _ in state.trick:
        start.undo()
    deal = " ".join(f"{seat}:{names(hand)}" for seat, hand in zip("NESW", start.hands, strict=True))
    broken = "yes" if start.spades_broken else "no"
    trick = " ".join(CARD_NAMES[card] for card in state.trick) or "-"
    return [deal, "NESW"[start.leader], broken, trick]


def line(state: HandState, answers: Answers) -> str:
    cards = " ".join(f"{CARD_NAMES[card]}={n}" for card, n in sorted(answers.cards.items()))
    nil_cards = " ".join(
        f"{CARD_NAMES[card]}={''.join(SIGNS[holds] for holds in seats)}"
        for card, seats in sorted(answers.nil_cards.items())
    )
    return "\t".join(
        (
            *position_columns(state),
            f"{answers.teams[0]} {answers.teams[1]}",
            " ".join(str(n) for n in answers.seats),
            "".join(SIGNS[holds] for holds in answers.nil),
            cards,
            nil_cards,
        )
    )


def four_signs(text: str) -> tuple[bool, bool, bool, bool]:
    assert len(text) == 4 and set(text) <= {"+", "-"}, text
    return (text[0] == "+", text[1] == "+", text[2] == "+", text[3] == "+")


def read_line(text: str) -> Stored:
    deal, leader, broken, trick, teams, seats, nil, cards, nil_cards = text.split("\t")
    state = make_position(
        parse_deal(deal),
        "NESW".index(leader),
        [] if trick == "-" else parse_cards(trick),
        broken=broken == "yes",
    )
    north_south, east_west = (int(n) for n in teams.split())
    n, e, s, w = (int(n) for n in seats.split())
    pairs = [pair.partition("=") for pair in cards.split()]
    nil_pairs = [pair.partition("=") for pair in nil_cards.split()]
    answers = Answers(
        teams=(north_south, east_west),
        seats=(n, e, s, w),
        nil=four_signs(nil),
        cards={parse_cards(name)[0]: int(value) for name, _, value in pairs},
        nil_cards={parse_cards(name)[0]: four_signs(value) for name, _, value in nil_pairs},
    )
    return Stored(text, state, answers)


def read_file() -> list[Stored]:
    return [read_line(text) for text in FILE.read_text().splitlines() if not text.startswith("#")]
