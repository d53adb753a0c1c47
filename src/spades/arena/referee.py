"""The referee loop: any bots against any bots, seeded and reproducible."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from spades.bots import Bot, BotFailure, make_bot
from spades.core import (
    CARDCOUCH,
    SEATS,
    Event,
    Game,
    IllegalActionError,
    Phase,
    Rules,
    Seat,
    bid_name,
    card_name,
)
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES

SEED_BITS = 63


def game_seeds(seed: int, count: int) -> Iterator[int]:
    """``count`` game seeds derived from one master ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield rng.getrandbits(SEED_BITS)


def seat_bots(levels: Mapping[Seat, str], game_seed: int) -> dict[Seat, Bot]:
    """Built-in bots for each seat, each seeded from the game seed and its seat."""
    return {
        seat: make_bot(level, seed=f"{game_seed}:{SEAT_LETTERS[seat]}")
        for seat, level in levels.items()
    }


def play_game(
    bots: Mapping[Seat, Bot],
    *,
    seed: int,
    rules: Rules = CARDCOUCH,
    preset_deals: Sequence[tuple[Seat, Sequence[int]]] = (),
    max_hands: int = 1000,
) -> Game:
    """Play a whole game between ``bots`` (one per seat) and return it.

    Every bot sees only its own seat's view, and every action goes through the
    engine's checked entry points. A bot that fails (``BotFailure``) or makes an
    illegal move forfeits the game for its side; ``game.forfeited_by`` says who
    and why. ``max_hands`` guards against a rule variant that never ends.
    """
    missing = [SEAT_LETTERS[seat] for seat in SEATS if seat not in bots]
    if missing:
        raise ValueError(f"no bot for seat(s) {', '.join(missing)}")
    game = Game(
        rules,
        seed=seed,
        preset_deals=preset_deals,
        players={seat: bots[seat].name for seat in SEATS},
    )
    listeners = [seat for seat in SEATS if bots[seat].wants_events]
    for seat in SEATS:
        try:
            bots[seat].start_game(seat, rules)
        except BotFailure as failure:
            game.forfeit(seat, f"{SEAT_NAMES[seat]} failed to start: {failure}")
            return game
    _tell(bots, listeners, game, game.log[:])
    while not game.is_over:
        if game.hand_number > max_hands:
            raise RuntimeError(f"game {seed} did not end within {max_hands} hands")
        actor = game.to_act
        assert actor is not None
        events = _take_turn(game, actor, bots[actor])
        _tell(bots, listeners, game, events)
    return game


def _take_turn(game: Game, seat: Seat, bot: Bot) -> list[Event]:
    view = game.view(seat)
    name = SEAT_NAMES[seat]
    try:
        if game.phase is Phase.BIDDING:
            bid = bot.bid(view)
            try:
                return game.bid(seat, bid)
            except IllegalActionError as error:
                shown = bid_name(bid) if isinstance(bid, int) else repr(bid)
                return game.forfeit(seat, f"{name} made an illegal bid ({shown}): {error}")
        card = bot.play(view)
        try:
            return game.play(seat, card)
        except IllegalActionError as error:
            shown = card_name(card) if isinstance(card, int) and 0 <= card < 52 else repr(card)
            return game.forfeit(seat, f"{name} played an illegal card ({shown}): {error}")
    except BotFailure as failure:
        return game.forfeit(seat, f"{name} forfeits: {failure}")


def _tell(bots: Mapping[Seat, Bot], listeners: list[Seat], game: Game, events: list[Event]) -> None:
    """Pass each public event to the bots that follow them, with their current view
    (the view after the whole turn: the events carry what changed)."""
    if not listeners:
        return
    for event in events:
        for seat in listeners:
            try:
                bots[seat].observe(event, game.view(seat))
            except BotFailure as failure:
                if not game.is_over:
                    game.forfeit(seat, f"{SEAT_NAMES[seat]} forfeits: {failure}")
                return
