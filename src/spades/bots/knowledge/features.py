"""What the learned bidding model looks at: a hand, and what the bids so far say.

One definition serves both the fitting script (``tools/fit_bidding.py``, which
measures the features over simulated hands) and the bidder (which weighs them
with the fitted coefficients), so the two can never drift apart. A change here
means re-running the fit: the coefficients are in the order of the names below.

The three side suits are treated alike (a hand's clubs and hearts are counted
into the same features): what matters is what a suit holds, not its colour.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.core import CARDCOUCH, PlayerView, Rules
from spades.core.cards import (
    RANK_ACE,
    RANK_JACK,
    RANK_KING,
    RANK_OF,
    RANK_QUEEN,
    RANK_TEN,
    SPADES,
    SUIT_MASKS,
    cards_in,
)
from spades.core.scoring import is_nil
from spades.core.seats import partner_of

SIDE_SUITS = (0, 1, 2)
LOW_RANK = 5
"""Ranks up to this one (2..7) are the small cards a Nil bidder ducks with."""


def suit_ranks(hand: int, suit: int) -> list[int]:
    """The ranks held in ``suit``, highest first."""
    return sorted((RANK_OF[c] for c in cards_in(hand & SUIT_MASKS[suit])), reverse=True)


@dataclass(frozen=True, slots=True)
class BiddingContext:
    """What a bidder knows of the other bids when it is its turn.

    ``partner_bid`` is ``None`` before the partner has bid (``NIL`` is 0).
    """

    partner_bid: int | None = None
    opponent_bids: tuple[int, ...] = ()
    """The opponents' bids made so far (0, 1 or 2 of them; ``NIL`` is 0)."""
    rules: Rules = CARDCOUCH
    """What a Nil is worth, and the rest of the scoring the bids are valued under."""

    @classmethod
    def of(cls, view: PlayerView) -> BiddingContext:
        partner = partner_of(view.seat)
        return cls(
            partner_bid=view.bid_of(partner),
            opponent_bids=tuple(
                bid for seat, bid in view.bids if seat != partner and seat != view.seat
            ),
            rules=view.rules,
        )

    def context_features(self) -> list[float]:
        partner = self.partner_bid
        numeric_opponents = [bid for bid in self.opponent_bids if not is_nil(bid)]
        partner_numeric = partner is not None and not is_nil(partner)
        return [
            1.0 if partner_numeric else 0.0,
            float(partner) if partner is not None and partner_numeric else 0.0,
            1.0 if partner is not None and is_nil(partner) else 0.0,
            float(len(numeric_opponents)),
            float(sum(numeric_opponents)),
            float(sum(1 for bid in self.opponent_bids if is_nil(bid))),
        ]


CONTEXT_NAMES = (
    "partner_bid_known",
    "partner_bid",
    "partner_nil",
    "opponent_bids_known",
    "opponent_bid_sum",
    "opponent_nils",
)


TRICK_FEATURE_NAMES = (
    "intercept",
    "side_ace_short",
    "side_ace_long",
    "side_king_with_ace",
    "side_king_guarded",
    "side_king_bare",
    "side_king_long",
    "side_queen_guarded",
    "side_queen_short",
    "side_voids",
    "side_singletons",
    "side_doubletons",
    "spade_ace",
    "spade_king",
    "spade_king_guarded",
    "spade_queen",
    "spade_queen_guarded",
    "spade_jack",
    "spade_ten",
    "spades",
    "spades_over_3",
    "spades_over_4",
    "spades_over_5",
    "voids_times_spades",
    "singletons_times_spades",
    "doubletons_times_spades",
    *CONTEXT_NAMES,
)


HANDS_REMEMBERED = 4096
"""Hands whose own features are kept (see ``trick_features``); a few hundred
kilobytes."""
_hand_trick_rows: dict[int, list[float]] = {}
_hand_nil_rows: dict[int, list[float]] = {}


def trick_features(hand: int, context: BiddingContext) -> list[float]:
    """The features of ``hand`` from which its expected tricks are predicted.

    The hand's own part is worked out once and kept: a bid search bids each
    of its sampled deals out once for every bid it weighs, so the seats after
    it bid the same hand two to four times, after different bids (the context
    part); the hand's part is about a quarter of a learned bid's time.

    >>> from spades.core.cards import mask_of, parse_cards
    >>> hand = mask_of(parse_cards("AS KS 5S 4S AH 3H KD QD 2D 9C 8C 7C 6C"))
    >>> row = trick_features(hand, BiddingContext())
    >>> dict(zip(TRICK_FEATURE_NAMES, row))["spade_king_guarded"], len(row) == len(TRICK_FEATURE_NAMES)
    (1.0, True)
    """
    row = _hand_trick_rows.get(hand)
    if row is None:
        row = _remember(_hand_trick_rows, hand, hand_trick_features(hand))
    return [*row, *context.context_features()]


def _remember(rows: dict[int, list[float]], hand: int, row: list[float]) -> list[float]:
    if len(rows) >= HANDS_REMEMBERED:
        rows.clear()  # the search has moved on to other deals
    rows[hand] = row
    return row


