"""The one interface every computer player implements.

A bot is handed its seat's ``PlayerView`` (never the full state) and answers
with a bid or a card. It owns its RNG, seeded at creation, so a seeded game
between bots is reproducible. Bots that keep their own memory, or relay the
game to another process, may also follow the game's public events.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from spades.core import BLIND_NIL, Card, Event, PlayerView, Rules, Seat
from spades.core.cards import RANK_OF, SPADES, SUIT_OF, cards_in


def default_pass(view: PlayerView) -> list[Card]:
    """The cards a Nil pass gives: a Nil bidder its most dangerous cards (high
    spades first, then the highest cards), its partner the cards that help a
    Nil most (the lowest, side suits before spades)."""
    held = list(cards_in(view.hand))
    if view.is_nil(view.seat):
        held.sort(key=lambda card: -RANK_OF[card] - (4 if SUIT_OF[card] == SPADES else 0))
    else:
        held.sort(key=lambda card: (SUIT_OF[card] == SPADES, RANK_OF[card]))
    return held[: view.pass_count]


def choose_bid(bot: Bot, view: PlayerView) -> int:
    """``bot``'s bid on ``view``: blind Nil, asked first on the view without the
    cards where the rules open it, else its bid on the cards."""
    blind = view.without_cards()
    if blind.legal_bids() and bot.blind_nil(blind):
        return BLIND_NIL
    return bot.bid(view)


class BotFailure(Exception):
    """A bot could not give a move (a program that crashed, timed out or spoke
    nonsense). The referee records the reason and the bot's side forfeits."""


class Bot(ABC):
    """A computer player. Subclasses implement ``bid`` and ``play``."""

    name: str = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def bid(self, view: PlayerView) -> int:
        """A bid for the seat of ``view``: ``NIL`` (0) or 1..13."""

    @abstractmethod
    def play(self, view: PlayerView) -> Card:
        """A legal card for the seat of ``view``."""

    def blind_nil(self, view: PlayerView) -> bool:
        """Whether to bid blind Nil, asked before ``bid`` where the rules open it.
        ``view`` hides the seat's cards (``view.without_cards()``): that is what
        makes it blind. The default never does."""
        return False

    def pass_cards(self, view: PlayerView) -> list[Card]:
        """The ``view.pass_count`` cards to pass to the partner (a Nil pass)."""
        return default_pass(view)

    def start_game(self, seat: Seat, rules: Rules) -> None:  # noqa: B027 (optional hook)
        """Called once before the game's first deal."""

    def observe(self, event: Event, view: PlayerView) -> None:  # noqa: B027 (optional hook)
        """Called after every public event (a deal, a bid, a card, a trick, a
        score, the end), in order, with this seat's view once the turn that
        caused it is over. Only bots that override
        it are called, so the built-in ones cost nothing here."""

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Called when the bot is no longer needed (stop a process, free memory)."""

    @property
    def wants_events(self) -> bool:
        return type(self).observe is not Bot.observe
