"""A few seconds of PPO: the losses move, the seed repeats, the agent plays legal hands.

Needs PyTorch (the train extra; the dev extra has it, so CI runs these)."""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from spades.arena.referee import play_hand
from spades.core import SEATS
from spades.rl.baseline import baseline_bot, load_weights, save_weights
from spades.rl.deal_sets import load_deal_set


@pytest.fixture(scope="module")
def ppo() -> ModuleType:
    """``spades.rl.ppo``, imported by the worker that runs these tests only:
    importing PyTorch is 1-2 s of CPU, which every test process would pay at
    collection if this module imported it at its top."""
    pytest.importorskip("torch", reason="PyTorch (the train extra) is not installed")
    from spades.rl import ppo

    return ppo


def test_a_few_updates_move_the_losses_and_the_agent_plays_legal_hands(
    ppo: ModuleType, tmp_path: Path
) -> None:
    small = ppo.TrainConfig(
        seed=1, updates=4, tables=16, steps_per_update=57, minibatch=256, hidden=32
    )
    net, history = ppo.train(small)
    assert [stats.update for stats in history] == [1, 2, 3, 4]
    assert all(math.isfinite(stats.policy_loss) for stats in history)
    assert history[-1].value_loss < history[0].value_loss  # the value head learns the returns
    assert history[-1].decisions == 4 * 16 * 56  # every decision of the hands played
    path = tmp_path / "net.npz"
    save_weights(net.weights(), path)
    bots = {seat: baseline_bot(seat, path, sample=True) for seat in SEATS}
    for deal in load_deal_set("train-v1").deals[:4]:
        game = play_hand(bots, dealer=deal.dealer, deal=deal.hands, seed=deal.index)
        assert game.forfeited_by is None and len(game.history) == 1


def test_the_same_seed_trains_the_same_network(ppo: ModuleType, tmp_path: Path) -> None:
    config = ppo.TrainConfig(
        seed=5, updates=1, tables=8, steps_per_update=57, minibatch=128, hidden=16
    )
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    save_weights(ppo.train(config)[0].weights(), first)
    save_weights(ppo.train(config)[0].weights(), second)
    for a, b in zip(load_weights(first).matrices, load_weights(second).matrices, strict=True):
        assert np.array_equal(a, b)
