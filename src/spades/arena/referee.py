"""The referee loop: any bots against any bots, seeded and reproducible."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from spades.bots import Bot, BotFailure, make_bot
from spades.core import CARDCOUCH, SEATS, Event, Game, Rules, Seat
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES
from spades.session import bot_turn

SEED_BITS = 63


def game_seeds(seed: int, count: int) -> Iterator[int]:
    """``count`` game seeds derived from one master ``seed``."""
    rng = random.Random(seed)
    for _ in range(count):
        yield rng.getrandbits(SEED_BITS)


def seat_bots(levels: Mapping[Seat, str], game_seed: int, *, processes: int = 1) -> dict[Seat, Bot]:
    """Built-in bots for each seat, each seeded from the game seed and its seat
    (``processes``: see ``make_bot``)."""
    return {
        seat: make_bot(level, seed=f"{game_seed}:{SEAT_LETTERS[seat]}", processes=processes)
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
    game = _start_game(bots, seed=seed, rules=rules, preset_deals=preset_deals)
    _play_until(game, bots, hands=None, max_hands=max_hands)
    return game


def play_hand(
    bots: Mapping[Seat, Bot],
    *,
    dealer: Seat,
    deal: Sequence[int],
    rules: Rules = CARDCOUCH,
    seed: int,
) -> Game:
    """Play one hand of ``deal`` from a 0-0 score and return the game, stopped
    once that hand is scored (or forfeited).

    The game has already dealt its next hand unless the first one ended it, so
    read the result from ``game.history[0]`` (empty after a forfeit). Duplicate
    matches play the same ``deal`` at two tables with the partnerships swapped.
    """
    game = _start_game(bots, seed=seed, rules=rules, preset_deals=[(dealer, deal)])
    _play_until(game, bots, hands=1, max_hands=1)
    return game


def _start_game(
    bots: Mapping[Seat, Bot],
    *,
    seed: int,
    rules: Rules,
    preset_deals: Sequence[tuple[Seat, Sequence[int]]],
) -> Game:
    """A new game between ``bots``, each told its seat; a bot that cannot start forfeits."""
    missing = [SEAT_LETTERS[seat] for seat in SEATS if seat not in bots]
    if missing:
        raise ValueError(f"no bot for seat(s) {', '.join(missing)}")
    game = Game(
        rules,
        seed=seed,
        preset_deals=preset_deals,
        players={seat: bots[seat].name for seat in SEATS},
    )
    start_bots(game, bots)
    return game


def start_bots(game: Game, bots: Mapping[Seat, Bot]) -> list[Event]:
    """Tell each bot its seat; a bot that cannot start forfeits (its events returned).
    ``bots`` may leave seats out (a human's)."""
    for seat, bot in sorted(bots.items()):
        try:
            bot.start_game(seat, game.rules)
        except BotFailure as failure:
            return game.forfeit(seat, f"{SEAT_NAMES[seat]} failed to start: {failure}")
    return []


def _play_until(game: Game, bots: Mapping[Seat, Bot], *, hands: int | None, max_hands: int) -> None:
    """Take turns until the game is over or, if ``hands`` is given, that many hands are scored."""
    if game.is_over:  # a bot failed to start
        return
    listeners = listeners_of(bots)
    tell_bots(bots, listeners, game, game.log[:])
    while not game.is_over and (hands is None or len(game.history) < hands):
        if game.hand_number > max_hands:
            raise RuntimeError(f"game {game.seed} did not end within {max_hands} hands")
        actor = game.to_act
        assert actor is not None
        events = bot_turn(game, actor, bots[actor])
        tell_bots(bots, listeners, game, events)


def listeners_of(bots: Mapping[Seat, Bot]) -> list[Seat]:
    """The seats whose bots follow the public events."""
    return [seat for seat, bot in sorted(bots.items()) if bot.wants_events]


def tell_bots(
    bots: Mapping[Seat, Bot], listeners: list[Seat], game: Game, events: list[Event]
) -> list[Event]:
    """Pass each public event to the bots that follow them, with their current view
    (the view after the whole turn: the events carry what changed). A bot that
    fails here forfeits; the forfeit's events are returned."""
    for event in events:
        for seat in listeners:
            try:
                bots[seat].observe(event, game.view(seat))
            except BotFailure as failure:
                if game.is_over:
                    return []
                return game.forfeit(seat, f"{SEAT_NAMES[seat]} forfeits: {failure}")
    return []
