"""The hint: a suggested bid or card from the strongest bot, with a one-line reason.

The server only asks: the move comes from a bot, the reason from the bots'
knowledge (``spades.bots.knowledge.reasons``), both from South's view alone.

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

from spades.bots import BOT_LEVELS, SearchBot, interactive_processes, make_bot
from spades.bots.knowledge.learned_bidding import choose_learned_bid
from spades.bots.knowledge.reasons import bid_reason, card_reason, pass_reason
from spades.core import Card, Phase, PlayerView

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


def suggest(view: PlayerView, *, seed: str) -> Hint:
    """The strongest bot's move for ``view`` (its seat must be to act) and why."""
    level = hint_level()
    bot = make_bot(level, seed=seed, processes=interactive_processes())
    if view.phase is Phase.BIDDING:
        bid = bot.bid(view)
        # A search level starts from the bidding model's bid and keeps it unless
        # playing the bids out finds another better: then that is the reason.
        searched = isinstance(bot, SearchBot) and bid != choose_learned_bid(view)
        return Hint("bid", bid, bid_reason(view, bid, searched=searched), level)
    if view.phase is Phase.PASSING:
        cards = tuple(bot.pass_cards(view))
        return Hint("pass", 0, pass_reason(view, cards), level, cards)
    card = bot.play(view)
    return Hint("card", card, card_reason(view, card), level)
