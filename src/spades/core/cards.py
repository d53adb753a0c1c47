"""Cards, suits and hands as small integers.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, with suits ordered
clubs, diamonds, hearts, spades and ranks 2 (0) up to ace (12). A hand or any
set of cards is a 52-bit ``int`` mask with bit ``card`` set. Within a suit a
higher card has a higher number, and spades (the trump suit) are the highest
suit, so comparing cards in a trick is integer comparison.

>>> card = parse_card("TD")
>>> card, card_name(card), suit_of(card) == DIAMONDS
(21, 'TD', True)
>>> card_name(parse_card("10d"))
'TD'
>>> hand = mask_of(parse_cards("AS KS 2H"))
>>> [card_name(c) for c in cards_in(hand)]
['2H', 'KS', 'AS']
>>> hand & SUIT_MASKS[SPADES] != 0
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

Card = int
"""A card, 0..51 (see the module docstring for the encoding)."""

Suit = int
"""A suit, 0..3: CLUBS, DIAMONDS, HEARTS, SPADES."""

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)

SUIT_LETTERS: Final = "CDHS"
RANK_LETTERS: Final = "23456789TJQKA"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SINGULAR: Final = ("club", "diamond", "heart", "spade")
SUIT_SYMBOLS: Final = ("\u2663", "\u2666", "\u2665", "\u2660")
RANK_NAMES: Final = (
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace",
)  # fmt: skip

RANK_TWO: Final = 0
RANK_TEN: Final = 8
RANK_JACK: Final = 9
RANK_QUEEN: Final = 10
RANK_KING: Final = 11
RANK_ACE: Final = 12

DECK_SIZE: Final = 52
HAND_SIZE: Final = 13
FULL_DECK: Final = (1 << DECK_SIZE) - 1

SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * suit) for suit in SUITS)
SPADE_MASK: Final = SUIT_MASKS[SPADES]
NON_SPADE_MASK: Final = FULL_DECK & ~SPADE_MASK

# Precomputed per-card lookups: faster than arithmetic in the hot paths.
SUIT_OF: Final = tuple(card // 13 for card in range(DECK_SIZE))
RANK_OF: Final = tuple(card % 13 for card in range(DECK_SIZE))
BIT: Final = tuple(1 << card for card in range(DECK_SIZE))
CARD_NAMES: Final = tuple(
    RANK_LETTERS[card % 13] + SUIT_LETTERS[card // 13] for card in range(DECK_SIZE)
)


def make_card(rank: int, suit: Suit) -> Card:
    """The card of ``rank`` (0 = two .. 12 = ace) in ``suit``.

    >>> card_name(make_card(RANK_ACE, SPADES))
    'AS'
    """
    if not 0 <= rank < 13 or not 0 <= suit < 4:
        raise ValueError(f"no card with rank {rank} and suit {suit}")
    return suit * 13 + rank


def suit_of(card: Card) -> Suit:
    """The suit of ``card``."""
    return SUIT_OF[card]


def rank_of(card: Card) -> int:
    """The rank of ``card``: 0 for a two up to 12 for an ace."""
    return RANK_OF[card]


def card_name(card: Card) -> str:
    """The two-letter notation of ``card``: rank then suit, ``"TD"``, ``"AS"``."""
    return CARD_NAMES[card]


def card_long_name(card: Card) -> str:
    """A name a person reads aloud.

    >>> card_long_name(parse_card("QH")), card_long_name(parse_card("7C"))
    ('Queen of hearts', '7 of clubs')
    """
    return f"{RANK_NAMES[RANK_OF[card]]} of {SUIT_NAMES[SUIT_OF[card]]}"


def parse_card(text: str) -> Card:
    """Parse a card written rank then suit: ``"TD"``, ``"10D"``, ``"as"``.

    >>> parse_card("AS") == make_card(RANK_ACE, SPADES)
    True
    >>> parse_card("1S")
    Traceback (most recent call last):
    ...
    ValueError: '1S' is not a card: write the rank (2-9, T or 10, J, Q, K, A) then the suit (S, H, D, C), like 'TD'
    """
    cleaned = text.strip().upper()
    if cleaned.startswith("10"):
        cleaned = "T" + cleaned[2:]
    if len(cleaned) == 2:
        rank = RANK_LETTERS.find(cleaned[0])
        suit = SUIT_LETTERS.find(cleaned[1])
        if rank >= 0 and suit >= 0:
            return suit * 13 + rank
    raise ValueError(
        f"{text!r} is not a card: write the rank (2-9, T or 10, J, Q, K, A) "
        "then the suit (S, H, D, C), like 'TD'"
    )


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas.

    >>> [card_name(c) for c in parse_cards("AS, 10H 2c")]
    ['AS', 'TH', '2C']
    """
    return [parse_card(word) for word in text.replace(",", " ").split()]


def mask_of(cards: Iterable[Card]) -> int:
    """The mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_above(card: Card) -> int:
    """The mask of the cards of ``card``'s suit that outrank it.

    >>> names(cards_above(parse_card("JH")))
    ['QH', 'KH', 'AH']
    """
    return SUIT_MASKS[SUIT_OF[card]] & ~((2 << card) - 1)


def cards_below(card: Card) -> int:
    """The mask of the cards of ``card``'s suit that it outranks.

    >>> names(cards_below(parse_card("4C")))
    ['2C', '3C']
    """
    return SUIT_MASKS[SUIT_OF[card]] & ((1 << card) - 1)


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of ``mask``, lowest first (clubs up to spades, 2 up to ace)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: int) -> list[Card]:
    """The cards of ``mask`` as a list, lowest first."""
    return list(cards_in(mask))


def count(mask: int) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


def highest(mask: int) -> Card:
    """The highest card of a non-empty ``mask`` (by suit, then rank)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> Card:
    """The lowest card of a non-empty ``mask`` (by suit, then rank)."""
    return (mask & -mask).bit_length() - 1


def names(mask_or_cards: int | Iterable[Card]) -> list[str]:
    """Card names of a mask or of a sequence of cards, in that order.

    >>> names(mask_of(parse_cards("2C AS")))
    ['2C', 'AS']
    """
    cards = cards_in(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return [CARD_NAMES[card] for card in cards]


def sorted_for_display(cards: Iterable[Card]) -> list[Card]:
    """Cards grouped as a player holds them: spades, hearts, clubs, diamonds
    (alternating colours), high to low within a suit.

    >>> names(sorted_for_display(parse_cards("2C AH 3S KD QH")))
    ['3S', 'AH', 'QH', '2C', 'KD']
    """
    order = {SPADES: 0, HEARTS: 1, CLUBS: 2, DIAMONDS: 3}
    return sorted(cards, key=lambda card: (order[SUIT_OF[card]], -RANK_OF[card]))
