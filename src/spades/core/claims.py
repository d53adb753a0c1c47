"""Claims: a side says it takes some of the tricks left, and the hand ends there.

Whether a claim *holds* is a double-dummy question that ``spades.solver.claims``
answers. This module fixes what a claim means, the same for the server, the
records and the solver: how many tricks may be claimed, whose tricks count
towards it, and which seat each trick is credited to (a Nil is judged on its
bidder's own tricks, so a claim has to say).

* A claim comes during the play, from any seat, for 1 up to all of the tricks
  not yet finished (the trick in progress counts).
* With no Nil bid on the claiming side, both partners' tricks count, and the
  claimed tricks are credited to the claimer.
* With one Nil bidder on the claiming side, only every trick left may be
  claimed, all for the partner who did not bid Nil: the claim then also says
  the Nil bidder takes no more. If both partners bid Nil there is no claim.
* The tricks not claimed are conceded to the other side, credited to its first
  seat after the claimer that did not bid Nil: the most the defenders could
  wish for. If both defenders bid Nil, only every trick left may be claimed.

>>> from .hand import deal_from_seed
>>> from .seats import EAST, SOUTH
>>> state = HandState(dealer=EAST, hands=deal_from_seed(7))
>>> for bid in (3, 4, 2, 4): state.apply_bid(bid)     # S, W, N, E: no Nil
>>> claim_terms(state, SOUTH, 9)
ClaimTerms(awarded=(0, 0, 9, 4), counted=5, left=13)
>>> claim_terms(state, SOUTH, 14)
Traceback (most recent call last):
...
spades.core.errors.IllegalClaimError: 13 tricks are left: claim from 1 to 13 of them
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .bids import is_nil
from .errors import IllegalClaimError
from .hand import HandState, Phase, Trick
from .seats import SEAT_NAMES, Seat, next_seat, partner_of

__all__ = ["Claim", "ClaimTerms", "claim_terms", "tricks_left"]


class ClaimTerms(NamedTuple):
    """What a claim of ``tricks`` means in one position."""

    awarded: tuple[int, int, int, int]
    """The tricks credited to each seat (N, E, S, W) if the claim holds."""
    counted: int
    """The seats (bit ``seat``) whose tricks must reach the claim: the claiming
    side, or its one partner who did not bid Nil."""
    left: int
    """Tricks not yet finished, the one in progress included."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim made in a game, held or not: what the game record keeps."""

    hand: int
    """The number of the hand (1-based)."""
    seat: Seat
    tricks: int
    """Tricks claimed for the claimer's side, of those left."""
    cards: int
    """Cards played in the hand when the claim was made."""
    held: bool
    """Whether it held: a held claim ended the hand; one that did not changed nothing."""
    defence: tuple[Trick, ...] = ()
    """For a claim that did not hold, the explanation: a line of play from its
    position (both sides at their best) up to the trick that beats it, as whole
    tricks (the first one with the cards already on the table when it was made)."""


def tricks_left(state: HandState) -> int:
    """The tricks not yet finished, the one in progress included: the cards of a
    seat yet to play to it (so endgame positions built for the solver count too)."""
    return max(hand.bit_count() for hand in state.hands)


def claim_terms(state: HandState, seat: Seat, tricks: int) -> ClaimTerms:
    """The terms of ``seat`` claiming ``tricks`` of the tricks left in ``state``.

    Raises ``IllegalClaimError`` saying why when there is no such claim.
    """
    if state.phase is not Phase.PLAYING:
        raise IllegalClaimError(
            "Claims come during the play: "
            + ("the bidding is not over" if state.phase is Phase.BIDDING else "the hand is over")
        )
    left = tricks_left(state)
    if type(tricks) is not int or not 1 <= tricks <= left:
        raise IllegalClaimError(f"{left} tricks are left: claim from 1 to {left} of them")
    partner = partner_of(seat)
    takers = [s for s in (seat, partner) if not is_nil(state.bids[s])]
    if not takers:
        raise IllegalClaimError(
            f"{SEAT_NAMES[seat]} and {SEAT_NAMES[partner]} both bid Nil: "
            "no one on the side can take the tricks"
        )
    awarded = [0, 0, 0, 0]
    if len(takers) == 1:
        nil_bidder = partner if takers[0] == seat else seat
        if tricks < left:
            raise IllegalClaimError(
                f"With {SEAT_NAMES[nil_bidder]}'s Nil in play, claim all {left} tricks left "
                f"(for {SEAT_NAMES[takers[0]]}) or play on"
            )
        counted = 1 << takers[0]
    else:
        counted = (1 << seat) | (1 << partner)
    awarded[takers[0]] = tricks
    if tricks < left:
        first = next_seat(seat)
        receivers = [s for s in (first, partner_of(first)) if not is_nil(state.bids[s])]
        if not receivers:
            raise IllegalClaimError(
                f"{SEAT_NAMES[first]} and {SEAT_NAMES[partner_of(first)]} both bid Nil: "
                f"claim all {left} tricks left or play on"
            )
        awarded[receivers[0]] = left - tricks
    return ClaimTerms((awarded[0], awarded[1], awarded[2], awarded[3]), counted, left)
