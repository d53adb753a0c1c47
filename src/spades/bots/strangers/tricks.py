"""What a stranger reads off its view: the trick so far, the contracts, the sure winners.

The strangers' own small toolkit, written for them alone: they share nothing
with the project's other bots but the rules engine (``spades.core``).

>>> from spades.core import card_name, mask_of, parse_card, parse_cards
>>> card_name(lowest_by_rank(mask_of(parse_cards("9C 3S 3H"))))   # a side suit before a spade
'3H'
>>> beats(parse_card("2S"), parse_card("AH")), beats(parse_card("KH"), parse_card("AH"))
(True, False)
>>> [card_name(c) for c in cards_in(winners(mask_of(parse_cards("QH AH 2S 3C")), parse_card("KH")))]
['AH', '2S']
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.core import (
    SPADES,
    SUIT_MASKS,
    Card,
    PlayerView,
    Seat,
    beating_cards,
    beats,
    cards_above,
    cards_below,
    cards_in,
)
from spades.core.cards import RANK_JACK, RANK_OF, SUIT_OF, highest, lowest

__all__ = [
    "TrickSoFar",
    "beats",
    "contract_left",
    "highest",
    "highest_by_rank",
    "is_boss",
    "lowest",
    "lowest_by_rank",
    "nil_alive",
    "opponents_of",
    "partner_holds",
    "read_trick",
    "sequence_floor",
    "winners",
]

TRICKS: int = 13


def winners(mask: int, best: Card) -> int:
    """The cards of ``mask`` that would take the trick from ``best``."""
    return mask & beating_cards(best)


def lowest_by_rank(mask: int) -> Card:
    """The lowest-ranked card of a non-empty mask, a side suit before a spade."""
    return min(cards_in(mask), key=lambda card: (RANK_OF[card], SUIT_OF[card] == SPADES, card))


def highest_by_rank(mask: int) -> Card:
    """The highest-ranked card of a non-empty mask, a side suit before a spade."""
    return max(cards_in(mask), key=lambda card: (RANK_OF[card], SUIT_OF[card] != SPADES, card))


def is_boss(view: PlayerView, card: Card) -> bool:
    """Whether no card the seat has not seen outranks ``card`` in its suit."""
    return not view.unseen & cards_above(card)


def sequence_floor(view: PlayerView, suit_cards: int) -> Card:
    """The cheapest card as good as the top one of ``suit_cards`` (one suit):
    walk down from the top while no unseen card lies in between."""
    pick = highest(suit_cards)
    rest = suit_cards & ~(1 << pick)
    while rest:
        lower = highest(rest)
        if view.unseen & cards_above(lower) & cards_below(pick):
            break
        pick = lower
        rest &= ~(1 << lower)
    return pick


def partner_holds(view: PlayerView, trick: TrickSoFar) -> bool:
    """Whether partner is winning the trick and may be left to it: we play
    last, or partner's card is the best left in its suit, or an honour."""
    if trick.winner != view.partner:
        return False
    return trick.position == 3 or is_boss(view, trick.best) or RANK_OF[trick.best] >= RANK_JACK


def opponents_of(seat: Seat) -> tuple[Seat, Seat]:
    return (seat + 1) & 3, (seat + 3) & 3


def nil_alive(view: PlayerView, seat: Seat) -> bool:
    """Whether ``seat`` bid Nil and has taken no trick yet."""
    return view.is_nil(seat) and view.tricks_won[seat] == 0


def contract_left(view: PlayerView, team: int) -> int:
    """Tricks ``team``'s numeric bidders still need (0 once made, or if none bid a number)."""
    return view.contract(team).left


@dataclass(frozen=True, slots=True)
class TrickSoFar:
    """The trick in progress as the seat to play sees it."""

    legal: int
    """The cards the seat may play (a mask)."""
    position: int
    """0 when leading, 3 when playing last."""
    led: int
    """The suit led, -1 when leading."""
    best: Card
    """The card winning the trick so far, -1 when leading."""
    winner: Seat
    """The seat winning the trick so far, -1 when leading."""
    tricks_left: int
    """Tricks still to be won, this one included."""

    @property
    def follows(self) -> bool:
        """Whether the seat holds (and so must play) the suit led."""
        return self.led >= 0 and bool(self.legal & SUIT_MASKS[self.led])


def read_trick(view: PlayerView) -> TrickSoFar:
    """The trick of ``view``, whose seat is to play."""
    best = winner = -1
    for position, card in enumerate(view.trick):
        if best < 0 or beats(card, best):
            best, winner = card, (view.leader + position) & 3
    return TrickSoFar(
        legal=view.legal_mask(),
        position=len(view.trick),
        led=SUIT_OF[view.trick[0]] if view.trick else -1,
        best=best,
        winner=winner,
        tricks_left=TRICKS - len(view.tricks),
    )
