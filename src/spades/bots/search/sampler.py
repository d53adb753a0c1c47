"""Sampling the hidden hands a seat cannot see, exactly uniformly.

A search player reasons over deals of the unseen cards that agree with
everything its seat knows: how many cards each other seat still holds and the
suits each has shown void in. Every such deal must be equally likely: a greedy
deal (hand the cards out one by one, skipping seats that are void) is biased
toward giving constrained seats the leftovers, and the search then believes
things the evidence does not say.

Without voids a plain shuffle is exact. With voids the sampler counts, suit by
suit, how many consistent deals each split of a suit among the seats leaves
(a small dynamic programme over the seats' remaining room), draws a split with
probability proportional to that count, then shuffles the suit's cards within
the split. The result is exactly uniform over the consistent deals.
"""

from __future__ import annotations

import random
from math import comb

from spades.core import PlayerView
from spades.core.cards import SUIT_MASKS, cards_in


class HiddenHands:
    """The hidden part of one seat's view, ready to be sampled many times.

    >>> import random
    >>> from spades.core import Game
    >>> view = Game(seed=1).view(0)
    >>> hands = HiddenHands(view).sample(random.Random(2))
    >>> hands[0] == view.hand, [bin(hand).count("1") for hand in hands]
    (True, [13, 13, 13, 13])
    """

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.others = [(view.seat + offset) & 3 for offset in (1, 2, 3)]
        played = [0, 0, 0, 0]
        for seat, _card in view.plays():
            played[seat] += 1
        self.sizes = [13 - played[seat] for seat in self.others]
        unseen = view.unseen
        self.suit_cards = [list(cards_in(unseen & SUIT_MASKS[suit])) for suit in range(4)]
        by_seat = view.voids_by_seat()
        voids = [by_seat[seat] for seat in self.others]
        self.allowed = [[suit not in voids[i] for i in range(3)] for suit in range(4)]
        if sum(self.sizes) != sum(len(cards) for cards in self.suit_cards):
            raise ValueError("the view's unseen cards do not match the other hands' sizes")
        self.constrained = any(not ok for row in self.allowed for ok in row)
        self._counts: dict[tuple[int, int, int], int] = {}
        if self.constrained and self.count(0, self.sizes[0], self.sizes[1]) == 0:
            raise ValueError("no deal of the unseen cards agrees with the voids shown")

    # -------------------------------------------------------------- counting

    def splits(self, suit: int, room0: int, room1: int) -> list[tuple[int, int, int]]:
        """The ways to split ``suit``'s unseen cards among the three seats."""
        total = len(self.suit_cards[suit])
        room2 = self.room_left(suit, room0, room1)
        allowed = self.allowed[suit]
        result = []
        for first in range(min(total, room0) + 1 if allowed[0] else 1):
            for second in range(min(total - first, room1) + 1 if allowed[1] else 1):
                third = total - first - second
                if third <= room2 and (allowed[2] or third == 0):
                    result.append((first, second, third))
        return result

    def room_left(self, suit: int, room0: int, room1: int) -> int:
        """The third seat's room, implied: every card of suits ``suit``.. is dealt."""
        remaining = sum(len(cards) for cards in self.suit_cards[suit:])
        return remaining - room0 - room1

    def count(self, suit: int, room0: int, room1: int) -> int:
        """How many deals of suits ``suit``..spades fit the seats' remaining room."""
        key = (suit, room0, room1)
        known = self._counts.get(key)
        if known is None:
            known = self._counts[key] = self._count(suit, room0, room1)
        return known

    def _count(self, suit: int, room0: int, room1: int) -> int:
        if room0 < 0 or room1 < 0 or self.room_left(suit, room0, room1) < 0:
            return 0
        if suit == 4:
            return 1 if room0 == room1 == 0 else 0
        total = len(self.suit_cards[suit])
        ways = 0
        for split in self.splits(suit, room0, room1):
            ways += (
                comb(total, split[0])
                * comb(total - split[0], split[1])
                * self.count(suit + 1, room0 - split[0], room1 - split[1])
            )
        return ways

    # -------------------------------------------------------------- sampling

    def sample(self, rng: random.Random) -> list[int]:
        """The four seats' current hands (the viewer's own included), uniformly
        among the deals consistent with the view."""
        hands = [0, 0, 0, 0]
        hands[self.view.seat] = self.view.hand
        if not self.constrained:
            deck = [card for cards in self.suit_cards for card in cards]
            rng.shuffle(deck)
            start = 0
            for index, seat in enumerate(self.others):
                for card in deck[start : start + self.sizes[index]]:
                    hands[seat] |= 1 << card
                start += self.sizes[index]
            return hands
        room0, room1 = self.sizes[0], self.sizes[1]
        for suit in range(4):
            split = self.draw_split(suit, room0, room1, rng)
            cards = self.suit_cards[suit][:]
            rng.shuffle(cards)
            start = 0
            for index, seat in enumerate(self.others):
                for card in cards[start : start + split[index]]:
                    hands[seat] |= 1 << card
                start += split[index]
            room0 -= split[0]
            room1 -= split[1]
        return hands

    def draw_split(
        self, suit: int, room0: int, room1: int, rng: random.Random
    ) -> tuple[int, int, int]:
        """A split of ``suit`` drawn in proportion to the deals it leaves."""
        total = len(self.suit_cards[suit])
        options = []
        weights = []
        for split in self.splits(suit, room0, room1):
            ways = comb(total, split[0]) * comb(total - split[0], split[1])
            if suit < 3:
                ways *= self.count(suit + 1, room0 - split[0], room1 - split[1])
            if ways:
                options.append(split)
                weights.append(ways)
        pick = rng.randrange(sum(weights))
        for split, weight in zip(options, weights, strict=True):
            if pick < weight:
                return split
            pick -= weight
        raise AssertionError("unreachable: the weights sum to the total")
