"""The hidden-hand sampler: consistent with the view, and exactly uniform."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from spades.bots.search.sampler import HiddenHands
from spades.core import SOUTH, Game, Phase, PlayerView
from spades.core.cards import SUIT_OF, cards_in


def view_after(seed: int, plays: int) -> tuple[Game, PlayerView]:
    game = Game(seed=seed)
    rng = random.Random(seed)
    done = 0
    while done < plays or game.to_act != SOUTH:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, 3)
        else:
            game.play(seat, rng.choice(game.legal_cards()))
            done += 1
    return game, game.view(SOUTH)


def consistent_deals(view: PlayerView, hidden: HiddenHands) -> list[tuple[int, ...]]:
    """Every deal of the unseen cards that fits the sizes and the voids (brute force)."""
    cards = list(cards_in(view.unseen))
    voids = [view.void_suits(seat) for seat in hidden.others]
    deals = []
    for owners in itertools.product(range(3), repeat=len(cards)):
        if [owners.count(i) for i in range(3)] != hidden.sizes:
            continue
        if any(SUIT_OF[card] in voids[owner] for card, owner in zip(cards, owners, strict=True)):
            continue
        hands = [0, 0, 0]
        for card, owner in zip(cards, owners, strict=True):
            hands[owner] |= 1 << card
        deals.append(tuple(hands))
    return deals


def test_samples_agree_with_the_view() -> None:
    for seed in range(20):
        game, view = view_after(seed, 24)
        hidden = HiddenHands(view)
        rng = random.Random(seed)
        for _ in range(20):
            hands = hidden.sample(rng)
            assert hands[SOUTH] == view.hand
            assert hands[0] | hands[1] | hands[2] | hands[3] == view.unseen | view.hand
            for seat in range(4):
                assert hands[seat].bit_count() == game.hand.hands[seat].bit_count()
                for suit in view.void_suits(seat):
                    assert not any(SUIT_OF[c] == suit for c in cards_in(hands[seat]))


@pytest.mark.slow
def test_sampler_frequencies_match_exact_enumeration_on_small_endgames() -> None:
    checked = 0
    for seed in range(200):
        _, view = view_after(seed, 40)  # 3 tricks left: 9 unseen cards
        hidden = HiddenHands(view)
        if not hidden.constrained:
            continue
        deals = consistent_deals(view, hidden)
        if not 3 <= len(deals) <= 60:
            continue
        assert hidden.count(0, hidden.sizes[0], hidden.sizes[1]) == len(deals)
        rng = random.Random(seed)
        draws = 300 * len(deals)
        counts = Counter(
            tuple(hands[seat] for seat in hidden.others)
            for hands in (hidden.sample(rng) for _ in range(draws))
        )
        assert set(counts) == set(deals)  # every consistent deal, and only those
        expected = draws / len(deals)
        chi_square = sum((counts[deal] - expected) ** 2 / expected for deal in deals)
        # Far beyond the 99.9th percentile of chi-square for these degrees of freedom.
        assert chi_square < 2 * len(deals) + 40, (seed, len(deals), chi_square)
        checked += 1
        if checked == 5:
            break
    assert checked == 5
