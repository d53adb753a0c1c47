"""What one seat may know: the only thing a bot or a client is ever given.

A ``PlayerView`` holds the seat's own cards and everything public (bids, every
card played and by whom, tricks, scores). It never holds another seat's unplayed
cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Final, final

from .cards import FULL_DECK, SUIT_MASKS, SUIT_OF, Card, cards_in
from .hand import (
    HandState,
    Phase,
    Trick,
    blind_nil_is_open,
    legal_bid_list,
    legal_play_mask,
    opening_lead_mask,
)
from .rules import CARDCOUCH, Rules
from .scoring import BLIND_NIL, TeamContract, is_nil, team_contract
from .seats import Seat, partner_of, team_of


@final
class PlayerView:
    """One seat's knowledge of the game at one moment.

    Read-only: every field is ``Final`` (mypy refuses an assignment; compiled,
    the attribute cannot be written), and ``replace`` makes a changed copy. It
    is a plain class rather than a frozen dataclass because the search builds
    one at every card of every playout: compiled by mypyc, a frozen dataclass
    took 5 microseconds to build (its generated ``__init__`` sets each field
    through ``object.__setattr__``), this takes a tenth of one.
    """

    FIELDS: ClassVar[tuple[str, ...]] = (
        "seat",
        "hand",
        "dealer",
        "phase",
        "turn",
        "bids",
        "leader",
        "trick",
        "tricks",
        "tricks_won",
        "spades_broken",
        "totals",
        "bags",
        "hand_number",
        "rules",
        "passed",
        "received",
        "passing",
        "sees_cards",
    )
    """The fields, in the constructor's order."""

    seat: Final[Seat]
    hand: Final[int]
    """The cards this seat still holds (a mask)."""
    dealer: Final[Seat]
    phase: Final[Phase]
    turn: Final[Seat | None]
    """The seat to act; ``None`` when the hand is over."""
    bids: Final[tuple[tuple[Seat, int], ...]]
    """The bids so far in bidding order, as ``(seat, bid)``; Nil is 0."""
    leader: Final[Seat]
    """The leader of the trick in progress (or of the next trick)."""
    trick: Final[tuple[Card, ...]]
    """The cards of the trick in progress, in play order."""
    tricks: Final[tuple[Trick, ...]]
    """The finished tricks of this hand."""
    tricks_won: Final[tuple[int, int, int, int]]
    spades_broken: Final[bool]
    totals: Final[tuple[int, int]]
    """Game points of NS and EW before this hand is scored."""
    bags: Final[tuple[int, int]]
    """Bags of NS and EW before this hand is scored."""
    hand_number: Final[int]
    rules: Final[Rules]
    passed: Final[int]
    """The cards this seat passed to its partner this hand (a Nil pass)."""
    received: Final[int]
    """The cards this seat's partner passed to it, once every pass is made."""
    passing: Final[tuple[Seat, Seat, int] | None]
    """The pass to make now (giver, receiver, how many), during the passing."""
    sees_cards: Final[bool]
    """``False`` in the view a seat decides blind Nil on: ``hand`` is hidden (0)."""

    def __init__(
        self,
        seat: Seat,
        hand: int,
        dealer: Seat,
        phase: Phase,
        turn: Seat | None,
        bids: tuple[tuple[Seat, int], ...],
        leader: Seat,
        trick: tuple[Card, ...],
        tricks: tuple[Trick, ...],
        tricks_won: tuple[int, int, int, int],
        spades_broken: bool,
        totals: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
        hand_number: int = 1,
        rules: Rules = CARDCOUCH,
        passed: int = 0,
        received: int = 0,
        passing: tuple[Seat, Seat, int] | None = None,
        sees_cards: bool = True,
    ) -> None:
        self.seat = seat
        self.hand = hand
        self.dealer = dealer
        self.phase = phase
        self.turn = turn
        self.bids = bids
        self.leader = leader
        self.trick = trick
        self.tricks = tricks
        self.tricks_won = tricks_won
        self.spades_broken = spades_broken
        self.totals = totals
        self.bags = bags
        self.hand_number = hand_number
        self.rules = rules
        self.passed = passed
        self.received = received
        self.passing = passing
        self.sees_cards = sees_cards

    def values(self) -> tuple[object, ...]:
        """The fields' values, in ``FIELDS`` order."""
        return (
            self.seat,
            self.hand,
            self.dealer,
            self.phase,
            self.turn,
            self.bids,
            self.leader,
            self.trick,
            self.tricks,
            self.tricks_won,
            self.spades_broken,
            self.totals,
            self.bags,
            self.hand_number,
            self.rules,
            self.passed,
            self.received,
            self.passing,
            self.sees_cards,
        )

    def replace(self, **changes: Any) -> PlayerView:
        """This view with the fields named in ``changes`` changed.

        >>> from spades.core import Game
        >>> view = Game(seed=1).view(0)
        >>> view.replace(totals=(100, 40)).totals, view.totals
        ((100, 40), (0, 0))
        >>> view.replace(cards=0)
        Traceback (most recent call last):
        ...
        TypeError: PlayerView has no field 'cards'
        """
        for name in changes:
            if name not in PlayerView.FIELDS:
                raise TypeError(f"PlayerView has no field {name!r}")
        fields: dict[str, Any] = dict(zip(PlayerView.FIELDS, self.values(), strict=True))
        fields.update(changes)
        return PlayerView(**fields)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerView) and self.values() == other.values()

    def __hash__(self) -> int:
        return hash(self.values())

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in zip(PlayerView.FIELDS, self.values(), strict=True)
        )
        return f"PlayerView({shown})"

    def __reduce__(self) -> tuple[type[PlayerView], tuple[object, ...]]:
        # A view crosses processes (the server's bot pool): rebuild it from its fields.
        return (PlayerView, self.values())

    @classmethod
    def of(
        cls,
        state: HandState,
        seat: Seat,
        *,
        totals: tuple[int, int] = (0, 0),
        bags: tuple[int, int] = (0, 0),
        hand_number: int = 1,
        rules: Rules = CARDCOUCH,
    ) -> PlayerView:
        """The view of ``state`` from ``seat``."""
        # PlayerView, not cls: a native call (the class is final), where a
        # call through cls is a generic one, at every card of every playout.
        return PlayerView(
            seat=seat,
            hand=state.hands[seat],
            dealer=state.dealer,
            phase=state.phase,
            turn=state.to_act,
            # A list, not a generator: this runs at every card of every search playout.
            bids=tuple([(s, bid) for s in state.bid_order if (bid := state.bids[s]) is not None]),
            leader=state.leader,
            trick=tuple(state.trick),
            tricks=tuple(state.tricks),
            tricks_won=(
                state.tricks_won[0],
                state.tricks_won[1],
                state.tricks_won[2],
                state.tricks_won[3],
            ),
            spades_broken=state.spades_broken,
            totals=totals,
            bags=bags,
            hand_number=hand_number,
            rules=rules,
            passed=state.passed_by(seat),
            received=state.received_by(seat),
            passing=state.passing(),
        )

    # ------------------------------------------------------------- derived facts

    @property
    def is_my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def partner(self) -> Seat:
        return partner_of(self.seat)

    @property
    def team(self) -> int:
        return team_of(self.seat)

    @property
    def trick_number(self) -> int:
        """1-based number of the trick in progress (14 once the hand is over)."""
        return len(self.tricks) + 1

    def bid_of(self, seat: Seat) -> int | None:
        """The bid ``seat`` made, or ``None`` if it has not bid yet."""
        for bidder, bid in self.bids:
            if bidder == seat:
                return bid
        return None

    def bids_by_seat(self) -> list[int | None]:
        """Each seat's bid by seat, ``None`` for a seat still to bid."""
        by_seat: list[int | None] = [None, None, None, None]
        for seat, bid in self.bids:
            by_seat[seat] = bid
        return by_seat

    def contract(self, team: int) -> TeamContract:
        """``team``'s contract as it stands (``spades.core.scoring.team_contract``)."""
        return team_contract(team, self.bids_by_seat(), self.tricks_won)

    def is_nil(self, seat: Seat) -> bool:
        """Whether ``seat`` bid Nil or blind Nil."""
        bid = self.bid_of(seat)
        return bid is not None and is_nil(bid)

    def legal_bids(self) -> list[int]:
        """The bids open to this seat now (empty unless it is this seat's turn to bid).

        Blind Nil is bid before looking at the cards: it is the one bid of the
        view ``without_cards``, and never among the bids of a view that shows them.
        """
        if self.phase is not Phase.BIDDING or not self.is_my_turn:
            return []
        bids = legal_bid_list(self.rules, self.blind_nil_open, self.bid_of(self.partner))
        if not self.sees_cards:
            return [bid for bid in bids if bid == BLIND_NIL]
        return [bid for bid in bids if bid != BLIND_NIL]

    @property
    def blind_nil_open(self) -> bool:
        """Whether this seat's team may bid blind Nil this hand (the partner's
        bid and the other options aside)."""
        return blind_nil_is_open(self.rules, self.totals, self.team)

    def without_cards(self) -> PlayerView:
        """This view with the seat's cards hidden: what a player decides blind Nil on."""
        return self.replace(hand=0, sees_cards=False)

    @property
    def pass_count(self) -> int:
        """How many cards this seat must pass now (0 unless it is its turn to pass)."""
        if self.passing is None or self.passing[0] != self.seat:
            return 0
        return self.passing[2]

    def known_cards(self, seat: Seat) -> int:
        """Cards this seat knows ``seat`` holds: those it passed it, not yet played."""
        if seat != self.partner or not self.passed:
            return 0
        return self.passed & ~self.played

    def legal_mask(self) -> int:
        """The cards this seat may play now (0 unless it is its turn to play)."""
        if self.phase is not Phase.PLAYING or not self.is_my_turn:
            return 0
        if not self.trick and not self.tricks:
            return opening_lead_mask(self.hand, self.spades_broken, self.rules)
        led = SUIT_OF[self.trick[0]] if self.trick else -1
        return legal_play_mask(self.hand, led, self.spades_broken)

    def legal_cards(self) -> list[Card]:
        return list(cards_in(self.legal_mask()))

    @property
    def played(self) -> int:
        """Every card played so far in this hand, finished tricks and the current one."""
        mask = 0
        for trick in self.tricks:
            for card in trick.cards:
                mask |= 1 << card
        for card in self.trick:
            mask |= 1 << card
        return mask

    @property
    def unseen(self) -> int:
        """The cards this seat has not seen: held by the other three seats.

        >>> from spades.core import Game
        >>> view = Game(seed=1).view(0)
        >>> bin(view.unseen).count("1"), view.unseen & view.hand
        (39, 0)
        """
        return FULL_DECK & ~self.played & ~self.hand

    def plays(self) -> list[tuple[Seat, Card]]:
        """Every card played this hand as ``(seat, card)``, in order."""
        result: list[tuple[Seat, Card]] = []
        for trick in self.tricks:
            result.extend(((trick.leader + i) & 3, card) for i, card in enumerate(trick.cards))
        result.extend(((self.leader + i) & 3, card) for i, card in enumerate(self.trick))
        return result

    def voids_by_seat(self) -> tuple[set[int], set[int], set[int], set[int]]:
        """For each seat (indexed by seat), the suits it has shown it holds no
        more of: it failed to follow them (``void_mask``, as sets)."""
        mask = self.void_mask()
        north, east, south, west = (
            {suit for suit in range(4) if mask >> (4 * seat + suit) & 1} for seat in range(4)
        )
        return north, east, south, west

    def void_mask(self) -> int:
        """Who has shown a void, as one int: bit ``4 * seat + suit`` is set once
        ``seat`` failed to follow ``suit``. The search's playouts ask for it at
        every card: this takes 0.4 us compiled, four sets 1.9 us.

        >>> from spades.core import Game
        >>> game = Game(seed=1)
        >>> for _ in range(4):
        ...     _ = game.bid(game.to_act, 3)
        >>> while len(game.hand.tricks) < 6:
        ...     seat = game.to_act
        ...     _ = game.play(seat, game.view(seat).legal_cards()[-1])
        >>> view = game.view(0)
        >>> view.voids_by_seat()  # North, East and West are out of hearts (suit 2)
        ({2}, {2}, set(), {2})
        >>> bin(view.void_mask())  # bits 2, 6 and 14
        '0b100000001000100'
        """
        mask = 0
        for finished in self.tricks:
            cards = finished.cards
            led = SUIT_OF[cards[0]]
            for position in range(1, 4):
                if SUIT_OF[cards[position]] != led:
                    mask |= 1 << (4 * ((finished.leader + position) & 3) + led)
        trick = self.trick
        if trick:
            led = SUIT_OF[trick[0]]
            for position in range(1, len(trick)):
                if SUIT_OF[trick[position]] != led:
                    mask |= 1 << (4 * ((self.leader + position) & 3) + led)
        return mask

    def void_suits(self, seat: Seat) -> set[int]:
        """Suits ``seat`` has shown it holds no more of (it failed to follow them)."""
        return self.voids_by_seat()[seat]

    def cards_left_in_suit(self, suit: int) -> int:
        """The unseen cards of ``suit``: held by the other three seats."""
        return self.unseen & SUIT_MASKS[suit]


def state_from_view(view: PlayerView, hands: Sequence[int]) -> HandState:
    """A full ``HandState`` consistent with ``view`` where the seats hold ``hands``
    (the cards each seat still holds; ``hands[view.seat]`` must be the view's own).

    The hook of determinized search: a search player samples the hidden hands
    and plays on the result, never on the real deal it cannot see.
    """
    if hands[view.seat] != view.hand:
        raise ValueError("the viewer's own hand must be kept as it is")
    played_by = [0, 0, 0, 0]
    for seat, card in view.plays():
        played_by[seat] |= 1 << card
    dealt = [hands[seat] | played_by[seat] for seat in range(4)]
    state = HandState.from_deal(view.dealer, dealt, view.rules)
    state.open_blind_nil(view.totals)
    for seat, bid in view.bids:
        state.apply_bid(bid)
        assert state.bid_order[-1] == seat
    if state.phase is Phase.PASSING and view.phase is not Phase.PASSING:
        # The hands given already hold what was passed: only the play remains.
        state.skip_passes([])
    for trick in view.tricks:
        for card in trick.cards:
            state.apply_play(card)
    for card in view.trick:
        state.apply_play(card)
    return state
