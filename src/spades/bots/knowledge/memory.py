"""What a careful player remembers, derived from the seat's view alone.

Every fact here comes from ``PlayerView``: the cards played and by whom, the
suits each seat has shown void in, which cards are now masters (no unseen card
of the suit is higher), and where each partnership stands against its bid.
"""

from __future__ import annotations

from spades.core import PlayerView, Seat
from spades.core.cards import (
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    Card,
    cards_above,
    cards_below,
    cards_in,
)
from spades.core.hand import winning_position
from spades.core.scoring import TeamContract, is_nil, team_contract
from spades.core.seats import partner_of, team_of


class Memory:
    """Card memory and contract state for one decision.

    A ``Memory`` lives for one decision, and the search's playouts make tens of
    thousands a second, so each fact is worked out on first use and kept: the
    fields below start unknown. The module is compiled by mypyc (``setup.py``),
    which is why they are plain attributes rather than cached properties."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self._unseen = -1
        self._void_bits = -1
        self._winning_known = False
        self._winning: tuple[Card, Seat] | None = None
        self._still: list[Seat] | None = None
        self._bids: tuple[int | None, int | None, int | None, int | None] | None = None
        self._opp_nils: list[Seat] | None = None
        self._contracts: list[TeamContract | None] = [None, None]

    # ------------------------------------------------------------- the cards

    @property
    def unseen(self) -> int:
        """Cards held by the three other seats."""
        if self._unseen < 0:
            self._unseen = self.view.unseen
        return self._unseen

    def is_void(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` has shown it is out of ``suit`` (it failed to follow it).

        Asked at every card of every playout, this is the search's hottest
        question: the view answers it for all four seats in one pass, as bits."""
        if self._void_bits < 0:
            self._void_bits = self.view.void_mask()
        return bool(self._void_bits >> (4 * seat + suit) & 1)

    def is_master(self, card: Card) -> bool:
        """No unseen card of its suit outranks it (it wins unless trumped)."""
        return not (cards_above(card) & self.unseen)

    def may_hold(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` (not this one) may still hold a card of ``suit``."""
        return not self.is_void(seat, suit) and bool(self.unseen & SUIT_MASKS[suit])

    def may_trump(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` might ruff a lead of ``suit`` (void there, spades left)."""
        return (
            suit != SPADES
            and self.is_void(seat, suit)
            and not self.is_void(seat, SPADES)
            and bool(self.unseen & SPADE_MASK)
        )

    # ----------------------------------------------------------- the trick

    @property
    def winning(self) -> tuple[Card, Seat] | None:
        """The card winning the trick in progress and its seat, if any is down."""
        if not self._winning_known:
            self._winning_known = True
            trick = self.view.trick
            if trick:
                best = winning_position(trick)
                self._winning = trick[best], (self.view.leader + best) & 3
        return self._winning

    @property
    def still_to_play(self) -> list[Seat]:
        """The seats that play to this trick after this one."""
        if self._still is None:
            played = len(self.view.trick)
            self._still = [(self.view.seat + offset) & 3 for offset in range(1, 4 - played)]
        return self._still

    def can_be_beaten_later(self, card: Card) -> bool:
        """Whether a seat yet to play might beat ``card`` (by rank, or by a ruff)."""
        led = SUIT_OF[self.view.trick[0]] if self.view.trick else SUIT_OF[card]
        higher = cards_above(card) & self.unseen
        for seat in self.still_to_play:
            if SUIT_OF[card] == led and higher and not self.is_void(seat, led):
                return True
            if SUIT_OF[card] != SPADES and self.may_trump(seat, led):
                return True
            if SUIT_OF[card] == SPADES and led != SPADES and higher and self.may_trump(seat, led):
                return True
        return False

    # -------------------------------------------------------- the contracts

    @property
    def bids(self) -> tuple[int | None, int | None, int | None, int | None]:
        """Each seat's bid (``None`` before it bids), by seat."""
        if self._bids is None:
            by_seat: list[int | None] = [None, None, None, None]
            for seat, bid in self.view.bids:
                by_seat[seat] = bid
            self._bids = by_seat[0], by_seat[1], by_seat[2], by_seat[3]
        return self._bids

    def bid(self, seat: Seat) -> int | None:
        return self.bids[seat]

    def is_nil(self, seat: Seat) -> bool:
        return is_nil(self.bids[seat])

    def contract(self, team: int) -> TeamContract:
        """``team``'s contract as it stands (core's ``team_contract``)."""
        known = self._contracts[team]
        if known is None:
            known = self._contracts[team] = team_contract(team, self.bids, self.view.tricks_won)
        return known

    def team_need(self, team: int) -> int:
        """Tricks ``team``'s numeric bidders still need (negative: overtricks).

        >>> from spades.core import Game
        >>> game = Game(seed=1)
        >>> for _ in range(4):
        ...     _ = game.bid(game.to_act, 3)
        >>> Memory(game.view(0)).team_need(0), Memory(game.view(0)).team_need(1)
        (6, 6)
        """
        return self.contract(team).need

    def team_has_numeric_bid(self, team: int) -> bool:
        return self.contract(team).bidders > 0

    @property
    def our_need(self) -> int:
        return self.team_need(team_of(self.view.seat))

    @property
    def their_need(self) -> int:
        return self.team_need(1 - team_of(self.view.seat))

    @property
    def tricks_left(self) -> int:
        return 13 - len(self.view.tricks)

    @property
    def partner(self) -> Seat:
        return partner_of(self.view.seat)

    def live_nil(self, seat: Seat) -> bool:
        """``seat`` bid Nil and has not taken a trick yet."""
        return self.is_nil(seat) and self.view.tricks_won[seat] == 0

    @property
    def opponent_nils(self) -> list[Seat]:
        if self._opp_nils is None:
            me = self.view.seat
            self._opp_nils = [seat for seat in ((me + 1) & 3, (me + 3) & 3) if self.live_nil(seat)]
        return self._opp_nils


def group_bottom(card: Card, hand: int, unseen: int) -> Card:
    """The lowest card of ``hand`` equivalent to ``card``: no unseen card of the
    suit lies between them, so playing the lower one wins just as surely."""
    lowest_equal = card
    below = cards_below(card)
    for other in sorted(cards_in(below & hand), reverse=True):
        between = cards_below(lowest_equal) & ~cards_below(other) & ~(1 << other)
        if between & unseen:
            break
        lowest_equal = other
    return lowest_equal
