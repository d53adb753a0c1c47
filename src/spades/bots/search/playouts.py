"""A sampled deal played to its end: the search's inner loop, compiled by mypyc.

Every option of every decision is played out in every sampled deal, the
knowledge-based bidder and player at all four seats: millions of cards a
second, which is why this loop lives in a module of its own that mypyc
compiles (``setup.py``), beside the bots' knowledge it calls. The card play
itself runs in C (``_playout.c``, a port of ``choose_card`` and its memory:
a whole hand's play in 14 us against 550 us compiled): ``playout`` below, in Python, is the reference it is
held to card by card (tests/bots/test_playout_kernel.py), and plays instead
where the C is not built.
"""

from __future__ import annotations

from collections.abc import Callable

from spades.core.cards import lowest, mask_of
from spades.core.hand import HandState, Phase
from spades.core.rules import Rules
from spades.core.scoring import NIL, score_hand
from spades.core.seats import team_of
from spades.core.view import PlayerView

from ..base import default_pass
from ..knowledge.learned_bidding import choose_learned_bid
from ..knowledge.memory import Memory
from ..knowledge.play import choose_card
from ..valuation import game_value

_play_out: Callable[..., tuple[int, int, int, int]] | None
try:
    from ._playout import play_out as _play_out
except ImportError:  # pragma: no cover - depends on the build
    _play_out = None

NO_BID = 100
"""A seat yet to bid, to the C playout (neither Nil nor a number)."""

Ending = tuple[int | None, ...]
"""How a hand ended: each seat's bid, then each seat's tricks."""


def after_card(state: HandState, card: int, view: PlayerView) -> Ending:
    """How the sampled deal ends after ``card``."""
    trial = state.clone()
    trial.apply_play(card)
    return play_to_end(trial, view)


def after_bid(state: HandState, bid: int, view: PlayerView) -> Ending:
    """How the sampled deal ends, bid and played out, after ``bid``."""
    trial = state.clone()
    trial.apply_bid(bid)
    finish_bidding(trial, view)
    return play_to_end(trial, view)


def play_to_end(state: HandState, view: PlayerView, native: bool = True) -> Ending:
    """How the hand ends with the knowledge-based player at every seat: the
    C playout's answer where it is built (and ``native``), else ``playout``'s."""
    finish_passing(state, view)
    if _play_out is None or not native or state.phase is not Phase.PLAYING:
        done = playout(state, view)
        return (*done.bids, *done.tricks_won)
    tricks = _play_out(*kernel_arguments(state, view))
    return (*state.bids, *tricks)


def kernel_arguments(state: HandState, view: PlayerView) -> tuple[object, ...]:
    """The hand in play, as the C playout takes it (``_playout.pyi``); the
    bags and house rules are ``view``'s, as every seat's in ``playout``."""
    rules: Rules = view.rules
    seen = PlayerView.of(state, state.turn)  # the history, as every seat sees it
    return (
        (state.hands[0], state.hands[1], state.hands[2], state.hands[3]),
        tuple(state.trick),
        state.leader,
        len(state.tricks),
        (state.tricks_won[0], state.tricks_won[1], state.tricks_won[2], state.tricks_won[3]),
        tuple([NO_BID if bid is None else bid for bid in state.bids]),
        state.spades_broken,
        seen.void_mask(),
        seen.played,
        rules.first_lead == "two_of_clubs",  # the C knows the two of clubs as card 0
        -1 if rules.bag_limit is None else rules.bag_limit,
        rules.bag_penalty,
        (view.bags[0], view.bags[1]),
    )


def finish_bidding(state: HandState, view: PlayerView) -> None:
    """The seats after this one bid as the knowledge-based bidder would."""
    while state.phase is Phase.BIDDING:
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_bid(choose_learned_bid(seat_view))


def finish_passing(state: HandState, view: PlayerView) -> None:
    """The passes still to make (a Nil's, under house rules), as the
    knowledge-based player makes them."""
    while state.phase is Phase.PASSING:
        seat_view = PlayerView.of(
            state, state.turn, totals=view.totals, bags=view.bags, rules=view.rules
        )
        state.apply_pass(mask_of(default_pass(seat_view)))


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
    finish_passing(state, view)
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
    >>> ending = (*done.bids, *done.tricks_won)
    >>> values.of(ending) == hand_value(ending, game.view(0)) == values.of(ending)
    True
    """

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.known: dict[Ending, float] = {}

    def of(self, ending: Ending) -> float:
        value = self.known.get(ending)
        if value is None:
            value = self.known[ending] = hand_value(ending, self.view)
        return value


def hand_value(ending: Ending, view: PlayerView) -> float:
    """What the hand that ended so is worth to the viewer's team: its chance of
    winning the game from the score the hand leaves (``valuation.game_value``)."""
    rules: Rules = view.rules
    bids = [NIL if bid is None else bid for bid in ending[:4]]
    tricks = [0 if won is None else won for won in ending[4:]]
    scores = score_hand(bids, tricks, view.bags, rules)
    totals = (view.totals[0] + scores[0].delta, view.totals[1] + scores[1].delta)
    bags = (scores[0].bags, scores[1].bags)
    return game_value(totals, bags, team_of(view.seat), rules)