def hand_trick_features(hand: int) -> list[float]:
    """``trick_features`` without the bids: what the hand holds."""
    ace_short = ace_long = king_with_ace = king_guarded = king_bare = king_long = 0.0
    queen_guarded = queen_short = voids = singletons = doubletons = 0.0
    for suit in SIDE_SUITS:
        ranks = suit_ranks(hand, suit)
        length = len(ranks)
        held = set(ranks)
        voids += length == 0
        singletons += length == 1
        doubletons += length == 2
        if RANK_ACE in held:
            if length <= 5:
                ace_short += 1
            else:
                ace_long += 1
        if RANK_KING in held:
            if length >= 6:
                king_long += 1
            elif RANK_ACE in held:
                king_with_ace += 1
            elif length >= 2:
                king_guarded += 1
            else:
                king_bare += 1
        if RANK_QUEEN in held:
            if length >= 3:
                queen_guarded += 1
            else:
                queen_short += 1
    spades = suit_ranks(hand, SPADES)
    count = len(spades)
    held = set(spades)
    return [
        1.0,
        ace_short,
        ace_long,
        king_with_ace,
        king_guarded,
        king_bare,
        king_long,
        queen_guarded,
        queen_short,
        voids,
        singletons,
        doubletons,
        float(RANK_ACE in held),
        float(RANK_KING in held),
        float(RANK_KING in held and count >= 2),
        float(RANK_QUEEN in held),
        float(RANK_QUEEN in held and count >= 3),
        float(RANK_JACK in held),
        float(RANK_TEN in held),
        float(count),
        float(max(0, count - 3)),
        float(max(0, count - 4)),
        float(max(0, count - 5)),
        voids * count,
        singletons * count,
        doubletons * count,
    ]


NIL_FEATURE_NAMES = (
    "intercept",
    "spades",
    "spades_over_3",
    "spade_ace",
    "spade_king",
    "spade_queen",
    "spade_jack",
    "spade_ten",
    "spade_lowest_rank",
    "side_ace_bare",
    "side_ace_covered_once",
    "side_ace_covered",
    "side_king_bare",
    "side_king_covered_once",
    "side_king_covered",
    "side_queen_bare",
    "side_queen_covered_once",
    "side_queen_covered",
    "side_jack_exposed",
    "side_jack_covered",
    "side_low_cards",
    "side_suits_without_low_card",
    "side_voids",
    "side_singletons",
    *CONTEXT_NAMES,
)


def nil_features(hand: int, context: BiddingContext) -> list[float]:
    """The features of ``hand`` from which its chance of making Nil is predicted:
    high cards by how many smaller cards of their suit cover them, spade
    danger, and the small cards to duck with.

    >>> from spades.core.cards import mask_of, parse_cards
    >>> hand = mask_of(parse_cards("2S 3S AH 2H 3H KD 4D 2C 3C 4C 5C 6C 7C"))
    >>> row = nil_features(hand, BiddingContext())
    >>> named = dict(zip(NIL_FEATURE_NAMES, row))
    >>> named["side_ace_covered"], named["side_king_covered_once"], len(row) == len(NIL_FEATURE_NAMES)
    (1.0, 1.0, True)
    """
    row = _hand_nil_rows.get(hand)
    if row is None:
        row = _remember(_hand_nil_rows, hand, hand_nil_features(hand))
    return [*row, *context.context_features()]


def hand_nil_features(hand: int) -> list[float]:
    """``nil_features`` without the bids: what the hand holds."""
    exposure = {rank: [0.0, 0.0, 0.0] for rank in (RANK_ACE, RANK_KING, RANK_QUEEN)}
    jack_exposed = jack_covered = low_cards = without_low = voids = singletons = 0.0
    for suit in SIDE_SUITS:
        ranks = suit_ranks(hand, suit)  # highest first
        voids += not ranks
        singletons += len(ranks) == 1
        low_cards += sum(1 for rank in ranks if rank <= LOW_RANK)
        if ranks and ranks[-1] > LOW_RANK + 1:
            without_low += 1
        for index, rank in enumerate(ranks):
            cover = len(ranks) - index - 1  # smaller cards of the suit to play first
            if rank in exposure:
                exposure[rank][min(cover, 2)] += 1
            elif rank == RANK_JACK:
                if cover <= 1:
                    jack_exposed += 1
                else:
                    jack_covered += 1
    spades = suit_ranks(hand, SPADES)
    held = set(spades)
    return [
        1.0,
        float(len(spades)),
        float(max(0, len(spades) - 3)),
        float(RANK_ACE in held),
        float(RANK_KING in held),
        float(RANK_QUEEN in held),
        float(RANK_JACK in held),
        float(RANK_TEN in held),
        float(spades[-1]) if spades else 0.0,
        *exposure[RANK_ACE],
        *exposure[RANK_KING],
        *exposure[RANK_QUEEN],
        jack_exposed,
        jack_covered,
        low_cards,
        without_low,
        voids,
        singletons,
    ]
