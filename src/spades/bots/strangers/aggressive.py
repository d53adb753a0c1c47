"""The aggressive player: bids to the hilt, bids Nil whenever its hand is weak,
and hunts sets.

Bidding counts every ace and king, queens that have company, every spade
honour and every spade beyond the third, and a trick more for a short side
suit it can ruff; a part-trick is rounded up. Any weak hand (few and low
spades, no ace, guarded honours, small cards) is bid Nil. Where the rules have
blind Nil it is the comeback bid the guides describe: trailing by 100 points or
more, it goes blind unless its partner has already bid 2 or less (a partner
that weak cannot cover it). It decides on the score and the bids alone, as a
blind Nil must be.

In play it takes its tricks early, keeps winning after its own contract is
made while the opponents can still be set, and only then ducks to spare bags.
Against an opponent's Nil it leads low cards in the suits the Nil bidder still
holds, plays low in front of it, never trumps in front of it, and ducks under
a card the Nil bidder is winning with. Its own Nil it plays carefully: the
highest card that still loses, the most dangerous cards thrown first.
"""

from __future__ import annotations

from spades.core import NIL, SPADES, SUIT_MASKS, Card, PlayerView, Seat
from spades.core.cards import (
    NON_SPADE_MASK,
    RANK_ACE,
    RANK_JACK,
    RANK_KING,
    RANK_OF,
    RANK_QUEEN,
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
    highest_by_rank,
    is_boss,
    lowest,
    lowest_by_rank,
    nil_alive,
    opponents_of,
    partner_holds,
    read_trick,
    sequence_floor,
    winners,
)

SIDE_SUITS = (0, 1, 2)
ROUND_UP_FROM = 0.5
"""A part-trick of at least this much counts as a whole one."""
NIL_MAX_SPADES = 3
NIL_LOW_RANK = 5
"""Cards up to the 7 count as small cards for a Nil."""
NIL_MIN_SMALL = 4
BLIND_NIL_BEHIND = 100
"""Points behind from which it goes blind: the guides' "trailing by 100 or more"."""
BLIND_NIL_MIN_COVER = 3
"""The least a partner who has bid must have bid for it to go blind."""


def ranks_in(hand: int, suit: int) -> set[int]:
    return {RANK_OF[card] for card in cards_in(hand & SUIT_MASKS[suit])}


def hilt_count(hand: int) -> float:
    """Every trick ``hand`` might take, counted generously."""
    spades = ranks_in(hand, SPADES)
    count = len(spades)
    total = 0.0
    ruffs = 0.0
    for suit in SIDE_SUITS:
        ranks = ranks_in(hand, suit)
        length = len(ranks)
        if RANK_ACE in ranks:
            total += 1
        if RANK_KING in ranks:
            total += 1 if length >= 2 else 0.25
        if RANK_QUEEN in ranks and 2 <= length <= 5:
            partnered = RANK_ACE in ranks or RANK_KING in ranks
            total += 1 if partnered and length >= 3 else 0.25
        short = length == 0 or (length == 1 and RANK_ACE not in ranks)
        if short and count >= 2 + length:  # spades to spare for the ruff
            ruffs += 1
    honours = 0
    for rank, needs in ((RANK_ACE, 1), (RANK_KING, 2), (RANK_QUEEN, 3), (RANK_JACK, 4)):
        if rank in spades and count >= needs:
            honours += 1
    total += min(count, honours + max(0, count - 3))
    return total + min(ruffs, max(0, count - 2))


def nil_hand(hand: int) -> bool:
    """A weak hand worth a Nil: at most three spades, none above the queen (and
    that one guarded twice), no ace, each side king and queen guarded, plenty
    of small cards."""
    spades = hand & SPADE_MASK
    if spades.bit_count() > NIL_MAX_SPADES:
        return False
    top = RANK_OF[highest(spades)] if spades else -1
    if top > RANK_QUEEN or (top == RANK_QUEEN and spades.bit_count() < NIL_MAX_SPADES):
        return False  # the queen of spades only with two small spades to duck with
    for suit in SIDE_SUITS:
        ranks = ranks_in(hand, suit)
        if RANK_ACE in ranks:
            return False
        if RANK_KING in ranks and len(ranks) < 3:
            return False
        if RANK_QUEEN in ranks and len(ranks) < 2:
            return False
    small = sum(1 for card in cards_in(hand) if RANK_OF[card] <= NIL_LOW_RANK)
    return small >= NIL_MIN_SMALL


