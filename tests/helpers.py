"""Building hand-made positions for tests."""

from __future__ import annotations

from spades.core import FULL_DECK, HandState, mask_of, parse_cards
from spades.core.cards import cards_in
from spades.core.seats import SEAT_LETTERS


def deal_with(**given: str) -> list[int]:
    """A deal where each named seat (N, E, S, W) holds the given cards and the
    rest of the deck fills the seats up to 13 cards, lowest cards first."""
    masks = [0, 0, 0, 0]
    for letter, text in given.items():
        masks[SEAT_LETTERS.index(letter)] = mask_of(parse_cards(text))
    used = masks[0] | masks[1] | masks[2] | masks[3]
    spare = list(cards_in(FULL_DECK & ~used))
    for seat in range(4):
        while masks[seat].bit_count() < 13:
            masks[seat] |= 1 << spare.pop(0)
    return masks


def hand_after_bids(
    dealer: int, deal: list[int], bids: tuple[int, ...] = (3, 3, 3, 3)
) -> HandState:
    """A hand whose bidding is over (bids given in bidding order)."""
    state = HandState.from_deal(dealer, deal)
    for bid in bids:
        state.bid(state.turn, bid)
    return state


def play_names(state: HandState, names: str) -> None:
    """Play the cards named, each by the seat whose turn it is."""
    for card in parse_cards(names):
        state.play(state.turn, card)
