"""Training the baseline: PPO with action masking, by self-play on ``SpadesVectorEnv``.

Needs PyTorch (``pip install -e '.[train]'``). One network plays all four seats
of every table (hand episodes from 0-0, the default rules). Each decision's
return is its team's **bag-adjusted** hand score (a bag charged its share of the
penalty to come, as the arena's duplicate reports count it) x ``reward_scale``:
the hand is the episode and rewards come only at its end, so with no discount
the return of every decision of a seat is that number, and the advantage is the
return minus the value the network predicted. Illegal actions are never taken:
the policy's scores of masked actions are set to -inf before the softmax.

``tools/train_baseline.py`` runs it and writes the weights, the learning curve
and its picture.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from spades.core import CARDCOUCH

from .baseline import Weights
from .encoding import ACTION_COUNT, OBSERVATION_SIZE
from .vector import SpadesVectorEnv


@dataclass(frozen=True, slots=True)
class TrainConfig:
    seed: int = 0
    updates: int = 100
    tables: int = 256
    steps_per_update: int = 114
    """Vector steps between updates (57 is a hand at every table, restart included)."""
    hidden: int = 128
    learning_rate: float = 3e-4
    epochs: int = 4
    minibatch: int = 4096
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    reward_scale: float = 0.01
    threads: int = 1


@dataclass(frozen=True, slots=True)
class UpdateStats:
    """One update of the learning curve."""

    update: int
    decisions: int
    """Decisions trained on so far."""
    seconds: float
    points: float
    """Mean bag-adjusted hand score of a team in the hands finished this update."""
    policy_loss: float
    value_loss: float
    entropy: float

    def to_dict(self) -> dict[str, float]:
        return {key: float(value) for key, value in asdict(self).items()}


class PolicyValueNet(nn.Module):
    """Two hidden ReLU layers shared by the policy (66 action scores) and the value."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.hidden1 = nn.Linear(OBSERVATION_SIZE, hidden)
        self.hidden2 = nn.Linear(hidden, hidden)
        self.policy = nn.Linear(hidden, ACTION_COUNT)
        self.value = nn.Linear(hidden, 1)

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = torch.relu(self.hidden2(torch.relu(self.hidden1(observations))))
        return self.policy(hidden), self.value(hidden).squeeze(-1)

    def weights(self) -> Weights:
        """The weights for ``spades.rl.baseline`` (numpy, matrices as ``x @ W``)."""
        layers = (self.hidden1, self.hidden2, self.policy, self.value)
        return Weights(
            tuple(layer.weight.detach().numpy().T.copy() for layer in layers),
            tuple(layer.bias.detach().numpy().copy() for layer in layers),
        )


