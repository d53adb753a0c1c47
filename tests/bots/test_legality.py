"""Built-in bots never make an illegal move (the full 10,000-hand count is in
benchmarks/bots.py; this runs a few hundred hands on every test run)."""

import pytest

from spades.arena import game_seeds, play_game, seat_bots
from spades.arena.referee import play_hand
from spades.bots import BOT_LEVELS, SEARCH_LEVELS, make_bot
from spades.core.hand import deal_from_seed

CHEAP_LEVELS = sorted(set(BOT_LEVELS) - set(SEARCH_LEVELS))


@pytest.mark.parametrize("level", CHEAP_LEVELS)
def test_no_illegal_move_in_full_games(level: str) -> None:
    hands = 0
    for seed in game_seeds(2026, 12):
        game = play_game(seat_bots(dict.fromkeys(range(4), level), seed), seed=seed)
        assert game.forfeited_by is None, game.forfeited_by
        assert game.outcome is not None
        hands += len(game.history)
    assert hands >= 12


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_search_levels_play_legal_hands(level: str) -> None:
    for seed in range(3):
        bots = {seat: make_bot(level, f"{seed}:{seat}", worlds=3) for seat in (0, 2)}
        bots |= seat_bots({1: "normal", 3: "normal"}, seed)
        game = play_hand(bots, dealer=seed % 4, deal=deal_from_seed(seed), seed=seed)
        assert game.forfeited_by is None, game.forfeited_by
        assert len(game.history) == 1


def test_mixed_tables_finish_cleanly() -> None:
    levels = {0: "normal", 1: "easy", 2: "random", 3: "normal"}
    for seed in game_seeds(7, 10):
        game = play_game(seat_bots(levels, seed), seed=seed)
        assert game.forfeited_by is None and game.outcome is not None
