"""Checking a claim double dummy: does it hold against every defence?

A claim is a statement that the claiming side will take the tricks it names.
It is checked as bridge directors and programs check one, with all four hands
visible: it holds when the claiming side, playing its best, takes at least the
claimed tricks (counted as ``spades.core.claims`` says) whatever the other side
plays. When it does not hold, the answer carries a line of play that beats it:
from the claim's position, each side plays its best card (the claiming side
the one keeping the most tricks, the defence the one giving fewest), up to the
trick after which the claim can no longer be made.

>>> from spades.core.cards import CARD_NAMES
>>> from spades.core.seats import NORTH, SOUTH
>>> deal = parse_deal("N:AS KH 4D E:QS 2H 5D S:3S AH 6D W:2S 3H 7D")
>>> state = make_position(deal, leader=NORTH)   # spades not broken: North may not lead the AS
>>> check_claim(state, SOUTH, 2).holds
True
>>> check = check_claim(state, SOUTH, 3)
>>> check.holds, check.best
(False, 2)
>>> [([CARD_NAMES[card] for card in trick.cards], trick.winner) for trick in check.defence]
[(['4D', '5D', '6D', '7D'], 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..core.claims import claim_terms, tricks_left
from ..core.game import Game
from ..core.hand import HandState, Trick
from ..core.seats import SEAT_NAMES, Seat
from .dds import SearchLimitError, Solver
from .position import make_position, parse_deal, replay

__all__ = [
    "CLAIM_LIMIT",
    "ClaimCheck",
    "check_claim",
    "held_claim_problems",
    "make_position",
    "parse_deal",
]

CLAIM_LIMIT: Final = 1_500_000
"""The most cards one question of a claim check may try (about a second
compiled) before giving up with ``SearchLimitError``: only claims made with
most of a hand still to play come near it."""


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The verdict on a claim."""

    holds: bool
    best: int
    """The most tricks the counted seats can be sure of, against the best defence."""
    defence: tuple[Trick, ...]
    """When the claim does not hold: a line of play from the claim's position that
    beats it, as whole tricks, the first with the cards already on the table
    (empty when it holds)."""


def check_claim(
    state: HandState, seat: Seat, tricks: int, *, limit: int = CLAIM_LIMIT
) -> ClaimCheck:
    """Whether ``seat``'s claim of ``tricks`` of the tricks left holds in
    ``state`` (unchanged) against every defence.

    Raises ``IllegalClaimError`` for a claim the rules do not allow, and
    ``SearchLimitError`` when a question tries more than ``limit`` cards.
    """
    terms = claim_terms(state, seat, tricks)
    solver = Solver(limit)
    best = solver.tricks(state, terms.counted, guess=tricks)
    if best >= tricks:
        return ClaimCheck(True, best, ())
    return ClaimCheck(False, best, _defence(solver, state, seat, terms.counted, tricks))


def _defence(
    solver: Solver, state: HandState, seat: Seat, counted: int, tricks: int
) -> tuple[Trick, ...]:
    """Both sides' best cards from ``state`` until ``counted`` can no longer
    take ``tricks``: the tricks they win, plus those left, fall short. A trick
    ends it, as the count changes only when a trick is won."""
    position = state.clone()
    won = 0
    claimers = seat & 1
    while won + tricks_left(position) >= tricks:
        values = solver.card_tricks(position, counted)
        mover_claims = position.turn & 1 == claimers
        # Ties go to the lowest card: the line reads as the plainest play.
        card = min(values, key=lambda c: (-values[c] if mover_claims else values[c], c))
        finished = len(position.tricks)
        position.apply_play(card)
        if len(position.tricks) > finished and counted >> position.tricks[-1].winner & 1:
            won += 1
    return tuple(position.tricks[len(state.tricks) :])


def held_claim_problems(game: Game, *, limit: int = CLAIM_LIMIT) -> list[tuple[str, str]]:
    """Each claim of ``game`` that ended its hand but does not hold double dummy,
    as ``(where, why)``: what ``spades replay`` adds to the engine's checks.

    A claim too costly to check within ``limit`` is reported as unchecked."""
    problems = []
    for index, claim in enumerate(game.claims):
        if not claim.held:
            continue
        where = (
            f"hand {claim.hand}, claim {sum(c.hand == claim.hand for c in game.claims[:index]) + 1}"
        )
        position = replay(game.history[claim.hand - 1].state, claim.cards)
        try:
            check = check_claim(position, claim.seat, claim.tricks, limit=limit)
        except SearchLimitError:
            problems.append((where, "the claim could not be checked within the search limit"))
            continue
        if not check.holds:
            counted = claim_terms(position, claim.seat, claim.tricks).counted
            takers = " and ".join(SEAT_NAMES[seat] for seat in range(4) if counted >> seat & 1)
            problems.append(
                (
                    where,
                    f"the claim does not hold: against the best defence {takers} take only "
                    f"{check.best} of the tricks left, not the {claim.tricks} claimed",
                )
            )
    return problems
