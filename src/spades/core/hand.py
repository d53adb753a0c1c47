"""One hand of Spades: the deal, one round of bidding and thirteen tricks.

``HandState`` has two ways in, as python-chess does:

* checked entry points for players, servers and records: ``verify_bid`` /
  ``can_bid`` / ``bid`` and ``verify_play`` / ``can_play`` / ``play``. They take
  the acting seat, raise an ``IllegalActionError`` that names the broken rule,
  and leave the state unchanged when they do;
* a fast path for search: ``legal_mask``, ``apply_bid`` and ``apply_play`` trust
  their caller, and ``undo`` takes back the last action cheaply.

>>> from .cards import parse_card
>>> hand = HandState.from_deal(dealer=EAST, hands=deal_from_seed(7))
>>> hand.turn == SOUTH                       # left of the dealer bids first
True
>>> for bid in (3, NIL, 4, 2): _ = hand.bid(hand.turn, bid)
>>> hand.phase is Phase.PLAYING and hand.turn == SOUTH   # ... and leads
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from typing import Final, NamedTuple

from .cards import (
    BIT,
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    HAND_SIZE,
    NON_SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SINGULAR,
    Card,
    card_long_name,
    cards_in,
)
from .errors import IllegalBidError, IllegalCardError, NotYourTurnError, Rule
from .scoring import MAX_BID, MIN_BID, NIL
from .seats import EAST, NORTH, SEAT_NAMES, SOUTH, WEST, Seat

TRICKS_PER_HAND: Final = 13
ALL_BIDS: Final = (NIL, *range(MIN_BID, MAX_BID + 1))
NO_SEAT: Final = -1
POOL_BITS: Final = 62  # stays a machine-word int when compiled
SPADE_LOW: Final = 39
"""The two of spades: every card from it up is a spade (the highest suit)."""
NO_CARD: Final = -1

__all__ = [
    "ALL_BIDS",
    "EAST",
    "NORTH",
    "SOUTH",
    "WEST",
    "HandState",
    "Phase",
    "Trick",
    "beats",
    "deal",
    "deal_from_seed",
    "legal_play_mask",
    "trick_winner",
]


class Phase(Enum):
    """Where a hand stands."""

    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


_BIDDING: Final = Phase.BIDDING
_PLAYING: Final = Phase.PLAYING
_OVER: Final = Phase.OVER


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, who won it."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat


UndoStep = tuple[Seat, Card, bool, Trick | None]
"""What ``undo`` needs to take back one action: the seat that acted, the card
it played (``NO_CARD`` for a bid), whether spades were broken before it, and
the trick it completed, if any. A plain tuple: one is made per card in search."""


class RandomBits:
    """Uniform random integers drawn from a ``random.Random`` in bulk.

    One ``getrandbits`` call feeds several draws, and ``below`` uses exact
    rejection sampling, so dealing and random playouts stay uniform and seeded
    by the injected RNG while costing far less than ``rng.randrange`` each time.
    """

    __slots__ = ("bits", "left", "rng")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.bits = 0
        self.left = 0

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` (``n`` >= 1)."""
        if n <= 1:
            return 0
        width = (n - 1).bit_length()
        mask = (1 << width) - 1
        while True:
            if self.left < width:
                self.bits = self.rng.getrandbits(POOL_BITS)
                self.left = POOL_BITS
            value = self.bits & mask
            self.bits >>= width
            self.left -= width
            if value < n:
                return value


def deal(rng: random.Random) -> tuple[int, int, int, int]:
    """Shuffle a deck with ``rng`` and deal 13 cards to each seat (N, E, S, W) as masks.

    A Fisher-Yates shuffle: every one of the 52! orders is equally likely.
    """
    deck = list(range(DECK_SIZE))
    bits = RandomBits(rng)
    for last in range(DECK_SIZE - 1, 0, -1):
        other = bits.below(last + 1)
        deck[last], deck[other] = deck[other], deck[last]
    masks = [0, 0, 0, 0]
    for position in range(DECK_SIZE):
        masks[position & 3] |= 1 << deck[position]
    return masks[0], masks[1], masks[2], masks[3]


def nth_card(mask: int, index: int) -> Card:
    """The ``index``-th lowest card of ``mask`` (0-based)."""
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def deal_from_seed(seed: int) -> tuple[int, int, int, int]:
    """A reproducible deal for ``seed`` (handy in tests and examples)."""
    return deal(random.Random(seed))


