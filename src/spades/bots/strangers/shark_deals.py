"""The shark's deals: the hidden cards dealt out again, as the seat's view allows.

Every deal keeps what the seat knows: each other seat holds as many cards as
it has left to play, no card of a suit it has shown it is void in (it once
failed to follow), and the partner still holds the cards the seat passed it
and has not seen played. Within that, the cards fall at random: the most
constrained cards first (those only one seat may hold, then two), each to a
seat with room for it, drawn in proportion to the room it has left. Such a
draw can paint itself into a corner (two voids that leave a seat nothing it
may hold); it is then drawn again, and after a few failures dealt with a
check before each card that the rest can still be placed.

>>> from spades.core import HandState, PlayerView
>>> from spades.core.hand import deal_from_seed
>>> import random
>>> view = PlayerView.of(HandState.from_deal(0, deal_from_seed(3)), 1)
>>> hands = DealSampler(view).sample(random.Random(1))
>>> hands[1] == view.hand, [hand.bit_count() for hand in hands]
(True, [13, 13, 13, 13])
"""

from __future__ import annotations

import random
from itertools import combinations

from spades.core import SUIT_MASKS, PlayerView
from spades.core.cards import SUIT_OF, cards_in

QUICK_TRIES = 8
"""Proportional draws tried before the checked one."""


class DealSampler:
    """Deals consistent with one view, drawn as many times as asked."""

    def __init__(self, view: PlayerView) -> None:
        self.seat = view.seat
        self.own = view.hand
        played = [0, 0, 0, 0]
        for seat, _card in view.plays():
            played[seat] += 1
        known = [0, 0, 0, 0]
        known[view.partner] = view.known_cards(view.partner)
        self.known = known
        self.others = [seat for seat in range(4) if seat != view.seat]
        self.room = [0, 0, 0, 0]
        for seat in self.others:
            self.room[seat] = 13 - played[seat] - known[seat].bit_count()
        voids = view.voids_by_seat()
        free = view.unseen & ~known[view.partner]
        # The seats that may hold a card of each suit, and the cards grouped
        # by how many seats may hold them (most constrained first).
        self.holders = [
            [seat for seat in self.others if suit not in voids[seat]] for suit in range(4)
        ]
        self.cards = sorted(cards_in(free), key=lambda card: len(self.holders[SUIT_OF[card]]))
        self.suit_counts = [(free & SUIT_MASKS[suit]).bit_count() for suit in range(4)]
        self.constrained = any(len(self.holders[SUIT_OF[card]]) < 3 for card in self.cards)

    def sample(self, rng: random.Random) -> list[int]:
        """One deal: every seat's cards (the viewer's own as they are)."""
        if not self.constrained:
            return self.shuffled(rng)
        for _ in range(QUICK_TRIES):
            hands = self.proportional(rng)
            if hands is not None:
                return hands
        return self.checked(rng)

    def start(self) -> list[int]:
        hands = self.known.copy()
        hands[self.seat] = self.own
        return hands

    def shuffled(self, rng: random.Random) -> list[int]:
        cards = self.cards.copy()
        rng.shuffle(cards)
        hands = self.start()
        at = 0
        for seat in self.others:
            for card in cards[at : at + self.room[seat]]:
                hands[seat] |= 1 << card
            at += self.room[seat]
        return hands

    def proportional(self, rng: random.Random) -> list[int] | None:
        """A draw of each card to a seat with room, in proportion to the room; ``None`` if stuck."""
        hands = self.start()
        room = self.room.copy()
        cards = self.cards
        index = 0
        while index < len(cards):
            # Shuffle within each run of equally constrained cards.
            width = len(self.holders[SUIT_OF[cards[index]]])
            end = index
            while end < len(cards) and len(self.holders[SUIT_OF[cards[end]]]) == width:
                end += 1
            run = cards[index:end]
            rng.shuffle(run)
            for card in run:
                seats = self.holders[SUIT_OF[card]]
                total = sum(room[seat] for seat in seats)
                if not total:
                    return None
                pick = rng.randrange(total)
                for seat in seats:
                    pick -= room[seat]
                    if pick < 0:
                        break
                hands[seat] |= 1 << card
                room[seat] -= 1
            index = end
        return hands

    def checked(self, rng: random.Random) -> list[int]:
        """A draw that checks, before placing each card, that the rest still fit."""
        hands = self.start()
        room = self.room.copy()
        counts = self.suit_counts.copy()
        cards = self.cards.copy()
        rng.shuffle(cards)
        cards.sort(key=lambda card: len(self.holders[SUIT_OF[card]]))
        for card in cards:
            suit = SUIT_OF[card]
            counts[suit] -= 1
            seats = [seat for seat in self.holders[suit] if room[seat]]
            rng.shuffle(seats)
            for seat in seats:
                room[seat] -= 1
                if self.fits(room, counts):
                    break
                room[seat] += 1
            else:
                raise ValueError("the view admits no deal: its voids and card counts contradict")
            hands[seat] |= 1 << card
        return hands

    def fits(self, room: list[int], counts: list[int]) -> bool:
        """Hall's condition: every group of seats has at least as many cards it
        may hold left as it has room."""
        for size in (1, 2, 3):
            for group in combinations(self.others, size):
                need = sum(room[seat] for seat in group)
                if need and need > sum(
                    counts[suit]
                    for suit in range(4)
                    if any(seat in self.holders[suit] for seat in group)
                ):
                    return False
        return True
