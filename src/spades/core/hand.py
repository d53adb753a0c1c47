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
from typing import Final, NamedTuple, final

from .bids import bid_name
from .cards import (
    BIT,
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    HAND_SIZE,
    NON_SPADE_MASK,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SINGULAR,
    Card,
    cards_above,
    cards_in,
)
from .errors import (
    IllegalActionError,
    IllegalBidError,
    IllegalCardError,
    NotYourTurnError,
    Rule,
    SpadesError,
)
from .naming import Naming
from .rules import CARDCOUCH, Rules
from .scoring import BLIND_NIL, MAX_BID, MIN_BID, NIL
from .seats import EAST, NORTH, SEAT_NAMES, SOUTH, WEST, Seat

TRICKS_PER_HAND: Final = 13
ALL_BIDS: Final = (NIL, *range(MIN_BID, MAX_BID + 1))
"""The bids of the rule page; a rule set may add ``BLIND_NIL`` or refuse some."""
TWO_OF_CLUBS: Final = 0
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
    PASSING = "passing"
    """Nil bidders and their partners pass each other cards (a rule option)."""
    PLAYING = "playing"
    OVER = "over"


_BIDDING: Final = Phase.BIDDING
_PASSING: Final = Phase.PASSING
_PLAYING: Final = Phase.PLAYING
_OVER: Final = Phase.OVER