def legal_play_mask(hand: int, led_suit: int, spades_broken: bool) -> int:
    """The cards of ``hand`` that may be played.

    ``led_suit`` is the suit of the trick's first card, or -1 when leading.
    Follow suit if you can, else play anything; lead anything but a spade
    until spades are broken, unless you hold nothing but spades. (Spades cannot
    be broken before the first trick, so this also covers the first lead.)
    """
    if led_suit >= 0:
        follow = hand & SUIT_MASKS[led_suit]
        return follow if follow else hand
    if spades_broken:
        return hand
    side_suits = hand & NON_SPADE_MASK
    return side_suits if side_suits else hand


def trick_winner(leader: Seat, cards: Sequence[Card]) -> Seat:
    """The seat winning ``cards`` led by ``leader``: the highest spade, else the
    highest card of the led suit.

    >>> from .cards import parse_cards
    >>> trick_winner(NORTH, parse_cards("4H KH 2S AH")) == SOUTH   # South's 2S ruffs
    True
    >>> trick_winner(NORTH, parse_cards("4H KH 2D AH")) == WEST    # a discard never wins
    True
    >>> trick_winner(NORTH, parse_cards("AD 2S 3S KD")) == SOUTH   # the higher ruff wins
    True
    """
    return (leader + winning_position(cards)) & 3


def winning_position(cards: Sequence[Card]) -> int:
    """The position (0 = led) of the card winning ``cards`` so far."""
    best = 0
    for position in range(1, len(cards)):
        if beats(cards[position], cards[best]):
            best = position
    return best


def beats(card: Card, best: Card) -> bool:
    """Whether ``card``, played to a trick, beats ``best``, the card winning it so far.

    The one statement of the rule: a higher card of the same suit, or a spade
    on a card of another suit. Spades are the highest suit (cards 39..51), so
    the higher number wins whenever the suits match or ``card`` is a spade.

    >>> from .cards import parse_card
    >>> beats(parse_card("2S"), parse_card("AH")), beats(parse_card("AD"), parse_card("2H"))
    (True, False)
    >>> beats(parse_card("KH"), parse_card("QH")), beats(parse_card("3S"), parse_card("4S"))
    (True, False)
    """
    return card > best and (SUIT_OF[card] == SUIT_OF[best] or card >= SPADE_LOW)


