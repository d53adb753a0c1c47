"""The four seats' flat observations kept up to date action by action.

``encode_view`` builds an observation from nothing: about 60 entries set one by
one from a ``PlayerView``, 14 microseconds mid-hand, most of an AEC step. A bid
or a card changes a handful of those entries, so ``SeatObservations`` keeps all
four seats' vectors and writes only the entries an action changes: a bid sets
two (three for a blind Nil) per seat, a card two per seat and one in its
player's hand, a finished trick clears the trick block and sets a count.

It never decides anything by itself: every vector starts as ``encode_view`` of
the seat's view (``rebuild``), and anything but a plain bid, card, trick or
hand score (a deal, a Nil pass) is answered by building them again the same
way. tests/rl/test_tracker.py holds the four vectors to ``encode_view`` at
every step of thousands of random hands and games, under every house rule.

>>> from spades.core import Game
>>> game = Game(seed=7)
>>> seats = SeatObservations()
>>> seats.rebuild([game.view(seat) for seat in range(4)])
>>> seat = game.to_act
>>> seats.bid(seat, 3)
>>> _ = game.bid(seat, 3)
>>> all((seats.rows[s] == encode_view(game.view(s))).all() for s in range(4))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from spades.core import (
    BLIND_NIL,
    SUIT_MASKS,
    BidMade,
    Card,
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    HandState,
    Phase,
    PlayerView,
    Seat,
    TrickWon,
    is_nil,
)

from .encoding import (
    ACTION_COUNT,
    BAG_SCALE,
    BID_SLOTS,
    BIDS_OFFSET,
    BLIND_NIL_OFFSET,
    CARD_ACTIONS,
    HAND_OFFSET,
    OBSERVATION_SIZE,
    PHASE_OFFSET,
    PLAYED_OFFSET,
    SCORE_SCALE,
    SCORES_OFFSET,
    SPADES_BROKEN_OFFSET,
    TRICK_OFFSET,
    TRICK_SCALE,
    TRICKS_WON_OFFSET,
    FloatArray,
    Int8Array,
    card_action_mask,
    encode_view,
)

_SUITS: Final = SUIT_MASKS
_SUIT_UNIONS: Final = tuple(
    sum(SUIT_MASKS[suit] for suit in range(4) if suits >> suit & 1) for suits in range(16)
)
"""``_SUIT_UNIONS[suits]``: every card of the suits whose bits are set in ``suits``."""

_PLAY_PHASES: Final = (Phase.BIDDING, Phase.PLAYING)
"""The phases ``SeatObservations`` follows action by action (a Nil pass is rebuilt)."""


def _spots(*offsets: int) -> npt.NDArray[np.intp]:
    return np.array(offsets, dtype=np.intp)


# Where, in the four rows laid end to end, an action writes: row ``seat``
# starts at ``seat * OBSERVATION_SIZE``, and seat ``actor`` sits at relative
# position ``(actor - seat) & 3`` in it. One index array per case, so each
# write is one numpy call rather than one per seat.
_PLAYED_SPOTS: Final = tuple(
    tuple(
        _spots(
            *(
                seat * OBSERVATION_SIZE + block + ((player - seat) & 3) * 52 + card
                for seat in range(4)
                for block in (PLAYED_OFFSET, TRICK_OFFSET)
            )
        )
        for card in range(52)
    )
    for player in range(4)
)
"""``_PLAYED_SPOTS[player][card]``: the ``played`` and ``trick`` entries of ``card``
played by ``player``, in every row."""
_BID_SPOTS: Final = tuple(
    tuple(
        _spots(
            *(
                seat * OBSERVATION_SIZE + BIDS_OFFSET + ((bidder - seat) & 3) * BID_SLOTS + slot
                for seat in range(4)
            )
        )
        for slot in range(BID_SLOTS)
    )
    for bidder in range(4)
)
"""``_BID_SPOTS[bidder][slot]``: ``bidder``'s bid slot ``slot`` in every row."""
_BLIND_NIL_SPOTS: Final = tuple(
    _spots(
        *(seat * OBSERVATION_SIZE + BLIND_NIL_OFFSET + ((bidder - seat) & 3) for seat in range(4))
    )
    for bidder in range(4)
)
_TRICKS_WON_SPOTS: Final = tuple(
    _spots(
        *(seat * OBSERVATION_SIZE + TRICKS_WON_OFFSET + ((winner - seat) & 3) for seat in range(4))
    )
    for winner in range(4)
)


