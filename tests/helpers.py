"""Building hand-made positions for tests."""

from __future__ import annotations

from spades.core import FULL_DECK, Game, HandState, Phase, mask_of, parse_cards, parse_rules
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


def nil_game(
    rules_text: str, bids: dict[int, int], *, south: str, north: str = "", dealer: int = 0
) -> Game:
    """A game whose first hand is played out from a hand-made deal: South holds
    ``south`` and North ``north`` (the rest dealt lowest first), each seat bids
    ``bids[seat]`` and plays its first legal card. South holding ``LOW_HAND``
    never takes a trick, nor does North holding ``LOW_NORTH`` beside it;
    South holding ``ALL_SPADES`` takes all thirteen."""
    given = {"S": south, "N": north} if north else {"S": south}
    game = Game(parse_rules(rules_text), seed=5, preset_deals=[(dealer, deal_with(**given))])
    while game.hand_number == 1 and not game.is_over:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.BIDDING:
            game.bid(seat, bids[seat])
        else:
            game.play(seat, game.legal_cards()[0])
    return game


LOW_HAND = "2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D 6D 7D"
"""Cards that never take a trick: the other seats hold every higher club and diamond."""
LOW_NORTH = "2H 3H 4H 5H 6H 7H 8H 2S 3S 4S 5S 6S 7S"
"""Beside ``LOW_HAND``, low hearts and spades that never take a trick either
(East leading first, each seat playing its first legal card)."""
ALL_SPADES = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
"""Cards that take every trick."""
