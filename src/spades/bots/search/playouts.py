"""A sampled deal played to its end: the search's inner loop, compiled by mypyc.

Every option of every decision is played out in every sampled deal, the
knowledge-based bidder and player at all four seats: hundreds of thousands of
cards a second, which is why this loop lives in a module of its own that mypyc
compiles (``setup.py``), beside the bots' knowledge it calls.
"""

from __future__ import annotations

from spades.core.cards import lowest, mask_of
from spades.core.hand import HandState, Phase
from spades.core.rules import Rules
from spades.core.scoring import score_hand
from spades.core.seats import team_of
from spades.core.view import PlayerView

from ..base import default_pass
from ..knowledge.learned_bidding import choose_learned_bid
from ..knowledge.memory import Memory
from ..knowledge.play import choose_card
from ..valuation import game_value


def after_card(state: HandState, card: int, view: PlayerView) -> HandState:
    """The sampled deal played out after ``card``."""
    trial = state.clone()
    trial.apply_play(card)
    return playout(trial, view)


def after_bid(state: HandState, bid: int, view: PlayerView) -> HandState:
    """The sampled deal bid and played out after ``bid``."""
    trial = state.clone()
    trial.apply_bid(bid)
    finish_bidding(trial, view)
    return playout(trial, view)


def finish_bidding(state: HandState, view: PlayerView) -> None:
    """The seats after this one bid as the knowledge-based bidder would."""
    while state.phase is Phase.BIDDING:
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_bid(choose_learned_bid(seat_view))


def playout(state: HandState, view: PlayerView) -> HandState:
    """Play the hand to its end with the knowledge-based player at every seat.

    >>> from spades.core import Game
    >>> game = Game(seed=5)
    >>> state = game.hand.clone()
    >>> finish_bidding(state, game.view(game.to_act))
    >>> done = playout(state, game.view(0))
    >>> done.is_over, sum(done.tricks_won), game.hand.is_over  # the game's own hand untouched
    (True, 13, False)
    """
    while state.phase is Phase.PASSING:
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_pass(mask_of(default_pass(seat_view)))
    while state.phase is Phase.PLAYING:
        legal = state.legal_mask()
        if legal & (legal - 1) == 0:
            # One legal card: what ``choose_card`` would answer, without the
            # view and memory it would be built for (a fifth of a playout's cards).
            state.apply_play(lowest(legal))
            continue
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_play(choose_card(Memory(seat_view)))
    return state


class HandValues:
    """``hand_value`` for one viewer, remembered by the bids and tricks: a
    search values thousands of finished hands from one score, and they end in
    a few dozen ways (the valuation was a sixteenth of a search's CPU).

    >>> from spades.core import Game
    >>> game = Game(seed=5)
    >>> state = game.hand.clone()
    >>> finish_bidding(state, game.view(game.to_act))
    >>> done = playout(state, game.view(0))
    >>> values = HandValues(game.view(0))
    >>> values.of(done) == hand_value(done, game.view(0)) == values.of(done)
    True
    """

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.known: dict[tuple[int | None, ...], float] = {}

    def of(self, state: HandState) -> float:
        key = (*state.bids, *state.tricks_won)
        value = self.known.get(key)
        if value is None:
            value = self.known[key] = hand_value(state, self.view)
        return value


def hand_value(state: HandState, view: PlayerView) -> float:
    """What the finished hand is worth to the viewer's team: its chance of
    winning the game from the score the hand leaves (``valuation.game_value``)."""
    rules: Rules = view.rules
    scores = score_hand(state.scored_bids(), state.tricks_won, view.bags, rules)
    totals = (view.totals[0] + scores[0].delta, view.totals[1] + scores[1].delta)
    bags = (scores[0].bags, scores[1].bags)
    return game_value(totals, bags, team_of(view.seat), rules)
