"""The vectorised tables' observations in C (see ``_observations.c``)."""

from typing import Any

LAYOUT: tuple[int, ...]
"""The offsets it writes at: hand, bids, bid slots, trick, played, tricks won,
spades broken, scores, bags, dealer, phase, and the observation's size."""

def encode(
    out: Any,
    me: Any,
    hands: Any,
    played: Any,
    trick: Any,
    bids: Any,
    tricks_won: Any,
    broken: Any,
    totals: Any,
    bags: Any,
    dealer: Any,
    phase: Any,
    low: int,
    high: int,
    /,
) -> None: ...
