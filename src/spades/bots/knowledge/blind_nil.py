"""When to bid blind Nil: a decision made before looking at the cards.

Nothing of the hand is known, so the only evidence is the score. A blind Nil
is made about as often as a Nil on a random hand, and broken more often than
not (a pass of cards helps it, but not enough): worth it only to a team that
an ordinary hand would not save.

>>> from spades.core import Game, parse_rules
>>> game = Game(parse_rules("cardcouch,blind_nil=on"), seed=1)
>>> wants_blind_nil(game.view(game.to_act).without_cards())
False
"""

from __future__ import annotations

from typing import Final

from spades.core import BLIND_NIL, PlayerView

CLOSING_GAP: Final = 100
"""Behind by at least this much..."""
NEAR_TARGET: Final = 120
"""...while the other side is this near the target: one ordinary hand of theirs ends the game."""


def wants_blind_nil(view: PlayerView) -> bool:
    """Whether the seat of ``view`` (its cards unseen) should bid blind Nil.

    A blind Nil loses points on average (it is broken more often than made),
    so it is a last resort: only when the other side is about to win and an
    ordinary hand would not catch up.
    """
    if BLIND_NIL not in view.without_cards().legal_bids() or view.is_nil(view.partner):
        return False  # and two Nils with nobody to cover them would be worse still
    ours, theirs = view.totals[view.team], view.totals[1 - view.team]
    return theirs - ours >= CLOSING_GAP and theirs >= view.rules.target - NEAR_TARGET
