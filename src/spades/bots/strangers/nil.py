"""Playing a Nil and covering a partner's Nil, as the public guides teach it.

The Nil bidder ducks with the highest card that still loses and, when void,
throws away its most dangerous (highest) cards first. The partner who covers
plays high in front of the Nil bidder, leads high so the Nil can play under,
and takes a trick the Nil bidder is winning whenever it can.
"""

from __future__ import annotations

from spades.core import Card, PlayerView, Seat, cards_below
from spades.core.cards import SUIT_OF

from .tricks import (
    TrickSoFar,
    highest,
    highest_by_rank,
    is_boss,
    lowest,
    lowest_by_rank,
    winners,
)


def play_nil(view: PlayerView, trick: TrickSoFar) -> Card:
    """The card of a seat that bid Nil: lose every trick it can."""
    legal = trick.legal
    if trick.position == 0:
        return lowest_by_rank(legal)
    if trick.follows:
        if SUIT_OF[trick.best] != trick.led:  # trumped: every card of the suit loses
            return highest(legal)
        under = legal & cards_below(trick.best)
        if under:
            return highest(under)
        # Every card wins for now: dump the highest when nobody can take it off us.
        if trick.position == 3 or is_boss(view, lowest(legal)):
            return highest(legal)
        return lowest(legal)
    losing = legal & ~winners(legal, trick.best)
    if losing:
        return highest_by_rank(losing)
    return highest(legal) if trick.position == 3 else lowest(legal)


def cover_nil(view: PlayerView, trick: TrickSoFar, nil_seat: Seat) -> Card | None:
    """A card that protects the partner's Nil this trick, or ``None`` when the
    Nil is in no danger from this trick (the caller then plays its own game)."""
    legal = trick.legal
    if trick.position == 0:
        return highest_by_rank(legal)
    nil_position = (nil_seat - view.leader) & 3
    if nil_position < trick.position:  # the Nil bidder has played
        if trick.winner != nil_seat:
            return None
        takers = winners(legal, trick.best)
        if not takers:
            return None
        if trick.follows and trick.position < 3:
            return highest(takers)
        return lowest(takers)
    # The Nil bidder plays after us: set the bar as high as we can.
    takers = winners(legal, trick.best)
    if trick.follows:
        return highest(legal) if takers else lowest(legal)
    if takers and not is_boss(view, trick.best):
        return lowest(takers)
    return None
