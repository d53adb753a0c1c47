"""The referee loop: any bots against any bots, seeded and reproducible."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping

from spades.bots import Bot, make_bot
from spades.core import CARDCOUCH, SEATS, Game, Phase, Rules, Seat
from spades.core.seats import SEAT_LETTERS

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
    max_hands: int = 1000,
) -> Game:
    """Play a whole game between ``bots`` (one per seat) and return it.

    Every bot sees only its own seat's view; every action goes through the
    engine's checked entry points, so a bot's illegal move raises. ``max_hands``
    guards against a game that never ends (it cannot with the default rules,
    but a variant could make it so).
    """
    missing = [SEAT_LETTERS[seat] for seat in SEATS if seat not in bots]
    if missing:
        raise ValueError(f"no bot for seat(s) {', '.join(missing)}")
    game = Game(rules, seed=seed, players={seat: bots[seat].name for seat in SEATS})
    while not game.is_over:
        if game.hand_number > max_hands:
            raise RuntimeError(f"game {seed} did not end within {max_hands} hands")
        seat = game.to_act
        assert seat is not None
        bot = bots[seat]
        view = game.view(seat)
        if game.phase is Phase.BIDDING:
            game.bid(seat, bot.bid(view))
        else:
            game.play(seat, bot.play(view))
    return game
