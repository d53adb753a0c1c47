"""Built-in bots never make an illegal move (the full 10,000-hand count is in
benchmarks/bots.py; this runs a few hundred hands on every test run)."""

import pytest

from spades.arena import game_seeds, play_game, seat_bots
from spades.bots import BOT_LEVELS


@pytest.mark.parametrize("level", sorted(BOT_LEVELS))
def test_no_illegal_move_in_full_games(level: str) -> None:
    hands = 0
    for seed in game_seeds(2026, 12):
        game = play_game(seat_bots(dict.fromkeys(range(4), level), seed), seed=seed)
        assert game.forfeited_by is None, game.forfeited_by
        assert game.outcome is not None
        hands += len(game.history)
    assert hands >= 12


def test_mixed_tables_finish_cleanly() -> None:
    levels = {0: "normal", 1: "easy", 2: "random", 3: "normal"}
    for seed in game_seeds(7, 10):
        game = play_game(seat_bots(levels, seed), seed=seed)
        assert game.forfeited_by is None and game.outcome is not None
