"""Soft evidence: how well a sampled deal explains the bids already made.

The sampler enforces what is certain (cards seen, voids shown). Bids are
evidence too, but soft: a player who bid Nil probably holds no high spades, a
player who bid 5 probably holds about five tricks. Each sampled deal gets a
weight, the likelihood of the bids made given the hands it deals, using the
knowledge-based bidder's own judgement as the model of how people bid.
"""

from __future__ import annotations

from math import exp

from spades.core import PlayerView, is_nil

from ..knowledge.bidding import estimate_tricks, nil_danger

BID_SPREAD = 1.6
"""How far (in tricks) people's bids stray from a careful count."""


def bid_likelihood(bid: int, dealt: int) -> float:
    """The relative chance that a player dealt ``dealt`` bids ``bid``.

    Asked for every bid of every deal a search samples: this module is compiled
    (``setup.py``).

    >>> from spades.core import NIL, mask_of, parse_cards
    >>> strong = mask_of(parse_cards("AS KS QS JS 5S AH KH 2H 3D 4D 5C 6C 7C"))
    >>> round(bid_likelihood(5, strong), 3), round(bid_likelihood(1, strong), 3)
    (0.723, 0.053)
    >>> bid_likelihood(NIL, strong)  # a Nil on four top spades: hardly anyone bids it
    0.03
    """
    if is_nil(bid):
        danger = nil_danger(dealt)
        return 0.9 if danger <= 0.8 else max(0.03, 0.9 - 0.5 * (danger - 0.8))
    miss = bid - estimate_tricks(dealt).total
    return 0.05 + exp(-(miss * miss) / (2 * BID_SPREAD * BID_SPREAD))


def deal_weight(view: PlayerView, hands: list[int]) -> float:
    """The weight of a sampled deal (current hands by seat) given the bids."""
    played = [0, 0, 0, 0]
    for seat, card in view.plays():
        played[seat] |= 1 << card
    weight = 1.0
    for seat, bid in view.bids:
        if seat != view.seat:
            weight *= bid_likelihood(bid, hands[seat] | played[seat])
    return weight
