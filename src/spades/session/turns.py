"""A bot's turn: the question its seat is asked now, and the move it answers.

The referee (bots against bots), the terminal game and the web game all make a
bot's move here, so the forfeit of a bot that fails or breaks a rule is worded
once. A decision is split in two halves so that the thinking can happen
elsewhere (another process, another machine): ``answer_of`` asks a bot on a
view and returns plain data, ``apply_answer`` makes that answer on the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeAlias

from spades.bots import Bot, BotFailure
from spades.bots.base import choose_bid
from spades.core import (
    Event,
    Game,
    IllegalActionError,
    Phase,
    PlayerView,
    Seat,
    bid_name,
    card_name,
)
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES

Answer: TypeAlias = int | tuple[int, ...]
"""A bot's answer, as plain data that crosses a process: a bid (``NIL`` 0,
``BLIND_NIL`` -1, 1..13) or a card while bidding or playing, the cards it
passes while passing."""


def decision_seed(game: Game, seat: Seat) -> str:
    """What a bot's randomness is seeded with before each decision: the game, the
    seat and the position, so a move taken back and made again meets the same
    answers, a bot learns nothing from an undo, and a game resumed from its
    record (after a restart, in another process) goes on exactly as it would have.

    >>> decision_seed(Game(seed=7), 1)
    '7:E:1'
    """
    return f"{game.seed}:{SEAT_LETTERS[seat]}:{len(game.log)}"


def answer_of(bot: Bot, view: PlayerView) -> Answer:
    """What ``bot`` answers on ``view`` (its seat's turn): a bid (blind Nil asked
    first, without the cards, where the rules open it), the cards of a Nil pass,
    or a card. A failing bot raises ``BotFailure``."""
    if view.phase is Phase.BIDDING:
        return choose_bid(bot, view)
    if view.phase is Phase.PASSING:
        return tuple(bot.pass_cards(view))
    return bot.play(view)


def hint_of(bot: Bot, view: PlayerView) -> Answer:
    """What ``bot`` suggests to the player of ``view``'s seat, who has seen the
    cards: a bid on them (a hint never offers blind Nil, which is decided
    before the cards are seen), the cards of a Nil pass, or a card."""
    if view.phase is Phase.BIDDING:
        return bot.bid(view)
    return answer_of(bot, view)


def apply_answer(game: Game, seat: Seat, answer: Answer) -> list[Event]:
    """Make ``answer`` for ``seat`` (its turn) through the engine's checked entry
    points; an illegal answer forfeits the game for the seat's side, naming the
    rule it breaks. Returns the events caused."""
    name = SEAT_NAMES[seat]
    if game.phase is Phase.BIDDING:
        try:
            return game.bid(seat, answer)  # type: ignore[arg-type]  # checked by the engine
        except IllegalActionError as error:
            shown = bid_name(answer) if isinstance(answer, int) else repr(answer)
            return game.forfeit(seat, f"{name} made an illegal bid ({shown}): {error}")
    if game.phase is Phase.PASSING:
        cards = list(answer) if isinstance(answer, tuple | list) else [answer]
        try:
            return game.pass_cards(seat, cards)
        except IllegalActionError as error:
            shown = " ".join(_card_shown(card) for card in cards)
            return game.forfeit(
                seat, f"{name} passed illegal cards ({shown}): {error} (rule {error.rule})"
            )
    try:
        return game.play(seat, answer)  # type: ignore[arg-type]  # checked by the engine
    except IllegalActionError as error:
        return game.forfeit(seat, f"{name} played an illegal card ({_card_shown(answer)}): {error}")


def bot_turn(game: Game, seat: Seat, bot: Bot) -> list[Event]:
    """Ask ``bot`` for ``seat``'s move on its own view and make it; a bot that fails
    or moves illegally forfeits the game for its side. Returns the events caused."""
    try:
        answer = answer_of(bot, game.view(seat))  # a bot is only told what its seat may know
    except BotFailure as failure:
        return game.forfeit(seat, f"{SEAT_NAMES[seat]} forfeits: {failure}")
    return apply_answer(game, seat, answer)


Decide = Callable[[str, PlayerView, str], Answer]
"""Where a built-in bot decides: ``(level, view, seed) -> answer`` (a ``Decider``)."""


def bot_move(game: Game, levels: Mapping[Seat, str], decide: Decide) -> list[Event] | None:
    """If a seat of ``levels`` is to act, its level's move, decided by ``decide``
    with the position's ``decision_seed`` and made on ``game`` (the events it
    caused); ``None`` when no bot is to act (a person's turn, or the game is over)."""
    seat = game.to_act
    if seat is None or seat not in levels:
        return None
    try:
        answer = decide(levels[seat], game.view(seat), decision_seed(game, seat))
    except BotFailure as failure:
        return game.forfeit(seat, f"{SEAT_NAMES[seat]} forfeits: {failure}")
    return apply_answer(game, seat, answer)


def _card_shown(card: object) -> str:
    return card_name(card) if type(card) is int and 0 <= card < 52 else repr(card)
