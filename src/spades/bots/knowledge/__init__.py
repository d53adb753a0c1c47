"""The knowledge-based player: counts tricks to bid, remembers every card, and
plays by the rules of thumb good players use. Two levels: ``normal``, and
``easy``, the same player making deliberate, human-looking mistakes."""

from __future__ import annotations

from spades.core import Card, PlayerView
from spades.core.cards import SUIT_MASKS, SUIT_OF, cards_in

from ..base import Bot
from .bidding import BidStyle, choose_bid, estimate_tricks, nil_danger
from .blind_nil import wants_blind_nil
from .learned_bidding import choose_learned_bid
from .memory import Memory
from .play import choose_card


class KnowledgeBot(Bot):
    """A careful human-like player (the ``normal`` level)."""

    name = "normal"
    slip_rate = 0.0
    """How often a card is a slip: a different legal card of the same suit."""

    def bid(self, view: PlayerView) -> int:
        return choose_learned_bid(view)

    def blind_nil(self, view: PlayerView) -> bool:
        return wants_blind_nil(view)

    def play(self, view: PlayerView) -> Card:
        card = choose_card(Memory(view))
        if self.slip_rate and self.rng.random() < self.slip_rate:
            card = self.slip(view, card)
        return card

    def slip(self, view: PlayerView, card: Card) -> Card:
        """A plausible mistake: another legal card of the suit chosen, never a
        card of another suit (no revoke-looking discards, no surprise ruffs)."""
        same_suit = [c for c in cards_in(view.legal_mask() & SUIT_MASKS[SUIT_OF[card]])]
        return self.rng.choice(same_suit)


class EasyBot(KnowledgeBot):
    """The ``easy`` level: bids loosely and now and then misplays within a suit."""

    name = "easy"
    style = BidStyle(nil_threshold=0.55, noise=1.2)
    """How loosely it counts (only this level bids by the rule-of-thumb count)."""
    slip_rate = 0.25

    def bid(self, view: PlayerView) -> int:
        # A loose count of tricks, as a casual player bids: not the learned model.
        return choose_bid(view, self.style, jitter=self.rng.uniform(-1, 1))


__all__ = [
    "EasyBot",
    "KnowledgeBot",
    "Memory",
    "choose_bid",
    "choose_card",
    "estimate_tricks",
    "nil_danger",
]
