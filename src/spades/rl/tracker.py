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
>>> all((seats.observation(s) == encode_view(game.view(s))).all() for s in range(4))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np

from spades.core import BLIND_NIL, Card, Phase, PlayerView, Seat, is_nil

from .encoding import (
    BAG_SCALE,
    BID_SLOTS,
    BIDS_OFFSET,
    BLIND_NIL_OFFSET,
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
    encode_view,
)

_PLAY_PHASES: Final = (Phase.BIDDING, Phase.PLAYING)
"""The phases ``SeatObservations`` follows action by action (a Nil pass is rebuilt)."""


class SeatObservations:
    """What ``encode_view`` makes of each seat's view, kept current by the
    actions of the hand. Row ``seat`` of ``rows`` is that seat's vector."""

    __slots__ = ("bids_made", "phase", "rows", "tricks_won")

    def __init__(self) -> None:
        self.rows: FloatArray = np.zeros((4, OBSERVATION_SIZE), dtype=np.float32)
        self.tricks_won = [0, 0, 0, 0]
        self.bids_made = 0
        self.phase = Phase.OVER
        """The phase the rows show; only bidding and playing are followed."""

    def rebuild(self, views: Sequence[PlayerView]) -> None:
        """Start again from the four seats' views (``views[seat]``), as they are now."""
        rows = self.rows
        for seat in range(4):
            rows[seat] = encode_view(views[seat])
        view = views[0]
        self.tricks_won = list(view.tricks_won)
        self.bids_made = len(view.bids)
        self.phase = view.phase

    @property
    def follows(self) -> bool:
        """Whether the hand is at a point ``bid``, ``play`` and ``trick_won`` follow."""
        return self.phase in _PLAY_PHASES

    def observation(self, seat: Seat) -> FloatArray:
        """``seat``'s vector (a copy: the caller may keep or change it)."""
        copy: FloatArray = self.rows[seat].copy()
        return copy

    def bid(self, bidder: Seat, bid: int) -> None:
        """``bidder`` bid ``bid`` (``NIL`` 0, ``BLIND_NIL`` -1, 1..13)."""
        rows = self.rows
        nil = is_nil(bid)
        for seat in range(4):
            relative = (bidder - seat) & 3
            slots = BIDS_OFFSET + relative * BID_SLOTS
            row = rows[seat]
            row[slots] = 0.0  # no longer "no bid yet"
            row[slots + (1 if nil else 1 + bid)] = 1.0
            if bid == BLIND_NIL:
                row[BLIND_NIL_OFFSET + relative] = 1.0
        self.bids_made += 1

    def start_play(self) -> None:
        """The bidding is over and the play begins (no Nil pass in between)."""
        self.rows[:, PHASE_OFFSET] = 0.0
        self.rows[:, PHASE_OFFSET + 1] = 1.0
        self.phase = Phase.PLAYING

    def play(self, player: Seat, card: Card, broke_spades: bool) -> None:
        """``player`` played ``card`` to the trick in progress."""
        rows = self.rows
        rows[player, HAND_OFFSET + card] = 0.0
        for seat in range(4):
            played = PLAYED_OFFSET + ((player - seat) & 3) * 52 + card
            row = rows[seat]
            row[played] = 1.0
            row[played + TRICK_OFFSET - PLAYED_OFFSET] = 1.0
        if broke_spades:
            rows[:, SPADES_BROKEN_OFFSET] = 1.0

    def trick_won(self, winner: Seat) -> None:
        """The trick in progress is complete and ``winner`` took it."""
        rows = self.rows
        rows[:, TRICK_OFFSET:PLAYED_OFFSET] = 0.0
        won = self.tricks_won[winner] + 1
        self.tricks_won[winner] = won
        share = won / TRICK_SCALE
        for seat in range(4):
            rows[seat, TRICKS_WON_OFFSET + ((winner - seat) & 3)] = share

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
