"""What the review process runs: a hand re-played and reviewed, its result
made JSON-ready (``reviews.py`` queues the work and keeps the results).

Apart from ``reviews.py`` so that the review process, spawned fresh, imports
the analysis and the response's schemas only, not the storage and the web
server's plumbing that ``reviews.py`` needs."""

from __future__ import annotations

import os
from typing import Any, Final

from spades.analysis import InformedPlay, InformedReview, review_by_information
from spades.bots.search.helpers import exit_with_parent
from spades.core.cards import CARD_NAMES, card_long_name
from spades.core.hand import HandState
from spades.core.naming import Naming
from spades.core.seats import SEAT_LETTERS, SOUTH

from .review_schemas import DoubleDummyOpinion, HandReviewResponse, ReviewedPlay

PAGE_NAMING: Final = Naming(reader=SOUTH)
"""How the page words a review: to its player, South, as "you"; cards in words."""

HandPayload = tuple[int, tuple[int, int, int, int], tuple[tuple[int, int], ...], tuple[int, ...]]
"""What the review process needs of a hand: dealer, deal, bids in order, cards played."""


def payload_of(state: HandState) -> HandPayload:
    deal = state.deal
    return (
        state.dealer,
        (deal[0], deal[1], deal[2], deal[3]),
        tuple((seat, state.bids[seat] or 0) for seat in state.bid_order),
        tuple(card for trick in state.tricks for card in trick.cards) + tuple(state.trick),
    )


def start_worker(parent: int) -> None:
    os.nice(10)  # reviews wait; the bots' thinking and the API do not
    exit_with_parent(parent)


def review_hand(payload: HandPayload, number: int, deals: int, seed: str) -> dict[str, Any]:
    """Run in the review process: the hand re-played, reviewed, made JSON-ready."""
    dealer, deal, bids, cards = payload
    state = HandState.from_deal(dealer, deal)
    for _seat, bid in bids:
        state.apply_bid(bid)
    for card in cards:
        state.apply_play(card)
    review = review_by_information(state, number=number, deals=deals, seed=seed, naming=PAGE_NAMING)
    return review_response(review).model_dump()


# ------------------------------------------------------------- the response


def review_response(review: InformedReview) -> HandReviewResponse:
    shown = sorted(
        (*review.mistakes, *review.only_double_dummy),
        key=lambda play: review.plays.index(play),
    )
    return HandReviewResponse(
        hand=review.number,
        status="ready",
        plays=[_reviewed(play) for play in shown],
        tricks_lost={SEAT_LETTERS[s]: round(n, 2) for s, n in enumerate(review.tricks_lost)},
        judged=sum(1 for play in review.plays if play.judged),
        unjudged=review.unjudged,
        deals=review.deals,
        seconds=round(review.seconds, 2),
    )


def _reviewed(play: InformedPlay) -> ReviewedPlay:
    opinion = play.double_dummy
    second = (
        None
        if opinion is None or not opinion.judged
        else DoubleDummyOpinion(
            mistake=opinion.is_mistake,
            tricks_lost=opinion.tricks_lost,
            better=[CARD_NAMES[c] for c in opinion.best],
            explanation=opinion.explanation,
        )
    )
    if play.is_mistake:
        explanation = play.explanation
    else:
        assert opinion is not None
        name = PAGE_NAMING.seat(play.seat)
        explanation = (
            f"With every hand visible: {opinion.explanation}. "
            f"But {name} could not have known it: over {play.deals} deals consistent with "
            f"what {name} had seen, no card did clearly better than "
            f"the {PAGE_NAMING.card(play.card)}."
        )
    return ReviewedPlay(
        trick=play.trick,
        seat=SEAT_LETTERS[play.seat],
        card=CARD_NAMES[play.card],
        card_name=card_long_name(play.card),
        yours=play.seat == SOUTH,
        verdict="mistake" if play.is_mistake else "double-dummy only",
        lost=list(play.lost),  # type: ignore[arg-type]
        tricks_lost=round(play.tricks_lost, 2),
        better=None if play.best is None else CARD_NAMES[play.best],
        explanation=explanation,
        deals=play.deals,
        double_dummy=second,
    )