class HandState:
    """The complete state of one hand, every seat's cards included.

    Only the engine, the referee and search code (on sampled deals) hold a
    ``HandState``; players get a ``PlayerView``.
    """

    __slots__ = (
        "_best",
        "_undo",
        "bid_order",
        "bids",
        "deal",
        "dealer",
        "hands",
        "leader",
        "phase",
        "spades_broken",
        "trick",
        "tricks",
        "tricks_won",
        "turn",
    )

    dealer: Seat
    deal: tuple[int, int, int, int]
    """The cards each seat was dealt (masks), kept for records and replays."""
    hands: list[int]
    """The cards each seat still holds (masks)."""
    bids: list[int | None]
    """Each seat's bid, ``None`` until made; ``NIL`` is 0."""
    bid_order: list[Seat]
    """The seats in the order they bid so far."""
    turn: Seat
    """The seat to act, or ``NO_SEAT`` (-1) once the hand is over."""
    phase: Phase
    leader: Seat
    """Who led the trick in progress."""
    trick: list[Card]
    """The cards of the trick in progress, in play order."""
    tricks: list[Trick]
    tricks_won: list[int]
    spades_broken: bool
    _best: int
    """Position in ``trick`` of the card winning it so far."""
    _undo: list[UndoStep]

    def __init__(self, dealer: Seat, hands: Sequence[int]) -> None:
        """Start a hand. Use ``from_deal`` to have the deal checked."""
        self.dealer = dealer
        self.deal = (hands[0], hands[1], hands[2], hands[3])
        self.hands = list(self.deal)
        self.bids = [None, None, None, None]
        self.bid_order = []
        self.turn = (dealer + 1) & 3
        self.phase = _BIDDING
        self.leader = self.turn
        self.trick = []
        self.tricks = []
        self.tricks_won = [0, 0, 0, 0]
        self.spades_broken = False
        self._best = 0
        self._undo = []

    @classmethod
    def from_deal(cls, dealer: Seat, hands: Sequence[int]) -> HandState:
        """Start a hand after checking the deal: 13 cards each, 52 different.

        >>> HandState.from_deal(NORTH, [1, 2, 4, 8])
        Traceback (most recent call last):
        ...
        ValueError: North was dealt 1 card: every seat gets 13
        """
        if dealer not in (NORTH, EAST, SOUTH, WEST):
            raise ValueError(f"no seat {dealer!r}")
        if len(hands) != 4:
            raise ValueError("a deal has four hands")
        seen = 0
        for seat, hand in enumerate(hands):
            if not 0 <= hand <= FULL_DECK:
                raise ValueError(f"{SEAT_NAMES[seat]}'s hand is not a set of cards")
            if hand.bit_count() != HAND_SIZE:
                dealt = hand.bit_count()
                raise ValueError(
                    f"{SEAT_NAMES[seat]} was dealt {dealt} card{'' if dealt == 1 else 's'}: "
                    "every seat gets 13"
                )
            if seen & hand:
                twice = ", ".join(CARD_NAMES[c] for c in cards_in(seen & hand))
                raise ValueError(f"{twice} dealt twice")
            seen |= hand
        return cls(dealer, hands)

    # ------------------------------------------------------------------ queries

    @property
    def to_act(self) -> Seat | None:
        """The seat to act, ``None`` once the hand is over."""
        return None if self.turn == NO_SEAT else self.turn

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def played(self) -> int:
        """The mask of every card played so far."""
        return FULL_DECK ^ (self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])

    @property
    def led_suit(self) -> int:
        """The suit led to the trick in progress, -1 when no card is down yet."""
        return SUIT_OF[self.trick[0]] if self.trick else -1

    def legal_bids(self) -> list[int]:
        """The bids the seat to act may make (Nil is 0); empty outside bidding."""
        return list(ALL_BIDS) if self.phase is _BIDDING else []

    def scored_bids(self) -> list[int]:
        """Every seat's bid, as the scorer takes them once the bidding is over."""
        return [NIL if bid is None else bid for bid in self.bids]

    def legal_mask(self) -> int:
        """The mask of cards the seat to act may play; 0 outside the play."""
        if self.phase is not _PLAYING:
            return 0
        trick = self.trick
        return legal_play_mask(
            self.hands[self.turn], SUIT_OF[trick[0]] if trick else -1, self.spades_broken
        )

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play, lowest first."""
        return list(cards_in(self.legal_mask()))

    # ----------------------------------------------------------------- bidding

    def verify_bid(self, seat: Seat, bid: int) -> None:
        """Raise an ``IllegalActionError`` saying why ``seat`` may not bid ``bid`` now."""
        if self.phase is not _BIDDING:
            raise NotYourTurnError("The bidding is over: every seat has bid")
        if seat != self.turn:
            raise NotYourTurnError(f"It is {SEAT_NAMES[self.turn]}'s turn to bid")
        if type(bid) is not int or not (bid == NIL or MIN_BID <= bid <= MAX_BID):
            raise IllegalBidError(f"A bid is Nil or a number from 1 to 13, not {bid!r}")

    def can_bid(self, seat: Seat, bid: int) -> bool:
        try:
            self.verify_bid(seat, bid)
        except (NotYourTurnError, IllegalBidError):
            return False
        return True

    def bid(self, seat: Seat, bid: int) -> tuple[Seat, int]:
        """``seat`` bids ``bid`` (``NIL`` or 1..13); returns ``(seat, bid)``."""
        self.verify_bid(seat, bid)
        self.apply_bid(bid)
        return seat, bid

    def apply_bid(self, bid: int) -> None:
        """Fast path: the seat to act bids ``bid``, unchecked."""
        seat = self.turn
        self.bids[seat] = bid
        self.bid_order.append(seat)
        self._undo.append((seat, NO_CARD, False, None))
        self.turn = (seat + 1) & 3
        if len(self.bid_order) == 4:
            self.phase = _PLAYING
            self.turn = self.leader  # left of the dealer leads the first trick

    # -------------------------------------------------------------------- play

    def verify_play(self, seat: Seat, card: Card) -> None:
        """Raise an ``IllegalActionError`` naming the rule ``seat`` breaks by playing ``card``."""
        if self.phase is not _PLAYING:
            if self.phase is _BIDDING:
                raise NotYourTurnError(
                    f"The bidding is not over: it is {SEAT_NAMES[self.turn]}'s turn to bid"
                )
            raise NotYourTurnError("The hand is over: all 13 tricks have been played")
        if seat != self.turn:
            raise NotYourTurnError(f"It is {SEAT_NAMES[self.turn]}'s turn to play")
        if type(card) is not int or not 0 <= card < DECK_SIZE:
            raise IllegalCardError(f"{card!r} is not a card", rule=Rule.CARD)
        hand = self.hands[seat]
        if not hand & BIT[card]:
            raise IllegalCardError(
                f"You do not hold the {card_long_name(card)}", rule=Rule.HOLD_CARD
            )
        suit = SUIT_OF[card]
        if self.trick:
            led = SUIT_OF[self.trick[0]]
            if suit != led and hand & SUIT_MASKS[led]:
                raise IllegalCardError(
                    f"You must follow suit: you hold {_a(SUIT_SINGULAR[led])}",
                    rule=Rule.FOLLOW_SUIT,
                )
        elif suit == SPADES and hand & NON_SPADE_MASK and not self.spades_broken:
            if not self.tricks:
                raise IllegalCardError(
                    "You may not lead a spade to the first trick while you hold another suit",
                    rule=Rule.FIRST_LEAD,
                )
            raise IllegalCardError(
                "Spades are not broken yet: you may not lead a spade while you hold another suit",
                rule=Rule.SPADES_BROKEN,
            )

    def can_play(self, seat: Seat, card: Card) -> bool:
        try:
            self.verify_play(seat, card)
        except (NotYourTurnError, IllegalCardError):
            return False
        return True

    def play(self, seat: Seat, card: Card) -> Trick | None:
        """``seat`` plays ``card``; returns the trick if this card completed one."""
        self.verify_play(seat, card)
        self.apply_play(card)
        return self.tricks[-1] if not self.trick else None

    def apply_play(self, card: Card) -> None:
        """Fast path: the seat to act plays ``card``, unchecked."""
        seat = self.turn
        self.hands[seat] ^= BIT[card]
        was_broken = self.spades_broken
        if card >= SPADE_LOW:
            self.spades_broken = True
        trick = self.trick
        trick.append(card)
        position = len(trick) - 1
        if position and beats(card, trick[self._best]):
            self._best = position
        if position < 3:
            self._undo.append((seat, card, was_broken, None))
            self.turn = (seat + 1) & 3
            return
        winner = (self.leader + self._best) & 3
        finished = Trick(self.leader, (trick[0], trick[1], trick[2], trick[3]), winner)
        self.tricks.append(finished)
        self.tricks_won[winner] += 1
        self._undo.append((seat, card, was_broken, finished))
        self.trick = []
        self._best = 0
        self.leader = winner
        if len(self.tricks) == TRICKS_PER_HAND:
            self.phase = _OVER
            self.turn = NO_SEAT
        else:
            self.turn = winner

    def end_by_claim(self, awarded: Sequence[int]) -> None:
        """End the hand now, each seat taking ``awarded[seat]`` of the tricks not
        yet finished (the one in progress included): a claim found to hold gives
        them. Unchecked: ``spades.core.claims`` decides who takes what. The cards
        still held, and any on the table, stay where they are: they are never
        played."""
        for seat in range(4):
            self.tricks_won[seat] += awarded[seat]
        self.phase = _OVER
        self.turn = NO_SEAT

    # --------------------------------------------------------- undo and clone

    def undo(self) -> None:
        """Take back the last bid or card (fast path for search)."""
        seat, card, was_broken, finished = self._undo.pop()
        self.turn = seat
        if card == NO_CARD:  # a bid
            self.bids[seat] = None
            self.bid_order.pop()
            self.phase = _BIDDING
            return
        self.phase = _PLAYING
        self.hands[seat] |= BIT[card]
        self.spades_broken = was_broken
        if finished is not None:
            self.tricks.pop()
            self.tricks_won[finished.winner] -= 1
            self.leader = finished.leader
            trick = list(finished.cards[:3])
        else:
            trick = self.trick
            trick.pop()
        self.trick = trick
        self._best = winning_position(trick)

    def clone(self) -> HandState:
        """An independent copy (sharing nothing mutable)."""
        other = HandState(self.dealer, self.deal)
        other.hands = self.hands[:]
        other.bids = self.bids[:]
        other.bid_order = self.bid_order[:]
        other.turn = self.turn
        other.phase = self.phase
        other.leader = self.leader
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.tricks_won = self.tricks_won[:]
        other.spades_broken = self.spades_broken
        other._best = self._best
        other._undo = self._undo[:]
        return other

    def random_playout(self, rng: random.Random) -> None:
        """Fast path: finish the hand with uniformly random legal bids and cards.

        The Monte Carlo building block: one ``getrandbits`` call feeds many choices.
        """
        bits = RandomBits(rng)
        while self.phase is _BIDDING:
            self.apply_bid(bits.below(14))
        while self.phase is _PLAYING:
            legal = self.legal_mask()
            self.apply_play(nth_card(legal, bits.below(legal.bit_count())))


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word