class Trick(NamedTuple):
    """A finished trick: who led, the cards in play order, who won it."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat


@final
class UndoStep:
    """What ``undo`` needs to take back one action (python-chess's ``_BoardState``):
    one is made per bid and card, in search too. A plain class, like
    ``HandState``: mypyc makes it a native class, built and read as cheaply as
    the tuple it replaced (``benchmarks/engine.py``)."""

    __slots__ = ("card", "finished", "seat", "was_broken")

    seat: Seat
    """The seat that acted."""
    card: Card
    """The card it played; ``NO_CARD`` for a bid."""
    was_broken: bool
    """Whether spades were broken before the card."""
    finished: Trick | None
    """The trick the card completed, if any."""

    def __init__(self, seat: Seat, card: Card, was_broken: bool, finished: Trick | None) -> None:
        self.seat = seat
        self.card = card
        self.was_broken = was_broken
        self.finished = finished

    def __repr__(self) -> str:
        return f"UndoStep({self.seat}, {self.card}, {self.was_broken}, {self.finished})"


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


def opening_lead_mask(hand: int, spades_broken: bool, rules: Rules) -> int:
    """The cards of ``hand`` that may lead the hand's first trick under ``rules``:
    the two of clubs where it leads, else as any lead."""
    if rules.first_lead == "two_of_clubs":
        return hand & BIT[TWO_OF_CLUBS]
    return legal_play_mask(hand, -1, spades_broken)


def blind_nil_is_open(rules: Rules, totals: Sequence[int], team: int) -> bool:
    """Whether ``team`` may bid blind Nil in a hand dealt at these game totals."""
    return rules.blind_nil and totals[1 - team] - totals[team] >= rules.blind_nil_behind


def bid_problem(
    rules: Rules,
    blind_nil_open: bool,
    partner_bid: int | None,
    bid: int,
    *,
    seat: Seat | None = None,
    naming: Naming | None = None,
) -> IllegalBidError | None:
    """What the rule options have against a bid of the right form (``NIL``,
    ``BLIND_NIL`` or 1..13), or ``None``: blind Nil only where open, a second
    Nil in a partnership only with ``double_nil``, a partnership's bids adding
    up to ``min_team_bid`` at least. (The CardCouch rules allow every bid.)
    Said to the player bidding, unless ``naming`` words it for someone else
    about ``seat``."""
    if seat is None or naming is None or naming.reader == seat:
        you, yours, must = "you", "your", ""
    else:
        you, yours, must = naming.seat(seat), naming.possessive(seat), f"{naming.seat(seat)} must "
    if bid == BLIND_NIL and not blind_nil_open:
        if not rules.blind_nil:
            why = "these rules have no blind Nil"
        else:
            why = f"only a team behind by {rules.blind_nil_behind} points or more may bid it"
        return IllegalBidError(
            Naming.sentence(f"{you} may not bid blind Nil: {why}"), rule=Rule.BLIND_NIL
        )
    if partner_bid is None:
        return None
    both_nil = bid <= NIL and partner_bid <= NIL
    if both_nil and not rules.double_nil:
        return IllegalBidError(
            Naming.sentence(
                f"{yours} partner bid Nil, and these rules allow one Nil a partnership"
            ),
            rule=Rule.DOUBLE_NIL,
        )
    partner_tricks = max(partner_bid, 0)
    if max(bid, 0) + partner_tricks < rules.min_team_bid and not both_nil:
        return IllegalBidError(
            Naming.sentence(
                f"{yours} partnership must bid at least {rules.min_team_bid} in all: "
                f"with {yours} partner's {bid_name(partner_bid)}, {must}bid at least "
                f"{rules.min_team_bid - partner_tricks}"
            ),
            rule=Rule.MIN_TEAM_BID,
        )
    return None


def pass_order(rules: Rules, dealer: Seat, bids: Sequence[int]) -> list[tuple[Seat, Seat, int]]:
    """The Nil passes a hand's four bids (``bids[seat]``) call for, in order:
    giver, receiver, how many cards. From the dealer's left, like the bidding,
    each Nil bidder whose partner bid a number gives first and is given back;
    a double Nil passes nothing.

    >>> from spades.core.rules import Rules
    >>> pass_order(Rules(nil_pass=2), dealer=3, bids=[4, NIL, 3, 5])
    [(1, 3, 2), (3, 1, 2)]
    >>> pass_order(Rules(nil_pass=2), dealer=3, bids=[NIL, NIL, NIL, 5])
    [(1, 3, 2), (3, 1, 2)]
    """
    order: list[tuple[Seat, Seat, int]] = []
    for offset in range(1, 5):
        seat = (dealer + offset) & 3
        bid, partner_bid = bids[seat], bids[(seat + 2) & 3]
        if bid <= NIL and partner_bid > NIL:
            count = rules.passes_for(bid == BLIND_NIL)
            if count:
                order.append((seat, (seat + 2) & 3, count))
                order.append(((seat + 2) & 3, seat, count))
    return order


def legal_bid_list(rules: Rules, blind_nil_open: bool, partner_bid: int | None) -> list[int]:
    """Every bid open to a seat: ``BLIND_NIL`` first where open, then Nil and 1..13."""
    bids = [BLIND_NIL, *ALL_BIDS] if blind_nil_open else list(ALL_BIDS)
    return [bid for bid in bids if bid_problem(rules, blind_nil_open, partner_bid, bid) is None]


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


def beating_cards(best: Card) -> int:
    """The mask of every card that ``beats`` ``best``: the rule for a whole hand
    at once (``hand & beating_cards(best)`` are the cards that would take the
    trick). ``tests/core/test_play.py`` holds it to ``beats`` card by card.

    >>> from .cards import names, parse_card
    >>> names(beating_cards(parse_card("QS")))
    ['KS', 'AS']
    >>> len(names(beating_cards(parse_card("KH")))), names(beating_cards(parse_card("KH")))[0]
    (14, 'AH')
    """
    above = cards_above(best)
    return above if best >= SPADE_LOW else above | SPADE_MASK


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
        "blind_nil_open",
        "deal",
        "dealer",
        "hands",
        "leader",
        "pass_order",
        "passes",
        "phase",
        "rules",
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
    rules: Rules
    blind_nil_open: list[bool]
    """Whether each team (NS, EW) may bid blind Nil this hand: the rules allow
    it and the team is behind by enough (``Game`` sets it from the score)."""
    pass_order: list[tuple[Seat, Seat, int]]
    """The passes still to make once the bidding is over: giver, receiver, count."""
    passes: list[tuple[Seat, int]]
    """The passes made: the seat and the cards it gave (a mask), in order. The
    cards reach the partners only once every pass of the hand is made."""
    _best: int
    """Position in ``trick`` of the card winning it so far."""
    _undo: list[UndoStep]

    def __init__(self, dealer: Seat, hands: Sequence[int], rules: Rules = CARDCOUCH) -> None:
        """Start a hand. Use ``from_deal`` to have the deal checked."""
        self.rules = rules
        self.blind_nil_open = [rules.blind_nil and rules.blind_nil_behind <= 0] * 2
        self.pass_order = []
        self.passes = []
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
        # Without the breaking rule spades may be led from the first trick on:
        # the hand starts as if they were broken.
        self.spades_broken = not rules.spades_break
        self._best = 0
        self._undo = []

    @classmethod
    def from_deal(cls, dealer: Seat, hands: Sequence[int], rules: Rules = CARDCOUCH) -> HandState:
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
        return cls(dealer, hands, rules)

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
        """The bids the seat to act may make (Nil is 0, blind Nil -1); empty
        outside bidding."""
        if self.phase is not _BIDDING:
            return []
        seat = self.turn
        return legal_bid_list(self.rules, self.blind_nil_open[seat & 1], self.bids[(seat + 2) & 3])

    def open_blind_nil(self, totals: Sequence[int]) -> None:
        """Open blind Nil to the teams the rules let bid it at these game totals."""
        for team in (0, 1):
            self.blind_nil_open[team] = blind_nil_is_open(self.rules, totals, team)

    def scored_bids(self) -> list[int]:
        """Every seat's bid, as the scorer takes them once the bidding is over."""
        return [NIL if bid is None else bid for bid in self.bids]

    def legal_mask(self) -> int:
        """The mask of cards the seat to act may play; 0 outside the play."""
        if self.phase is not _PLAYING:
            return 0
        trick = self.trick
        if not trick and not self.tricks:
            return opening_lead_mask(self.hands[self.turn], self.spades_broken, self.rules)
        return legal_play_mask(
            self.hands[self.turn], SUIT_OF[trick[0]] if trick else -1, self.spades_broken
        )

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play, lowest first."""
        return list(cards_in(self.legal_mask()))

    # ----------------------------------------------------------------- bidding

    def verify_bid(self, seat: Seat, bid: int) -> None:
        """Raise an ``IllegalActionError`` saying why ``seat`` may not bid ``bid`` now."""
        problem = self.bid_refusal(seat, bid)
        if problem is not None:
            raise problem

    def bid_refusal(self, seat: Seat, bid: int, naming: Naming | None = None) -> SpadesError | None:
        """Why ``seat`` may not bid ``bid`` now, or ``None``: worded by ``naming``
        (by default to the player bidding: "You may not bid blind Nil ...")."""
        if self.phase is not _BIDDING:
            return NotYourTurnError("The bidding is over: every seat has bid")
        if seat != self.turn:
            return NotYourTurnError(f"It is {SEAT_NAMES[self.turn]}'s turn to bid")
        # Blind Nil is a bid of the right form under any rules: where the rules
        # have none, ``bid_problem`` says so rather than "not -1".
        if type(bid) is not int or not (bid in (NIL, BLIND_NIL) or MIN_BID <= bid <= MAX_BID):
            return IllegalBidError(f"A bid is Nil or a number from 1 to 13, not {bid!r}")
        return bid_problem(
            self.rules,
            self.blind_nil_open[seat & 1],
            self.bids[(seat + 2) & 3],
            bid,
            seat=seat,
            naming=naming,
        )

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
        self._undo.append(UndoStep(seat, NO_CARD, False, None))
        self.turn = (seat + 1) & 3
        if len(self.bid_order) == 4:
            self._end_bidding()

    def _end_bidding(self) -> None:
        """Line up the passes the bids call for, or start the play."""
        bids = [bid for bid in self.bids if bid is not None]
        assert len(bids) == 4
        order = pass_order(self.rules, self.dealer, bids)
        if order:
            self.pass_order = order
            self.phase = _PASSING
            self.turn = order[0][0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = _PLAYING
        if self.rules.first_lead == "two_of_clubs":
            for seat in range(4):
                if self.hands[seat] & BIT[TWO_OF_CLUBS]:
                    self.leader = seat
        self.turn = self.leader  # left of the dealer, unless the two of clubs leads

    # ----------------------------------------------------------------- passing

    def passing(self) -> tuple[Seat, Seat, int] | None:
        """The pass to make now (giver, receiver, how many cards), if any."""
        if self.phase is not _PASSING:
            return None
        return self.pass_order[len(self.passes)]

    def verify_pass(self, seat: Seat, cards: Sequence[Card]) -> None:
        """Raise an ``IllegalActionError`` saying why ``seat`` may not pass ``cards`` now."""
        problem = self.pass_problem(seat, cards)
        if problem is not None:
            raise problem

    def pass_problem(
        self, seat: Seat, cards: Sequence[Card], naming: Naming | None = None
    ) -> SpadesError | None:
        """Why ``seat`` may not pass ``cards`` now, or ``None``: worded by
        ``naming`` (by default to the player passing: "You do not hold ...")."""
        words = Naming(reader=seat) if naming is None else naming
        current = self.passing()
        if current is None:
            return NotYourTurnError("No cards are being passed now")
        giver, receiver, count = current
        if seat != giver:
            return NotYourTurnError(f"It is {SEAT_NAMES[giver]}'s turn to pass cards")
        mask = 0
        for card in cards:
            if type(card) is not int or not 0 <= card < DECK_SIZE:
                return IllegalActionError(f"{card!r} is not a card", rule=Rule.CARD)
            if not self.hands[seat] & BIT[card]:
                return IllegalActionError(_not_held(words, seat, card), rule=Rule.HOLD_CARD)
            mask |= BIT[card]
        if len(cards) != count or mask.bit_count() != count:
            # To the one passing, what to do; to anyone else, what they had to do.
            must = "Pass" if naming is None else f"{words.seat(seat)} must pass"
            return IllegalActionError(
                words.sentence(
                    f"{must} {count} different card{'' if count == 1 else 's'} to "
                    f"{SEAT_NAMES[receiver]}, not {len(cards)}"
                ),
                rule=Rule.NIL_PASS,
            )
        return None

    def pass_cards(self, seat: Seat, cards: Sequence[Card]) -> None:
        """``seat`` passes ``cards`` to its partner (checked)."""
        self.verify_pass(seat, cards)
        mask = 0
        for card in cards:
            mask |= BIT[card]
        self.apply_pass(mask)

    def apply_pass(self, mask: int) -> None:
        """Fast path: the seat to pass gives the cards of ``mask``, unchecked.
        The cards leave its hand now and reach the partner once every pass of
        the hand is made, so no one passes back what they were given."""
        giver = self.turn
        self.hands[giver] ^= mask
        self.passes.append((giver, mask))
        if len(self.passes) < len(self.pass_order):
            self.turn = self.pass_order[len(self.passes)][0]
            return
        for (_, receiver, _), (_, given) in zip(self.pass_order, self.passes, strict=True):
            self.hands[receiver] |= given
        self._start_play()

    def passed_by(self, seat: Seat) -> int:
        """The cards ``seat`` passed this hand (a mask; 0 if none)."""
        given = 0
        for giver, mask in self.passes:
            if giver == seat:
                given |= mask
        return given

    def received_by(self, seat: Seat) -> int:
        """The cards ``seat`` was passed (0 until every pass of the hand is made)."""
        if self.phase is _PASSING or len(self.passes) < len(self.pass_order):
            return 0
        return self.passed_by((seat + 2) & 3) if self.passed_by(seat) else 0

    def skip_passes(self, passes: Sequence[tuple[Seat, int]]) -> None:
        """Record ``passes`` as made without moving any card (the hands given
        already hold what was passed) and start the play: the search rebuilds
        a hand this way from a view of it."""
        self.passes = list(passes)
        self._start_play()

    # -------------------------------------------------------------------- play

    def verify_play(self, seat: Seat, card: Card) -> None:
        """Raise an ``IllegalActionError`` naming the rule ``seat`` breaks by playing ``card``."""
        problem = self.play_problem(seat, card)
        if problem is not None:
            raise problem

    def play_problem(
        self, seat: Seat, card: Card, naming: Naming | None = None
    ) -> SpadesError | None:
        """The rule ``seat`` breaks by playing ``card`` now, or ``None``: worded by
        ``naming`` (by default to the player acting: "You must follow suit: you
        hold a heart"; a record's reader reads "East must follow suit: East holds
        a heart")."""
        # A legal card is the common case (every move a server checks): answer
        # it from the legal mask before building any words, which cost more than
        # the check itself. The branches below word the refusals.
        if (
            type(card) is int
            and 0 <= card < DECK_SIZE
            and seat == self.turn
            and self.legal_mask() & BIT[card]
        ):
            return None
        words = Naming(reader=seat) if naming is None else naming
        if self.phase is not _PLAYING:
            if self.phase is _BIDDING:
                return NotYourTurnError(
                    f"The bidding is not over: it is {SEAT_NAMES[self.turn]}'s turn to bid"
                )
            if self.phase is _PASSING:
                return NotYourTurnError(
                    f"The cards are being passed: it is {SEAT_NAMES[self.turn]}'s turn to pass"
                )
            return NotYourTurnError("The hand is over: all 13 tricks have been played")
        if seat != self.turn:
            return NotYourTurnError(f"It is {SEAT_NAMES[self.turn]}'s turn to play")
        if type(card) is not int or not 0 <= card < DECK_SIZE:
            return IllegalCardError(f"{card!r} is not a card", rule=Rule.CARD)
        hand = self.hands[seat]
        if not hand & BIT[card]:
            return IllegalCardError(_not_held(words, seat, card), rule=Rule.HOLD_CARD)
        who = words.seat(seat)
        holds = words.verb(seat, "hold", "holds")
        suit = SUIT_OF[card]
        if self.trick:
            led = SUIT_OF[self.trick[0]]
            if suit != led and hand & SUIT_MASKS[led]:
                return IllegalCardError(
                    words.sentence(
                        f"{who} must follow suit: {who} {holds} {_a(SUIT_SINGULAR[led])}"
                    ),
                    rule=Rule.FOLLOW_SUIT,
                )
        elif not self.tricks and self.rules.first_lead == "two_of_clubs" and card != TWO_OF_CLUBS:
            return IllegalCardError("The two of clubs leads the first trick", rule=Rule.FIRST_LEAD)
        elif suit == SPADES and hand & NON_SPADE_MASK and not self.spades_broken:
            if not self.tricks:
                return IllegalCardError(
                    words.sentence(
                        f"{who} may not lead a spade to the first trick while {who} {holds} "
                        "another suit"
                    ),
                    rule=Rule.FIRST_LEAD,
                )
            return IllegalCardError(
                f"Spades are not broken yet: {who} may not lead a spade while {who} {holds} "
                "another suit",
                rule=Rule.SPADES_BROKEN,
            )
        return None

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
            self._undo.append(UndoStep(seat, card, was_broken, None))
            self.turn = (seat + 1) & 3
            return
        winner = (self.leader + self._best) & 3
        finished = Trick(self.leader, (trick[0], trick[1], trick[2], trick[3]), winner)
        self.tricks.append(finished)
        self.tricks_won[winner] += 1
        self._undo.append(UndoStep(seat, card, was_broken, finished))
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
        """Take back the last bid or card (fast path for search). Passes are
        never taken back: ``Game`` refuses an undo that would cross one."""
        step = self._undo.pop()
        seat = step.seat
        card = step.card
        finished = step.finished
        self.turn = seat
        if card == NO_CARD:  # a bid
            self.bids[seat] = None
            self.bid_order.pop()
            self.phase = _BIDDING
            self.pass_order = []
            self.leader = (self.dealer + 1) & 3
            return
        self.phase = _PLAYING
        self.hands[seat] |= BIT[card]
        self.spades_broken = step.was_broken
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
        other = HandState(self.dealer, self.deal, self.rules)
        other.blind_nil_open = self.blind_nil_open[:]
        other.pass_order = self.pass_order[:]
        other.passes = self.passes[:]
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
        while self.phase is _PASSING:
            giver, _, count = self.pass_order[len(self.passes)]
            given = 0
            held = self.hands[giver]
            for _ in range(count):
                card = nth_card(held, bits.below(held.bit_count()))
                given |= BIT[card]
                held ^= BIT[card]
            self.apply_pass(given)
        while self.phase is _PLAYING:
            legal = self.legal_mask()
            self.apply_play(nth_card(legal, bits.below(legal.bit_count())))


def _not_held(words: Naming, seat: Seat, card: Card) -> str:
    """ "You do not hold the Queen of spades", or "East does not hold ..."."""
    held = f"{words.verb(seat, 'do', 'does')} not hold the {words.card(card)}"
    return words.sentence(f"{words.seat(seat)} {held}")


def _a(word: str) -> str:
    return ("an " if word[0] in "aeiou" else "a ") + word
