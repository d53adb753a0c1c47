"""The baseline: uniformly random among the legal bids and cards."""

from __future__ import annotations

from spades.core import Card, PlayerView, cards_in

from .base import Bot


class RandomBot(Bot):
    """Picks uniformly among the legal bids (Nil, 1..13) and legal cards."""

    name = "random"

    def bid(self, view: PlayerView) -> int:
        return self.rng.choice(view.legal_bids())

    def blind_nil(self, view: PlayerView) -> bool:
        return self.rng.random() < 1 / 15  # as often as any one of the other bids

    def pass_cards(self, view: PlayerView) -> list[Card]:
        return self.rng.sample(list(cards_in(view.hand)), view.pass_count)

    def play(self, view: PlayerView) -> Card:
        return self.rng.choice(view.legal_cards())