class AggressiveBot(Bot):
    """Overbids, bids Nil freely, hunts sets and attacks the opponents' Nils."""

    name = "aggressive"

    def bid(self, view: PlayerView) -> int:
        if not view.is_nil(view.partner) and nil_hand(view.hand):
            return NIL
        count = int(hilt_count(view.hand) + 1 - ROUND_UP_FROM)
        return max(1, min(13, count))

    def blind_nil(self, view: PlayerView) -> bool:
        """Blind Nil when far enough behind and not left to its own devices."""
        behind = view.totals[1 - view.team] - view.totals[view.team]
        partner_bid = view.bid_of(view.partner)
        return behind >= BLIND_NIL_BEHIND and (
            partner_bid is None or partner_bid >= BLIND_NIL_MIN_COVER
        )

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
        for opponent in opponents_of(view.seat):
            if nil_alive(view, opponent):
                card = self.attack_nil(view, trick, opponent)
                if card is not None:
                    return card
        need = contract_left(view, view.team)
        their_need = contract_left(view, 1 - view.team)
        if need or 0 < their_need <= trick.tricks_left:
            return self.take(view, trick)
        return play_nil(view, trick)  # nothing left to win or to set: spare the bags

    # ------------------------------------------------------------ taking tricks

    def take(self, view: PlayerView, trick: TrickSoFar) -> Card:
        legal = trick.legal
        if trick.position == 0:
            return self.lead(view, legal)
        takers = winners(legal, trick.best)
        if trick.follows:
            if not takers:
                return lowest(legal)
            if trick.position == 1:
                sure = [card for card in cards_in(takers) if is_boss(view, card)]
                return min(sure) if sure else lowest(legal)
            if partner_holds(view, trick):
                return lowest(legal)
            if trick.position == 3:
                return lowest(takers)
            card = sequence_floor(view, legal)
            return card if takers >> card & 1 else lowest(legal)
        if not partner_holds(view, trick) and takers:
            return lowest(takers)
        side = legal & NON_SPADE_MASK
        return lowest_by_rank(side or legal)

    @staticmethod
    def lead(view: PlayerView, legal: int) -> Card:
        left, right = opponents_of(view.seat)
        voids = view.voids_by_seat()
        ruffers = voids[left] | voids[right]
        bosses = [
            card
            for card in cards_in(legal & NON_SPADE_MASK)
            if is_boss(view, card) and SUIT_OF[card] not in ruffers
        ]
        if bosses:
            return max(bosses, key=lambda card: RANK_OF[card])
        spades = legal & SPADE_MASK
        if spades and is_boss(view, highest(spades)):
            return highest(spades)
        if view.hand & SPADE_MASK:  # a singleton now makes a void to ruff later
            for suit in SIDE_SUITS:
                cards = legal & SUIT_MASKS[suit]
                if cards.bit_count() == 1:
                    return lowest(cards)
        side = [legal & SUIT_MASKS[suit] for suit in SIDE_SUITS if legal & SUIT_MASKS[suit]]
        if side:
            return lowest(max(side, key=lambda cards: cards.bit_count()))
        return lowest(legal)

    # --------------------------------------------------------- setting a Nil

    @staticmethod
    def attack_nil(view: PlayerView, trick: TrickSoFar, nil_seat: Seat) -> Card | None:
        """A card that makes the Nil bidder's life hard this trick, or ``None``
        when this trick cannot hurt it any more."""
        legal = trick.legal
        if trick.position == 0:
            voids = view.void_suits(nil_seat)
            open_suits = legal
            for suit in voids:
                open_suits &= ~SUIT_MASKS[suit]
            return lowest_by_rank(open_suits) if open_suits else None
        nil_position = (nil_seat - view.leader) & 3
        if nil_position < trick.position:  # the Nil bidder has played
            if trick.winner != nil_seat:
                return None
            under = legal & ~winners(legal, trick.best)
            if not under:
                return None
            if trick.follows:
                return highest(under)
            return highest_by_rank(under & NON_SPADE_MASK or under)
        if trick.winner == (nil_seat + 2) & 3 and is_boss(view, trick.best):
            return None  # its partner has the trick for sure: it ducks whatever we play
        if trick.follows:
            return lowest(legal)
        side = legal & NON_SPADE_MASK
        return highest_by_rank(side) if side else None
