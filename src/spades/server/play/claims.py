"""South's claims on the page: the offer a view carries and the verdict the
claim route answers, in the API's schemas. The judging and its words are the
session layer's (``spades.session.claims``), shared with the terminal game.

A claim is judged double dummy (``spades.solver.claims``): it holds when
South and North, seeing every card, take at least the tricks claimed against
every defence. While the hand goes on, a refused claim says only that the
defence can beat it: the line that does would show the other hands. That line
is kept in the record and shown in the hand's summary once the hand is over.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.core import Event, Game, Phase
from spades.core.claims import tricks_left
from spades.core.seats import SEAT_LETTERS
from spades.session.claims import (
    HUMAN,
    card_symbol,
    claim_choices,
    claim_notes,
    defence_names_unseen,
    refused_this_trick,
    terms_note,
)
from spades.session.claims import judge_claim as judge

from .schemas import ClaimEvent, ClaimOffer, ClaimResult


def claim_offer(game: Game) -> ClaimOffer | None:
    """What South may claim now; ``None`` unless South is to play a card."""
    if game.is_over or game.phase is not Phase.PLAYING or game.to_act != HUMAN:
        return None
    hand = game.hand
    left = tricks_left(hand)
    choices = claim_choices(hand, left)
    if refused_this_trick(game):
        note = "Your claim was refused this trick: play a card before you claim again."
        return ClaimOffer(tricks_left=left, choices=choices, available=False, note=note)
    return ClaimOffer(
        tricks_left=left, choices=choices, available=bool(choices), note=terms_note(game, left)
    )


@dataclass(frozen=True, slots=True)
class Verdict:
    result: ClaimResult
    events: list[Event]
    """What the claim caused: the hand scored and what follows; none if refused."""
    event: ClaimEvent | None = None
    """For the page, a held claim: the tricks each seat was credited with."""


def judge_claim(game: Game, tricks: int) -> Verdict:
    """``session.claims.judge_claim``, answered in the API's schemas."""
    judgement = judge(game, tricks)
    result = ClaimResult(
        held=judgement.held, tricks=tricks, left=judgement.left, message=judgement.message
    )
    if judgement.awarded is None:
        return Verdict(result, judgement.events)
    event = ClaimEvent(
        type="claim",
        seat=SEAT_LETTERS[HUMAN],
        tricks=tricks,
        left=judgement.left,
        awarded=dict(zip(SEAT_LETTERS, judgement.awarded, strict=True)),
    )
    return Verdict(result, judgement.events, event)


__all__ = [
    "Verdict",
    "card_symbol",
    "claim_choices",
    "claim_notes",
    "claim_offer",
    "defence_names_unseen",
    "judge_claim",
]
