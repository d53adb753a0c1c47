"""Seats around the table and the two partnerships.

Seats are ints 0..3 in clockwise order North, East, South, West, so the next
seat clockwise (the one "to the left") is ``(seat + 1) % 4``. Partners sit
across: North-South is team 0 (``NS``), East-West team 1 (``EW``), and a seat's
team is ``seat & 1``.

>>> next_seat(EAST) == SOUTH, partner_of(WEST) == EAST, team_of(SOUTH) == NS
(True, True, True)
>>> seat_letter(parse_seat("w")), seat_name(WEST), team_name(team_of(WEST))
('W', 'West', 'EW')
"""

from __future__ import annotations

from typing import Final, Literal

Seat = int
"""A seat, 0..3: NORTH, EAST, SOUTH, WEST (clockwise)."""

Team = int
"""A partnership, 0 (North-South) or 1 (East-West)."""

NORTH: Final = 0
EAST: Final = 1
SOUTH: Final = 2
WEST: Final = 3
SEATS: Final = (NORTH, EAST, SOUTH, WEST)

NS: Final = 0
EW: Final = 1
TEAMS: Final = (NS, EW)

SeatLetter = Literal["N", "E", "S", "W"]
"""A seat as files, wires and the page write it."""

SEAT_LETTERS: Final[tuple[SeatLetter, SeatLetter, SeatLetter, SeatLetter]] = ("N", "E", "S", "W")
"""Each seat's letter, by seat: ``SEAT_LETTERS[seat]`` is a ``SeatLetter``."""
SEAT_NAMES: Final = ("North", "East", "South", "West")
TeamName = Literal["NS", "EW"]
TEAM_NAMES: Final[tuple[TeamName, TeamName]] = ("NS", "EW")
TEAM_LONG_NAMES: Final = ("North-South", "East-West")


def next_seat(seat: Seat) -> Seat:
    """The seat to the left of ``seat``: the next one clockwise."""
    return (seat + 1) & 3


def partner_of(seat: Seat) -> Seat:
    """The partner of ``seat``, sitting across the table."""
    return (seat + 2) & 3


def team_of(seat: Seat) -> Team:
    """The partnership ``seat`` plays for."""
    return seat & 1


def team_seats(team: Team) -> tuple[Seat, Seat]:
    """The two seats of ``team``: ``(NORTH, SOUTH)`` or ``(EAST, WEST)``."""
    return (team, team + 2)


def seat_letter(seat: Seat) -> SeatLetter:
    """``SEAT_LETTERS[seat]``: ``"N"``, ``"E"``, ``"S"`` or ``"W"``."""
    return SEAT_LETTERS[seat]


def seat_name(seat: Seat) -> str:
    """``SEAT_NAMES[seat]``: ``"North"`` .. ``"West"``."""
    return SEAT_NAMES[seat]


def team_name(team: Team) -> str:
    """``"NS"`` or ``"EW"``."""
    return TEAM_NAMES[team]


def parse_seat(text: str) -> Seat:
    """Parse ``"N"``/``"north"`` (any case) into a seat.

    >>> parse_seat("Q")
    Traceback (most recent call last):
    ...
    ValueError: 'Q' is not a seat: use N, E, S or W
    """
    cleaned = text.strip().upper()
    if cleaned and cleaned in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
        return SEAT_LETTERS.index(cleaned[0])
    raise ValueError(f"{text!r} is not a seat: use N, E, S or W")


def parse_team(text: str) -> Team:
    """Parse ``"NS"`` or ``"EW"`` into a team.

    >>> parse_team("ew") == EW
    True
    """
    cleaned = text.strip().upper()
    if cleaned in TEAM_NAMES:
        return TEAM_NAMES.index(cleaned)
    raise ValueError(f"{text!r} is not a partnership: use NS or EW")
