"""The beginner: bids its aces and kings and plays the first rules anyone learns.

It never bids Nil. Following suit it wins with the lowest card that does, or
plays its lowest; it leads its highest side-suit card; void in the suit led it
trumps with its lowest spade that wins unless partner already has the trick,
and otherwise throws its lowest side-suit card.
"""

from __future__ import annotations

from spades.core import Card, PlayerView
from spades.core.cards import NON_SPADE_MASK, RANK_KING, RANK_OF, SPADE_MASK, cards_in

from ..base import Bot
from .tricks import highest, highest_by_rank, lowest, lowest_by_rank, read_trick, winners


def aces_and_kings(hand: int) -> int:
    """How many aces and kings ``hand`` holds."""
    return sum(1 for card in cards_in(hand) if RANK_OF[card] >= RANK_KING)


class BeginnerBot(Bot):
    """Counts aces and kings, plays to win every trick it cheaply can."""

    name = "beginner"

    def bid(self, view: PlayerView) -> int:
        return max(1, aces_and_kings(view.hand))

    def play(self, view: PlayerView) -> Card:
        trick = read_trick(view)
        legal = trick.legal
        if trick.position == 0:
            side = legal & NON_SPADE_MASK
            return highest_by_rank(side) if side else highest(legal)
        if trick.follows:
            takers = winners(legal, trick.best)
            return lowest(takers) if takers else lowest(legal)
        if trick.winner != view.partner:
            trumps = winners(legal & SPADE_MASK, trick.best)
            if trumps:
                return lowest(trumps)
        return lowest_by_rank(legal & NON_SPADE_MASK or legal)
