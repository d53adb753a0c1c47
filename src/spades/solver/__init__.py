"""Double-dummy analysis: exact best play with all four hands visible.

``dds.py`` holds the search (compiled by mypyc); these functions are the ways
in. Each takes a ``HandState`` being played (mid-trick positions included) and
leaves it unchanged. For many questions about one hand, keep one ``Solver``:
what it learns about a position is reused.

>>> from spades.core.cards import CARD_NAMES
>>> state = make_position(parse_deal("N:AS KH E:QS 2H S:3S AH W:2S 3H"), leader=0)
>>> solve_tricks(state), solve_tricks(state, team=1)   # North must lead KH: South's AH wins
(2, 0)
>>> {CARD_NAMES[card]: n for card, n in card_values(state).items()}
{'KH': 2}
>>> can_hold_nil(state, 3), can_hold_nil(state, 2)
(True, False)
"""

from __future__ import annotations

from ..core.hand import HandState
from ..core.seats import Seat, Team
from .dds import SearchLimitError, Solver, SolverError
from .position import make_position, parse_deal

__all__ = [
    "SearchLimitError",
    "Solver",
    "SolverError",
    "can_hold_nil",
    "card_values",
    "make_position",
    "nil_card_values",
    "parse_deal",
    "solve_tricks",
    "team_mask",
]


def team_mask(team: Team) -> int:
    """The seat mask of a partnership: ``0b0101`` for North-South, ``0b1010`` for East-West."""
    if team not in (0, 1):
        raise SolverError(f"no partnership {team!r}: use 0 (NS) or 1 (EW)")
    return 0b0101 << team


def _team_or_mover(state: HandState, team: Team | None) -> Team:
    return state.turn & 1 if team is None else team


def solve_tricks(state: HandState, team: Team | None = None) -> int:
    """The remaining tricks (the one in progress included) that ``team`` takes
    with best play by both sides; by default the partnership of the seat to act."""
    return Solver().tricks(state, team_mask(_team_or_mover(state, team)))


def card_values(state: HandState, team: Team | None = None) -> dict[int, int]:
    """For each legal card of the seat to act, the remaining tricks (the one in
    progress included) ``team`` takes after it with best play; by default the
    mover's partnership."""
    return Solver().card_tricks(state, team_mask(_team_or_mover(state, team)))


def can_hold_nil(state: HandState, seat: Seat) -> bool:
    """Whether ``seat``'s partnership can keep ``seat`` from winning any
    remaining trick against opponents trying to make it win one."""
    return Solver().nil_holds(state, seat)


def nil_card_values(state: HandState, seat: Seat) -> dict[int, bool]:
    """For each legal card of the seat to act, whether ``seat``'s Nil can still
    be held after it."""
    return Solver().card_nil(state, seat)
