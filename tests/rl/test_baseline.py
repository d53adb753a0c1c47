"""The shipped baseline network plays legal games with numpy alone, in process
and through the bot protocol."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from spades.arena.players import make_player, parse_player
from spades.arena.referee import play_game, play_hand
from spades.bots import make_bot
from spades.core import SEATS
from spades.rl.baseline import baseline_bot, load_weights, masked_choice
from spades.rl.deal_sets import load_deal_set


def test_the_baseline_plays_whole_legal_games_at_every_seat() -> None:
    for seed in range(2):
        game = play_game({seat: baseline_bot(seat) for seat in SEATS}, seed=seed)
        assert game.outcome is not None and game.forfeited_by is None


def test_the_baseline_plays_through_the_protocol() -> None:
    spec = parse_player(f"cmd:{sys.executable} -m spades.rl.baseline")
    deal = load_deal_set("test-v1").deals[0]
    bots = {seat: make_bot("random", seed=seat) for seat in SEATS}
    bots[0] = make_player(spec, seed=1)
    try:
        game = play_hand(bots, dealer=deal.dealer, deal=deal.hands, seed=1)
    finally:
        bots[0].close()
    assert game.forfeited_by is None and len(game.history) == 1


def test_a_masked_choice_never_takes_a_masked_action() -> None:
    logits = np.arange(66, dtype=np.float32)
    mask = np.zeros(66, dtype=np.int8)
    mask[[3, 7]] = 1
    assert masked_choice(logits, mask) == 7
    rng = np.random.default_rng(0)
    assert {masked_choice(logits, mask, rng) for _ in range(50)} <= {3, 7}


def test_a_file_that_is_not_a_baseline_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "other.npz"
    weights = load_weights()
    arrays = {}
    for name, matrix, bias in zip(
        ("hidden1", "hidden2", "policy", "value"), weights.matrices, weights.biases, strict=True
    ):
        arrays[f"{name}.weight"] = matrix[:10] if name == "hidden1" else matrix
        arrays[f"{name}.bias"] = bias
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="not a baseline network"):
        load_weights(path)
