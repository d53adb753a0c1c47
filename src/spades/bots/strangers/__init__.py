"""Strangers: four opponents that share no code, tables or tuning with the
project's own bots, to measure them against players they were never tuned on.

Three play the way a kind of human player is described in public Spades
strategy writing; the fourth, ``shark``, thinks by dealing the cards out and
playing them, with its own deals, playout rules and fitted bidding. They
import only the rules engine (``spades.core``) and the ``Bot`` interface, and
their small helpers (``tricks``, ``nil``, the ``shark_*`` modules) live here.

``cautious``
    Bids only the tricks it can hardly lose (side aces, ace-king, guarded
    spade honours, long spades), one fewer on a big count, so it is almost
    never set and takes bags instead. Nil only with a hand holding nothing when
    partner bid high. Plays solid textbook cards: second hand low, third hand
    high but no higher than needed, never over a partner's winner, cheap wins
    in last seat, covers a partner's Nil.
``aggressive``
    Bids to the hilt (aces, kings, queens with company, every spade beyond
    the third, short suits to ruff, part-tricks rounded up), bids Nil with any
    weak hand, keeps taking tricks after its contract while the opponents can
    still be set, and attacks their Nils (low leads in the suits the Nil still
    holds, low in front of it, ducking under its winning card). Its own Nils
    it plays with care: the highest losing card, the dangerous cards first.
``beginner``
    Bids its aces and kings, never Nil; wins with the lowest card that does,
    else plays its lowest; leads its highest side card; trumps with its lowest
    winning spade unless partner has the trick.
``shark``
    Searches: for a card it deals the hidden cards out a fixed number of times
    as its view allows, plays each distinct card it may play to the end of the
    hand on every deal by its own simple rules at all four seats, and plays the
    card whose hands score best for its side. It bids the number worth most
    over a trick count fitted on its own play (``tools/fit_shark_bidding.py``),
    and Nil where dealt-out hands say Nil scores more.

Sources of the styles (read for their ideas, nothing copied): the "For
Dummies" article on valuing high cards in Spades (aces a trick, kings about
two thirds, queens a third, every spade past the third a trick); the online
Spades book at sharkfeeder.com on bidding (trump honours counted only when
guarded by enough small spades); a veteran online player's bidding
"manifesto" (bid what you cannot lose, not what you might take); beginners'
bidding guides (count aces and kings, plus voids and singletons and extra
spades); the guides at playspades.co.uk, worldofcardgames.com and the Yahoo
Games Spades strategy pages on when to bid and how to play, cover and set a
Nil, and on hunting sets when the table's bid is high.
"""

from __future__ import annotations

from ..base import Bot
from .aggressive import AggressiveBot
from .beginner import BeginnerBot
from .cautious import CautiousBot
from .shark import SharkBot

STRANGERS: dict[str, type[Bot]] = {
    "cautious": CautiousBot,
    "aggressive": AggressiveBot,
    "beginner": BeginnerBot,
    "shark": SharkBot,
}
"""Every stranger by the name the arena knows it by."""

__all__ = ["STRANGERS", "AggressiveBot", "BeginnerBot", "CautiousBot", "SharkBot"]
