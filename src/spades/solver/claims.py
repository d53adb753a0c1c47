"""Checking a claim double dummy: does it hold against every defence?

A claim is a statement that the claiming side will take the tricks it names.
It is checked as bridge directors and programs check one, with all four hands
visible: it holds when the claiming side, playing its best, takes at least the
claimed tricks (counted as ``spades.core.claims`` says) whatever the other side
plays. One null-window search answers that.

When it does not hold, the answer carries a line of play that beats it, up to
the trick after which the claim is out of reach: each defender plays a card
that keeps the claim out of reach, and the claiming side a card that still
takes all the tricks it can short of the claim (each choice one null-window
search, so the line costs little more than the verdict).

>>> from spades.core.cards import CARD_NAMES
>>> from spades.core.seats import NORTH, SOUTH
>>> deal = parse_deal("N:AS KH 4D E:QS 2H 5D S:3S AH 6D W:2S 3H 7D")
>>> state = make_position(deal, leader=NORTH)   # spades not broken: North may not lead the AS
>>> check_claim(state, SOUTH, 2).holds
True
>>> check = check_claim(state, SOUTH, 3)
>>> check.holds
False
>>> [([CARD_NAMES[card] for card in trick.cards], trick.winner) for trick in check.defence]
[(['4D', '5D', '6D', '7D'], 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..core.cards import Card
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

CLAIM_LIMIT: Final = 1_000_000
"""The most cards the verdict may try (well under a second compiled) before
giving up with ``SearchLimitError``; the line of defence has as many again.
Claims made with most of a hand still to play may come near it."""


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The verdict on a claim."""

    holds: bool
    defence: tuple[Trick, ...]
    """When the claim does not hold: a line of play from the claim's position that
    beats it, as whole tricks, the first with the cards already on the table
    (empty when it holds, or when the line could not be found within the limit)."""


class _Budget:
    """Cards the searches of one check may try between them."""

    def __init__(self, solver: Solver, limit: int) -> None:
        self.solver = solver
        self.left = limit

    def reaches(self, state: HandState, counted: int, target: int) -> bool:
        if target <= 0:
            return True
        if target > tricks_left(state):
            return False
        self.solver.limit = max(1, self.left)
        try:
            return self.solver.reaches(state, counted, target)
        finally:
            self.left -= self.solver.nodes
            if self.left <= 0:
                raise SearchLimitError("the claim's check tried too many cards")


def check_claim(
    state: HandState, seat: Seat, tricks: int, *, limit: int = CLAIM_LIMIT
) -> ClaimCheck:
    """Whether ``seat``'s claim of ``tricks`` of the tricks left holds in
    ``state`` (unchanged) against every defence.

    Raises ``IllegalClaimError`` for a claim the rules do not allow, and
    ``SearchLimitError`` when the verdict needs more than ``limit`` cards.
    """
    terms = claim_terms(state, seat, tricks)
    solver = Solver()
    if _Budget(solver, limit).reaches(state, terms.counted, tricks):
        return ClaimCheck(True, ())
    try:
        defence = _defence(_Budget(solver, limit), state, seat, terms.counted, tricks)
    except SearchLimitError:
        defence = ()  # the verdict stands; only its explanation was too dear
    return ClaimCheck(False, defence)


def _defence(
    budget: _Budget, state: HandState, seat: Seat, counted: int, tricks: int
) -> tuple[Trick, ...]:
    """A line from ``state``, where ``counted`` cannot take ``tricks``, played until
    the tricks they won plus those left fall short of it (a trick ends it, as
    the count changes only when a trick is won)."""
    position = state.clone()
    won = 0
    claimers = seat & 1
    while won + tricks_left(position) >= tricks:
        claiming = position.turn & 1 == claimers
        card = _choose(budget, position, counted, tricks - won, claiming)
        finished = len(position.tricks)
        position.apply_play(card)
        if len(position.tricks) > finished and counted >> position.tricks[-1].winner & 1:
            won += 1
    return tuple(position.tricks[len(state.tricks) :])


def _choose(budget: _Budget, position: HandState, counted: int, need: int, claiming: bool) -> Card:
    """The card to play where ``counted`` cannot take ``need`` more tricks. A
    defender plays one that keeps it so (there is one: the defence wins); the
    claiming side one that still takes ``need - 1`` if it can. The lowest such
    card, so the line reads as the plainest play."""
    target = need - 1 if claiming else need
    legal = position.legal_cards()
    finishing = len(position.trick) == 3
    for card in legal:
        position.apply_play(card)
        taken = int(finishing and counted >> position.tricks[-1].winner & 1)
        reached = budget.reaches(position, counted, target - taken)
        position.undo()
        if reached == claiming:
            return card
    return legal[0]  # the claiming side falls short by more than a trick whatever it plays


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
                    f"the claim does not hold: against the best defence {takers} cannot take "
                    f"the {claim.tricks} tricks claimed",
                )
            )
    return problems