def masked_logits(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    return logits.masked_fill(masks == 0, float("-inf"))


def train(
    config: TrainConfig, on_update: Callable[[UpdateStats], None] | None = None
) -> tuple[PolicyValueNet, list[UpdateStats]]:
    """Train a network from ``config.seed``; same seed, same network (on one thread)."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    net = PolicyValueNet(config.hidden)
    optimiser = torch.optim.Adam(net.parameters(), lr=config.learning_rate)
    tables = SpadesVectorEnv(config.tables, episode="hand", reward_scale=config.reward_scale)
    bag_cost = CARDCOUCH.bag_cost * config.reward_scale
    observations, infos = tables.reset(seed=config.seed)
    restarting = np.zeros(config.tables, dtype=bool)
    # The decisions of the episode in progress at each table: their rows in the batch.
    pending: list[list[tuple[int, int]]] = [[] for _ in range(config.tables)]
    history: list[UpdateStats] = []
    decisions = 0
    start = time.perf_counter()
    for update in range(1, config.updates + 1):
        batch: dict[str, list[Any]] = {"obs": [], "mask": [], "action": [], "logp": []}
        returns: list[float] = []
        hand_points: list[float] = []
        for _ in range(config.steps_per_update):
            acting = np.flatnonzero(~restarting)
            obs = torch.from_numpy(observations["observation"][acting])
            mask = torch.from_numpy(observations["action_mask"][acting])
            actions = np.zeros(config.tables, dtype=np.int64)
            if not acting.size:  # every table is starting its next hand
                observations, _, _, _, infos = tables.step(actions)
                restarting[:] = False
                continue
            with torch.no_grad():
                logits, _ = net(obs)
                log_probs = torch.log_softmax(masked_logits(logits, mask), dim=-1)
                chosen = torch.multinomial(log_probs.exp(), 1).squeeze(-1)
                logp = log_probs.gather(1, chosen[:, None]).squeeze(-1)
            actions[acting] = chosen.numpy()
            first = len(returns)
            seats = infos["seat"][acting]
            for offset, (table, seat) in enumerate(
                zip(acting.tolist(), seats.tolist(), strict=True)
            ):
                pending[table].append((first + offset, seat))
            returns.extend([0.0] * acting.size)
            batch["obs"].append(obs)
            batch["mask"].append(mask)
            batch["action"].append(chosen)
            batch["logp"].append(logp)
            observations, rewards, terminations, truncations, infos = tables.step(actions)
            ended = terminations | truncations
            if ended.any():
                bags = tables.bags
                for table in np.flatnonzero(ended).tolist():
                    adjusted = [
                        float(rewards[table, seat]) - bag_cost * int(bags[table, seat & 1])
                        for seat in range(4)
                    ]
                    for row, seat in pending[table]:
                        returns[row] = adjusted[seat]
                    pending[table] = []
                    hand_points += [
                        adjusted[0] / config.reward_scale,
                        adjusted[1] / config.reward_scale,
                    ]
            restarting = ended
        # Decisions of hands still going at the end of the rollout wait for the next one:
        # keep only the rows whose hand has ended.
        waiting = {row for rows in pending for row, _ in rows}
        keep = np.array([row not in waiting for row in range(len(returns))])
        for rows in pending:
            rows.clear()
        obs_all = torch.cat(batch["obs"])[keep]
        mask_all = torch.cat(batch["mask"])[keep]
        action_all = torch.cat(batch["action"])[keep]
        logp_all = torch.cat(batch["logp"])[keep]
        return_all = torch.tensor(np.asarray(returns, dtype=np.float32)[keep])
        stats = _update(
            net, optimiser, config, rng, obs_all, mask_all, action_all, logp_all, return_all
        )
        decisions += int(keep.sum())
        record = UpdateStats(
            update=update,
            decisions=decisions,
            seconds=time.perf_counter() - start,
            points=float(np.mean(hand_points)) if hand_points else float("nan"),
            policy_loss=stats[0],
            value_loss=stats[1],
            entropy=stats[2],
        )
        history.append(record)
        if on_update is not None:
            on_update(record)
    return net, history


def _update(
    net: PolicyValueNet,
    optimiser: torch.optim.Optimizer,
    config: TrainConfig,
    rng: np.random.Generator,
    obs: torch.Tensor,
    masks: torch.Tensor,
    actions: torch.Tensor,
    old_logp: torch.Tensor,
    returns: torch.Tensor,
) -> tuple[float, float, float]:
    """PPO's clipped objective over ``epochs`` passes; the last pass's mean losses."""
    with torch.no_grad():
        _, values = net(obs)
    advantages = returns - values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    count = obs.shape[0]
    totals = (0.0, 0.0, 0.0)
    for _ in range(config.epochs):
        order = torch.from_numpy(rng.permutation(count))
        totals = (0.0, 0.0, 0.0)
        batches = 0
        for begin in range(0, count, config.minibatch):
            rows = order[begin : begin + config.minibatch]
            logits, value = net(obs[rows])
            log_probs = torch.log_softmax(masked_logits(logits, masks[rows]), dim=-1)
            logp = log_probs.gather(1, actions[rows][:, None]).squeeze(-1)
            ratio = torch.exp(logp - old_logp[rows])
            advantage = advantages[rows]
            clipped = torch.clamp(ratio, 1 - config.clip, 1 + config.clip) * advantage
            policy_loss = -torch.min(ratio * advantage, clipped).mean()
            value_loss = ((value - returns[rows]) ** 2).mean()
            # A masked action has probability 0: its -inf log times 0 would be nan.
            probs = log_probs.exp()
            entropy = -(probs * log_probs.clamp_min(-1e9)).sum(-1).mean()
            loss = policy_loss + config.value_coef * value_loss - config.entropy_coef * entropy
            optimiser.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            optimiser.step()
            totals = (
                totals[0] + policy_loss.item(),
                totals[1] + value_loss.item(),
                totals[2] + entropy.item(),
            )
            batches += 1
        totals = (totals[0] / batches, totals[1] / batches, totals[2] / batches)
    return totals