class SeatObservations:
    """What ``encode_view`` makes of each seat's view, kept current by the
    actions of the hand. Row ``seat`` of ``rows`` is that seat's vector."""

    __slots__ = (
        "actions",
        "bid_masks",
        "bids_made",
        "flat",
        "follows",
        "held",
        "phase",
        "rows",
        "suit_filters",
        "tricks_won",
    )

    def __init__(self, actions: int = ACTION_COUNT) -> None:
        self.rows: FloatArray = np.zeros((4, OBSERVATION_SIZE), dtype=np.float32)
        self.flat: FloatArray = self.rows.reshape(-1)
        """The four rows end to end (a view: writing one writes the other)."""
        self.actions = actions
        self.held: Int8Array = np.zeros((4, actions), dtype=np.int8)
        """Row ``seat``: an action mask allowing every card ``seat`` holds."""
        self.suit_filters: Int8Array = np.zeros((16, actions), dtype=np.int8)
        """Row ``suits`` (a bit per suit): 1 on the cards of those suits."""
        for suits in range(16):
            for suit in range(4):
                if suits >> suit & 1:
                    self.suit_filters[suits, suit * 13 : suit * 13 + 13] = 1
        self.tricks_won = [0, 0, 0, 0]
        self.bids_made = 0
        self.phase = Phase.OVER
        """The phase the rows show."""
        self.follows = False
        """Whether the hand is at a point ``bid``, ``play`` and ``trick_won``
        follow (the bidding or the play: a Nil pass is encoded afresh)."""
        self.bid_masks: dict[tuple[int | None, bool], Int8Array] = {}
        """The bidding masks met so far (``action_mask`` of a view), by the
        partner's bid and whether the team may bid blind Nil: nothing else
        decides the bids open to a seat that sees its cards."""

    def rebuild(self, views: Sequence[PlayerView]) -> None:
        """Start again from the four seats' views (``views[seat]``), as they are now."""
        rows = self.rows
        for seat in range(4):
            rows[seat] = encode_view(views[seat])
        self.held[:, :CARD_ACTIONS] = rows[:, HAND_OFFSET : HAND_OFFSET + 52]  # 0 or 1 either way
        view = views[0]
        self.tricks_won = list(view.tricks_won)
        self.bids_made = len(view.bids)
        self.phase = view.phase
        self.follows = view.phase in _PLAY_PHASES

    def follow(
        self, events: Sequence[Event], hand: HandState, showing_finished: bool, low: int, high: int
    ) -> bool:
        """Follow the events of one action, ``hand`` being the engine's hand
        after it (``showing_finished``: the rows are to show the hand just
        scored, not the next deal). Returns ``False`` when the rows cannot
        follow (a new deal, a Nil pass) and must be rebuilt."""
        for event in events:
            if not self.follows:
                if type(event) is GameOver or (type(event) is HandDealt and showing_finished):
                    continue  # after the score: the finished hand stays in view
                return False
            if type(event) is CardPlayed:
                self.play(event.seat, event.card, event.broke_spades)
            elif type(event) is TrickWon:
                self.trick_won(event.seat)
            elif type(event) is BidMade:
                self.bid(event.seat, event.bid)
                if self.bids_made == 4:
                    if hand.phase is not Phase.PLAYING:
                        return False  # the Nil passes come first
                    self.start_play()
            elif type(event) is HandScored:
                scores = event.scores
                self.hand_over(event.totals, (scores[0].bags, scores[1].bags), low, high)
            else:
                return False
        return True

    def legal_actions(self, seat: Seat, hand: HandState) -> Int8Array | None:
        """``action_mask`` of ``seat``'s view (seeing its cards) when it is its
        turn to bid or play in ``hand``, from the state: ``None`` otherwise."""
        if hand.turn != seat:
            return None
        if hand.phase is Phase.PLAYING:
            return self.card_mask(seat, hand.hands[seat], hand.legal_mask())
        if hand.phase is Phase.BIDDING:
            key = (hand.bids[(seat + 2) & 3], hand.blind_nil_open[seat & 1])
            mask = self.bid_masks.get(key)
            if mask is None:
                return None
            copy: Int8Array = mask.copy()
            return copy
        return None

    def card_mask(self, seat: Seat, hand: int, legal: int) -> Int8Array:
        """``card_action_mask(legal, actions)`` for ``legal``, cards of
        ``hand``, which ``seat`` holds: the cards it holds of the suits it may
        play are one product (the play's rules only ever cut whole suits);
        anything else is spelled out card by card."""
        if legal == hand:
            every: Int8Array = self.held[seat].copy()
            return every
        suits = (
            (1 if legal & _SUITS[0] else 0)
            | (2 if legal & _SUITS[1] else 0)
            | (4 if legal & _SUITS[2] else 0)
            | (8 if legal & _SUITS[3] else 0)
        )
        if legal != hand & _SUIT_UNIONS[suits]:
            return card_action_mask(legal, self.actions)
        mask: Int8Array = self.held[seat] * self.suit_filters[suits]
        return mask

    def bid(self, bidder: Seat, bid: int) -> None:
        """``bidder`` bid ``bid`` (``NIL`` 0, ``BLIND_NIL`` -1, 1..13)."""
        flat, spots = self.flat, _BID_SPOTS[bidder]
        flat[spots[0]] = 0.0  # no longer "no bid yet"
        flat[spots[1 if is_nil(bid) else 1 + bid]] = 1.0
        if bid == BLIND_NIL:
            flat[_BLIND_NIL_SPOTS[bidder]] = 1.0
        self.bids_made += 1

    def start_play(self) -> None:
        """The bidding is over and the play begins (no Nil pass in between)."""
        self.rows[:, PHASE_OFFSET] = 0.0
        self.rows[:, PHASE_OFFSET + 1] = 1.0
        self.phase = Phase.PLAYING
        self.follows = True

    def play(self, player: Seat, card: Card, broke_spades: bool) -> None:
        """``player`` played ``card`` to the trick in progress."""
        flat = self.flat
        flat[player * OBSERVATION_SIZE + HAND_OFFSET + card] = 0.0
        self.held[player, card] = 0
        flat[_PLAYED_SPOTS[player][card]] = 1.0
        if broke_spades:
            self.rows[:, SPADES_BROKEN_OFFSET] = 1.0

    def trick_won(self, winner: Seat) -> None:
        """The trick in progress is complete and ``winner`` took it."""
        self.rows[:, TRICK_OFFSET:PLAYED_OFFSET] = 0.0
        won = self.tricks_won[winner] + 1
        self.tricks_won[winner] = won
        self.flat[_TRICKS_WON_SPOTS[winner]] = won / TRICK_SCALE

    def hand_over(
        self, totals: tuple[int, int], bags: tuple[int, int], low: int, high: int
    ) -> None:
        """The hand is scored: no phase shown, the totals and bags after it
        (``totals`` clamped to ``low..high``, as ``encode_view`` shows them)."""
        rows = self.rows
        rows[:, PHASE_OFFSET : PHASE_OFFSET + 2] = 0.0
        shown = (
            min(max(totals[0], low), high) / SCORE_SCALE,
            min(max(totals[1], low), high) / SCORE_SCALE,
        )
        for seat in range(4):
            us = seat & 1
            rows[seat, SCORES_OFFSET : SCORES_OFFSET + 4] = (
                shown[us],
                shown[1 - us],
                bags[us] / BAG_SCALE,
                bags[1 - us] / BAG_SCALE,
            )
        self.phase = Phase.OVER
        self.follows = False
