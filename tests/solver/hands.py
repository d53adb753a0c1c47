"""Hands written down for the review and analysis tests (and the commands that
print them): each written trick by trick, or as a deal with its bids and cards,
so every fact a test relies on can be checked by eye (see
tests/solver/test_information.py's account of the two endings)."""

from __future__ import annotations

from spades.core.cards import mask_of, parse_cards
from spades.core.hand import HandState
from spades.core.seats import parse_seat

# Dealer South: West leads trick 1. Each trick: its leader, then the cards in play order.
TRICKS_1_TO_11 = [
    ("W", "AH 3H 4H 2S"),  # South ruffs: spades are broken
    ("S", "9C 3C 4C KC"),
    ("E", "AC TC 5C 6C"),
    ("E", "AD 9D 3D 4D"),
    ("E", "KD TD 5D 6D"),
    ("E", "KH 7C 8H 9H"),
    ("E", "QH 7D TH JH"),
    ("E", "3S 8C AS 4S"),
    ("W", "KS 5S 6S 8D"),
    ("W", "QS 7S 8S JC"),
    ("W", "JS 9S TS JD"),
]


GUESS_ENDING = [("W", "5H 6H 7H QC"), ("E", "2C QD 2H 2D")]
"""South discards the QC and keeps the QD: East, as it happens, holds the 2C,
so keeping the QC would have won trick 13. But East's last card is any of the
2C, 2D and 2H as far as South can tell: each queen wins one time in three."""


# South holds eleven spades and draws the other two; at trick 12 it has the 2S
# (the last trump) and the QD (the last high diamond). Ruffing trick 12 wins it
# and then the QD wins trick 13, whatever the layout; throwing the QD away
# leaves the 2S to win trick 13 alone: a trick lost in every deal.
RUFF_TRICKS = [
    ("W", "3C 4C 5C AS"),
    ("S", "KS 4S 3S 6C"),
    ("S", "QS AC TC KD"),
    ("S", "JS KC 9C JD"),
    ("S", "TS QC 8C TD"),
    ("S", "9S JC 7C 9D"),
    ("S", "8S AH TH 8D"),
    ("S", "7S KH 9H 7D"),
    ("S", "6S QH 8H 6D"),
    ("S", "5S JH 4H 3H"),
    ("S", "3D AD 4D 5D"),  # West wins and leads trick 12
]


RUFF_ENDING = [("W", "5H 6H 7H QD"), ("E", "2C 2S 2H 2D")]


def hand_from_tricks(tricks: list[tuple[str, str]], *, dealer: str = "S") -> HandState:
    """The hand whose deal is what each seat plays in ``tricks``, bid 3 all
    round and played up to the last card given (the engine checks each card)."""
    dealt = [0, 0, 0, 0]
    for leader, cards in tricks:
        for offset, card in enumerate(parse_cards(cards)):
            dealt[(parse_seat(leader) + offset) & 3] |= 1 << card
    state = HandState.from_deal(parse_seat(dealer), [dealt[s] for s in range(4)])
    for _ in range(4):
        state.bid(state.turn, 3)
    for leader, cards in tricks:
        assert state.turn == parse_seat(leader)
        for card in parse_cards(cards):
            state.play(state.turn, card)
    return state


# Two hands played by the built-in "normal" bots (kept as data, so the tests do
# not depend on how the bots play today).
CONTRACT_HAND = {
    "dealer": 2,
    "bids": [(3, 0), (0, 2), (1, 5), (2, 7)],
    "deal": [
        "2C 4C KC 3D 7D AD 4H 5H 8H 9H KH 2S QS",
        "3C 6C 8C TD QD KD 7H JH AH 7S 8S TS AS",
        "7C 9C JC QC TH QH 3S 4S 5S 6S 9S JS KS",
        "5C TC AC 2D 4D 5D 6D 8D 9D JD 2H 3H 6H",
    ],
    "cards": "2H 4H 7H TH 7C 5C 2C 3C 9C TC 4C 6C AC KC 8C JC 2D AD TD QH 3D QD 3S 4D QC "
    "3H 7D 7S AH 4S 6H 5H KS 5D 2S AS JH 5S 6D 8H JS 8D QS 8S KH TS 6S 9D KD 9S JD 9H",
}


NIL_HAND = {
    "dealer": 1,
    "bids": [(2, 5), (3, 2), (0, 0), (1, 2)],
    "deal": [
        "2C 4C TC 3D 5D 9D AD 3H 7H TH JH QH JS",
        "6C JC 4D 7D 8D 2H 4H 6H 9H 3S TS KS AS",
        "3C 5C KC 6D TD JD KD KH AH 2S 4S 6S QS",
        "7C 8C 9C QC AC 2D QD 5H 8H 5S 7S 8S 9S",
    ],
    "cards": "AH 5H QH 2H KH 8H JH 4H KD 2D 9D 4D JD QD 5D 7D 7C 4C 6C 3C 8C 2C JC 5C 6H 2S "
    "9C TH TD QC 3D 8D 6D AC AD 9H TC 3S KC 5S 7S JS TS 6S 3H KS 4S 8S AS QS 9S 7H",
}


def played(hand: dict[str, object], cards: int = 52) -> HandState:
    texts = hand["deal"]
    assert isinstance(texts, list)
    state = HandState.from_deal(int(str(hand["dealer"])), [mask_of(parse_cards(t)) for t in texts])
    bids = hand["bids"]
    assert isinstance(bids, list)
    for seat, bid in bids:
        state.bid(seat, bid)
    for card in parse_cards(str(hand["cards"]))[:cards]:
        state.play(state.turn, card)
    return state
