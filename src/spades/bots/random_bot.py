"""The baseline: uniformly random among the legal bids and cards."""

from __future__ import annotations

from spades.core import Card, PlayerView

from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal bids (Nil, 1..13) and legal cards."""

    name = "random"

    def bid(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_bids())

    def play(self, view: PlayerView) -> Card:
        return self.rng.choice(view.legal_cards())
