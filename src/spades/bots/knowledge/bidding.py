"""Bidding by counting tricks, with Nil when the hand suits it, aware of the
bags and the score.

The estimate weighs side aces and protected kings and queens by suit length,
spade strength and length, and the ruffing value of short suits. The numbers
are the usual rules of thumb of good players, tuned against the arena.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.core import NIL, PlayerView, is_nil
from spades.core.cards import RANK_ACE, RANK_JACK, RANK_KING, RANK_QUEEN, SPADES
from spades.core.seats import partner_of, team_of

from .features import suit_ranks


@dataclass(frozen=True)
class HandEstimate:
    """Expected tricks of a hand, split into where they come from."""

    side_tricks: float
    spade_tricks: float
    ruff_tricks: float

    @property
    def total(self) -> float:
        return self.side_tricks + self.spade_tricks + self.ruff_tricks


def side_suit_tricks(ranks: list[int]) -> float:
    """Tricks expected from the high cards of one side suit (ranks, high first)."""
    length = len(ranks)
    held = set(ranks)
    tricks = 0.0
    # A long suit's honours are often ruffed by the third or fourth round.
    if RANK_ACE in held:
        tricks += 1.0 if length <= 5 else 0.7
    if RANK_KING in held:
        if RANK_ACE in held:
            tricks += 0.9 if length <= 4 else 0.5
        elif length >= 2:
            tricks += 0.7 if length <= 4 else 0.4
        else:
            tricks += 0.15  # a bare king falls under the ace
    if RANK_QUEEN in held and length >= 3:
        top_partners = len(held & {RANK_ACE, RANK_KING})
        tricks += (0.5, 0.45, 0.4)[top_partners] if length <= 4 else 0.2
    return tricks


def spade_tricks(ranks: list[int]) -> float:
    """Tricks expected from the trump suit: honours and length."""
    length = len(ranks)
    held = set(ranks)
    tricks = 0.0
    if RANK_ACE in held:
        tricks += 1.0
    if RANK_KING in held:
        tricks += 1.0 if length >= 2 or RANK_ACE in held else 0.5
    if RANK_QUEEN in held:
        tricks += 0.9 if length >= 3 else 0.4
    if RANK_JACK in held and length >= 4:
        tricks += 0.5
    honours = len(held & {RANK_ACE, RANK_KING, RANK_QUEEN})
    # Spades beyond the third usually win by length once the others run out.
    low_length = max(0, length - 3)
    tricks += max(0.0, low_length - max(0, honours - 1) * 0.5) * 0.9
    return tricks


def ruff_tricks(hand: int, spades_used: float) -> float:
    """Tricks from trumping short side suits with spades not already counted."""
    spades = len(suit_ranks(hand, SPADES))
    spare = max(0.0, spades - spades_used)
    potential = 0.0
    for suit in range(3):
        length = len(suit_ranks(hand, suit))
        potential += {0: 1.6, 1: 0.9, 2: 0.3}.get(length, 0.0)
    return min(spare, potential) * 0.75


def estimate_tricks(hand: int) -> HandEstimate:
    """Expected tricks of ``hand`` played at a number (not Nil).

    The search weighs each deal it samples by these counts (``inference``), so
    this module is compiled (``setup.py``).

    >>> from spades.core import mask_of, parse_cards
    >>> hand = mask_of(parse_cards("AS KS QS JS 5S AH KH 2H 3D 4D 5C 6C 7C"))
    >>> estimate = estimate_tricks(hand)
    >>> estimate.side_tricks, estimate.spade_tricks, round(estimate.total, 2)
    (1.9, 4.3, 6.42)
    """
    side = sum(side_suit_tricks(suit_ranks(hand, suit)) for suit in range(3))
    spades = spade_tricks(suit_ranks(hand, SPADES))
    return HandEstimate(side, spades, ruff_tricks(hand, spades))


def nil_danger(hand: int) -> float:
    """How likely ``hand`` is to be forced to take a trick: 0 safe .. 1+ hopeless."""
    danger = 0.0
    spades = suit_ranks(hand, SPADES)
    if len(spades) > 3:
        danger += 0.4 * (len(spades) - 3)
    for rank in spades:
        if rank >= RANK_JACK:
            danger += 0.9 if rank >= RANK_QUEEN else 0.5
        elif rank >= 7:  # 9 or 10 of spades
            danger += 0.2
    for suit in range(3):
        ranks = suit_ranks(hand, suit)
        low_cards = sum(1 for r in ranks if r <= 5)  # 2..7 duck well
        for index, rank in enumerate(ranks):
            if rank < 9:  # below the jack
                continue
            cover = len(ranks) - index - 1  # smaller cards of the suit to duck with first
            exposure = {12: 1.0, 11: 0.7, 10: 0.45, 9: 0.25}[rank]
            danger += exposure / (1 + cover * 0.8)
        if ranks and low_cards == 0 and ranks[-1] >= 7:  # no card below a 9 to duck with
            danger += 0.3
    return danger


@dataclass(frozen=True)
class BidStyle:
    """How boldly a player bids (the easy level is sloppier)."""

    nil_threshold: float = 0.75
    noise: float = 0.0


def choose_bid(view: PlayerView, style: BidStyle, jitter: float = 0.0) -> int:
    """The bid for ``view``'s seat, ``NIL`` included."""
    hand = view.hand
    estimate = estimate_tricks(hand).total + jitter * style.noise
    partner_bid = view.bid_of(partner_of(view.seat))
    team = team_of(view.seat)
    ours, theirs = view.totals[team], view.totals[1 - team]
    target = view.rules.target

    threshold = style.nil_threshold
    if ours - theirs > 150:
        threshold *= 0.7  # well ahead: no needless gambles
    elif theirs - ours > 150 or theirs >= target - 120:
        threshold *= 1.3  # far behind or they are close to winning: take the chance
    if view.bags[team] >= 7:
        threshold *= 1.15  # Nil takes no overtricks
    partner_can_cover = partner_bid is None or (not is_nil(partner_bid) and partner_bid >= 3)
    if partner_can_cover and estimate < 2.6 and nil_danger(hand) <= threshold:
        return NIL

    bid = estimate
    if view.bags[team] >= 7:
        bid += 0.3  # bid up to what the hand may take: bags are close to a penalty
    if theirs >= target - 150 and theirs > ours:
        bid += 0.3  # they could win this hand: bid enough to help set them
    if ours - theirs > 150:
        bid -= 0.2  # ahead: be sure to make it
    if is_nil(partner_bid):
        bid += 0.5  # covering a Nil partner means winning extra tricks anyway
    return max(1, min(13, int(bid + 0.5)))
