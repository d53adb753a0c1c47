"""Building hand-made positions for tests."""

from __future__ import annotations

from spades.core import FULL_DECK, HandState, mask_of, parse_cards
from spades.core.cards import SUIT_LETTERS, cards_in
from spades.core.seats import SEAT_LETTERS


def deal_with(complete: dict[str, str] | None = None, **given: str) -> list[int]:
    """A deal where each named seat (N, E, S, W) holds the given cards and the
    rest of the deck fills the seats up to 13 cards, lowest cards first.

    ``complete`` maps a seat to suit letters whose cards it holds exactly as
    given (a void when none are given): the fill never adds to those suits.
    """
    complete = complete or {}
    masks = [0, 0, 0, 0]
    for letter, text in given.items():
        masks[SEAT_LETTERS.index(letter)] = mask_of(parse_cards(text))
    used = masks[0] | masks[1] | masks[2] | masks[3]
    spare = list(cards_in(FULL_DECK & ~used))
    # Seats with fixed suits fill first, so they still find cards they may take.
    order = sorted(range(4), key=lambda seat: -len(complete.get(SEAT_LETTERS[seat], "")))
    for seat in order:
        closed = {SUIT_LETTERS.index(s) for s in complete.get(SEAT_LETTERS[seat], "")}
        for card in [c for c in spare if c // 13 not in closed]:
            if masks[seat].bit_count() == 13:
                break
            masks[seat] |= 1 << card
            spare.remove(card)
        assert masks[seat].bit_count() == 13, f"cannot fill {SEAT_LETTERS[seat]}"
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
