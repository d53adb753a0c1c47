"""Positions to solve: written deals and endgames, and the positions along a played hand.

>>> from spades.core.cards import mask_of, parse_cards
>>> hands = parse_deal("N:AS KH E:QS 2H S:3S AH W:2S 3H")
>>> state = make_position(hands, leader=0, broken=True)
>>> state.turn, state.legal_cards() == parse_cards("KH AS")
(0, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..core.cards import CARD_NAMES, FULL_DECK, Card, parse_cards
from ..core.errors import IllegalActionError
from ..core.hand import HandState, deal
from ..core.seats import SEAT_LETTERS, SEAT_NAMES, Seat, parse_seat

__all__ = ["cards_played", "make_position", "parse_deal", "random_position", "replay"]


def cards_played(state: HandState) -> list[Card]:
    """Every card of ``state``'s hand played so far, in order."""
    return [card for trick in state.tricks for card in trick.cards] + list(state.trick)


def random_position(rng: random.Random, tricks_left: int) -> HandState:
    """A random deal, everyone bidding 3, played with random legal cards to the
    start of a trick with ``tricks_left`` tricks to go (for benchmarks and tests)."""
    state = HandState(rng.randrange(4), deal(rng))
    for _ in range(4):
        state.apply_bid(3)
    while 13 - len(state.tricks) > tricks_left or state.trick:
        state.apply_play(rng.choice(state.legal_cards()))
    return state


def replay(state: HandState, count: int) -> HandState:
    """A fresh copy of ``state``'s hand after its bids and its first ``count``
    cards (``state`` itself is not changed)."""
    fresh = HandState(state.dealer, state.deal)
    bids = state.scored_bids()
    for seat in state.bid_order:
        fresh.apply_bid(bids[seat])
    for card in cards_played(state)[:count]:
        fresh.apply_play(card)
    return fresh


def parse_deal(text: str) -> list[int]:
    """Parse ``"N:AS KS 2H E:... S:... W:..."`` into four hand masks (N, E, S, W).

    Every seat must be named once; the hands hold equally many cards (1 to 13),
    no card twice. Raises ``ValueError`` saying what is wrong.

    >>> parse_deal("N:AS E:KS S:QS")
    Traceback (most recent call last):
    ...
    ValueError: the deal names no hand for W: write N:... E:... S:... W:...
    """
    hands: list[int | None] = [None, None, None, None]
    seat: Seat | None = None
    for word in text.replace(",", " ").split():
        if ":" in word:
            name, _, rest = word.partition(":")
            try:
                seat = parse_seat(name)
            except ValueError:
                raise ValueError(f"{name!r} is not a seat: write N:... E:... S:... W:...") from None
            if hands[seat] is not None:
                raise ValueError(f"the deal names {SEAT_LETTERS[seat]}'s hand twice")
            hands[seat] = 0
            word = rest
            if not word:
                continue
        if seat is None:
            raise ValueError(f"{word!r} comes before any seat: write N:... E:... S:... W:...")
        card = parse_cards(word)[0]
        held = hands[seat] or 0
        if held >> card & 1:
            raise ValueError(f"{CARD_NAMES[card]} is given twice to {SEAT_NAMES[seat]}")
        hands[seat] = held | (1 << card)
    masks: list[int] = []
    for index, hand in enumerate(hands):
        if hand is None:
            raise ValueError(
                f"the deal names no hand for {SEAT_LETTERS[index]}: write N:... E:... S:... W:..."
            )
        masks.append(hand)
    return check_hands(masks)


def check_hands(hands: Sequence[int]) -> list[int]:
    """``hands`` if they are four disjoint hands of equally many cards (1..13)."""
    if len(hands) != 4:
        raise ValueError("a position has four hands")
    seen = 0
    for seat, hand in enumerate(hands):
        if not 0 <= hand <= FULL_DECK:
            raise ValueError(f"{SEAT_NAMES[seat]}'s hand is not a set of cards")
        twice = seen & hand
        if twice:
            names = " ".join(CARD_NAMES[c] for c in range(52) if twice >> c & 1)
            raise ValueError(f"{names} given to two seats")
        seen |= hand
    sizes = [hand.bit_count() for hand in hands]
    if not 1 <= sizes[0] <= 13 or len(set(sizes)) != 1:
        held = ", ".join(f"{SEAT_LETTERS[s]} {n}" for s, n in enumerate(sizes))
        raise ValueError(f"every seat must hold the same number of cards, 1 to 13 ({held})")
    return list(hands)


def make_position(
    hands: Sequence[int],
    leader: Seat,
    trick: Sequence[int] = (),
    *,
    broken: bool = False,
) -> HandState:
    """A hand in play at a trick boundary (``hands`` of equal size, ``leader`` to
    lead), then the cards of ``trick`` played by the leader and the seats after.

    The trick's cards are checked against the rules (``IllegalActionError``):
    they must be in the hands given and follow suit. The position has no
    history (no finished tricks), so it is only for solving, not for scoring.
    """
    masks = check_hands(hands)
    if leader not in (0, 1, 2, 3):
        raise ValueError(f"no seat {leader!r}")
    state = HandState((leader + 3) & 3, masks)  # the dealer's left leads
    for _ in range(4):
        state.apply_bid(1)
    state.spades_broken = broken
    for card in trick:
        try:
            state.play(state.turn, card)
        except IllegalActionError as error:
            raise IllegalActionError(
                f"{SEAT_NAMES[state.turn]} cannot play {CARD_NAMES[card]}: {error.message}",
                rule=error.rule,
            ) from None
    return state
