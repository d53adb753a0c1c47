"""The cautious player: bids only the tricks it cannot reasonably lose, so it is
almost never set and takes its bags instead.

Bidding counts near-sure tricks only: side aces in suits short enough not to
be ruffed at once, ace-king together, a king only with the ace or with guards,
spade honours only when enough small spades protect them, and the long spades
from the fifth on; then it keeps a trick in hand on a big count. It bids Nil
only with a hand that holds nothing at all and a partner who bid high.

Play is the solid textbook kind: second hand low, third hand high but no
higher than needed, never over a partner who already has the trick, the last
seat wins as cheaply as it can, sure winners are cashed while the contract
needs tricks, and a partner's Nil is covered.
"""

from __future__ import annotations

from spades.core import NIL, SPADES, SUIT_MASKS, Card, PlayerView
from spades.core.cards import (
    NON_SPADE_MASK,
    RANK_ACE,
    RANK_JACK,
    RANK_KING,
    RANK_OF,
    RANK_QUEEN,
    RANK_TEN,
    SPADE_MASK,
    SUIT_OF,
    cards_in,
)

from ..base import Bot
from .nil import cover_nil, play_nil
from .tricks import (
    TrickSoFar,
    contract_left,
    highest,
    is_boss,
    lowest,
    nil_alive,
    opponents_of,
    partner_holds,
    read_trick,
    sequence_floor,
    winners,
)

SIDE_SUITS = (0, 1, 2)
ROUND_UP_FROM = 0.75
"""A part-trick of at least this much counts as a whole one."""
SAFETY_FROM = 5
"""On a count of this many tricks or more, bid one fewer."""
NIL_PARTNER_BID = 5
"""The least partner must have bid before a hopeless hand tries Nil."""


def ranks_in(hand: int, suit: int) -> set[int]:
    return {RANK_OF[card] for card in cards_in(hand & SUIT_MASKS[suit])}


def sure_tricks(hand: int) -> float:
    """The tricks ``hand`` can hardly fail to take."""
    total = 0.0
    for suit in SIDE_SUITS:
        ranks = ranks_in(hand, suit)
        length = len(ranks)
        if RANK_ACE in ranks and length <= 6:
            total += 1
        if RANK_KING in ranks and 2 <= length <= 5:
            total += 1 if RANK_ACE in ranks else 0.75 if length >= 3 else 0.5
    spades = ranks_in(hand, SPADES)
    count = len(spades)
    honours = 0
    for rank in (RANK_ACE, RANK_KING, RANK_QUEEN):
        if rank not in spades:
            continue
        missing_above = sum(1 for higher in range(rank + 1, RANK_ACE + 1) if higher not in spades)
        guards = sum(1 for lower in spades if lower < rank)
        if rank == RANK_ACE or guards > missing_above or (guards and guards == missing_above):
            honours += 1
    total += min(count, honours + max(0, count - 4))
    return total


def hopeless(hand: int) -> bool:
    """A hand with no trick in it at all: no honour anywhere, few and low spades."""
    spades = hand & SPADE_MASK
    if spades.bit_count() > 2 or (spades and RANK_OF[highest(spades)] >= RANK_TEN):
        return False
    return all(RANK_OF[card] < RANK_QUEEN for card in cards_in(hand & NON_SPADE_MASK))


class CautiousBot(Bot):
    """Underbids, is almost never set, and plays safe, solid cards."""

    name = "cautious"

    def bid(self, view: PlayerView) -> int:
        partner_bid = view.bid_of(view.partner)
        if (
            partner_bid is not None
            and partner_bid >= NIL_PARTNER_BID
            and hopeless(view.hand)
            and sure_tricks(view.hand) == 0
        ):
            return NIL
        count = int(sure_tricks(view.hand) + 1 - ROUND_UP_FROM)
        if count >= SAFETY_FROM:
            count -= 1
        return max(1, min(13, count))

    def play(self, view: PlayerView) -> Card:
        trick = read_trick(view)
        if trick.legal & (trick.legal - 1) == 0:
            return lowest(trick.legal)
        if view.is_nil(view.seat):
            return play_nil(view, trick)
        if nil_alive(view, view.partner):
            card = cover_nil(view, trick, view.partner)
            if card is not None:
                return card
        need = contract_left(view, view.team)
        if trick.position == 0:
            return self.lead(view, trick, need)
        if trick.follows:
            return self.follow(view, trick, need)
        return self.void(view, trick, need)

    def lead(self, view: PlayerView, trick: TrickSoFar, need: int) -> Card:
        legal = trick.legal
        left, right = opponents_of(view.seat)
        voids = view.voids_by_seat()
        ruffers = voids[left] | voids[right]
        if need:
            bosses = [
                card
                for card in cards_in(legal & NON_SPADE_MASK)
                if is_boss(view, card) and SUIT_OF[card] not in ruffers
            ]
            if bosses:
                return max(bosses, key=lambda card: RANK_OF[card])
            spades = legal & SPADE_MASK
            if spades and is_boss(view, highest(spades)) and spades.bit_count() >= 3:
                return highest(spades)
        # Partner void where the opponents are not: partner can ruff.
        for suit in SIDE_SUITS:
            cards = legal & SUIT_MASKS[suit]
            if cards and suit in voids[view.partner] and suit not in ruffers:
                return lowest(cards)
        return lowest(self.safe_suit(view, legal))

    @staticmethod
    def safe_suit(view: PlayerView, legal: int) -> int:
        """The cards of the suit least costly to lead from: not away from an
        unsupported king or queen, the longest such side suit."""
        best, best_key = legal, (-1, -1)
        for suit in (*SIDE_SUITS, SPADES):
            cards = legal & SUIT_MASKS[suit]
            if not cards:
                continue
            top = highest(cards)
            exposed = RANK_OF[top] in (RANK_KING, RANK_QUEEN, RANK_JACK) and not is_boss(view, top)
            key = (0 if suit == SPADES else 2 if not exposed else 1, cards.bit_count())
            if key > best_key:
                best, best_key = cards, key
        return best

    def follow(self, view: PlayerView, trick: TrickSoFar, need: int) -> Card:
        legal = trick.legal
        if SUIT_OF[trick.best] != trick.led:  # trumped: nothing of the suit wins
            return lowest(legal)
        takers = winners(legal, trick.best)
        if not takers:
            return lowest(legal)
        if trick.position == 1:  # second hand low, unless it can cover an honour for sure
            sure = [card for card in cards_in(takers) if is_boss(view, card)]
            if sure and RANK_OF[trick.best] >= RANK_JACK and need:
                return min(sure)
            return lowest(legal)
        if partner_holds(view, trick):
            return lowest(legal)
        if trick.position == 3:
            return lowest(takers)
        card = sequence_floor(view, legal)  # third hand high, no higher than needed
        return card if takers >> card & 1 else lowest(legal)

    def void(self, view: PlayerView, trick: TrickSoFar, need: int) -> Card:
        legal = trick.legal
        if not partner_holds(view, trick) and need:
            trumps = winners(legal & SPADE_MASK, trick.best)
            if trumps:
                return lowest(trumps)
        return self.discard(legal)

    @staticmethod
    def discard(legal: int) -> Card:
        """The lowest side card, from the shortest suit (to make a void); a
        spade only when nothing else is left."""
        side = legal & NON_SPADE_MASK
        if not side:
            return lowest(legal)
        return min(
            cards_in(side),
            key=lambda card: (RANK_OF[card], (legal & SUIT_MASKS[SUIT_OF[card]]).bit_count()),
        )
