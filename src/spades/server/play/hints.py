"""The hint: a suggested bid or card from the strongest bot, with a one-line reason.

The server only asks: the move comes from a bot, made where the bots' own
moves are (the service's ``Decider``: bot processes, or Ray), the reason from
the bots' knowledge (``spades.bots.knowledge.reasons``), both from South's view
alone.

>>> from spades.core import Game, SOUTH
>>> game = Game(seed=3)
>>> while game.to_act != SOUTH:
...     _ = game.bid(game.to_act, 3)
>>> hint = suggest(game.view(SOUTH), seed="doctest")
>>> hint.kind, hint.reason.startswith(("Bid", "Nil"))
('bid', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from spades.bots import BOT_LEVELS, SEARCH_LEVELS
from spades.bots.knowledge.learned_bidding import choose_learned_bid
from spades.bots.knowledge.reasons import bid_reason, card_reason, pass_reason
from spades.core import Card, Phase, PlayerView
from spades.session import Decider, InlineDecider

HINT_LEVELS: Final = ("expert", "hard", "normal")
"""The levels a hint asks, strongest first; the first one that exists is used."""


def hint_level() -> str:
    """The strongest built-in level available now (read from ``BOT_LEVELS`` each time)."""
    for level in HINT_LEVELS:
        if level in BOT_LEVELS:
            return level
    return next(iter(BOT_LEVELS))


@dataclass(frozen=True, slots=True)
class Hint:
    kind: Literal["bid", "card", "pass"]
    value: int
    """The bid (``NIL`` is 0) or the card (0 for a pass)."""
    reason: str
    level: str
    cards: tuple[Card, ...] = ()
    """The cards to pass, for a pass."""


def suggest(view: PlayerView, *, seed: str, decider: Decider | None = None) -> Hint:
    """The strongest bot's move for ``view`` (its seat must be to act) and why,
    the move asked of ``decider`` (by default, here)."""
    level = hint_level()
    answer = (decider or InlineDecider())(level, view, seed, hint=True)
    if view.phase is Phase.BIDDING:
        assert isinstance(answer, int)
        # A search level starts from the bidding model's bid and keeps it unless
        # playing the bids out finds another better: then that is the reason.
        searched = level in SEARCH_LEVELS and answer != choose_learned_bid(view)
        return Hint("bid", answer, bid_reason(view, answer, searched=searched), level)
    if view.phase is Phase.PASSING:
        assert isinstance(answer, tuple)
        return Hint("pass", 0, pass_reason(view, answer), level, answer)
    assert isinstance(answer, int)
    return Hint("card", answer, card_reason(view, answer), level)
