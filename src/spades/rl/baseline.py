"""The baseline agent: a small network's policy, played with numpy alone.

``spades.rl.ppo`` trains the network (PyTorch, the ``train`` extra) and saves
its weights as an ``.npz`` file; this module plays them without PyTorch: the
observation through two ReLU layers to 66 action scores, the illegal ones
masked out, the best one played (or one sampled, with ``sample=True``).
``baseline-v1.npz`` beside this file is the network docs/rl.md reports on.

Play it through the bot protocol (``spades arena cmd:...`` runs it):

    python -m spades.rl.baseline [CHECKPOINT]

>>> import numpy as np
>>> from spades.core import Game
>>> bot = baseline_bot(seed=1)
>>> game = Game(seed=3)
>>> bot.bid(game.view(game.to_act)) in range(14)
True
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from .encoding import ACTION_COUNT, OBSERVATION_SIZE, FloatArray, Int8Array
from .evaluate import PolicyBot

DEFAULT_CHECKPOINT: Final = "baseline-v1.npz"
LAYER_NAMES: Final = ("hidden1", "hidden2", "policy", "value")


@dataclass(frozen=True, slots=True)
class Weights:
    """The network: two hidden ReLU layers, then the policy's action scores
    (``ACTION_COUNT``) and the value (one number) from the second."""

    matrices: tuple[npt.NDArray[np.float32], ...]
    biases: tuple[npt.NDArray[np.float32], ...]

    def scores(self, observations: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Action scores (logits) and values for a batch (or one) of observations."""
        hidden = observations
        for matrix, bias in zip(self.matrices[:2], self.biases[:2], strict=True):
            hidden = np.maximum(hidden @ matrix + bias, 0.0)
        logits = hidden @ self.matrices[2] + self.biases[2]
        value = hidden @ self.matrices[3] + self.biases[3]
        return logits, value[..., 0]


def save_weights(weights: Weights, path: Path) -> None:
    arrays: dict[str, npt.NDArray[np.float16]] = {}
    for name, matrix, bias in zip(LAYER_NAMES, weights.matrices, weights.biases, strict=True):
        arrays[f"{name}.weight"] = matrix.astype(np.float16)
        arrays[f"{name}.bias"] = bias.astype(np.float16)
    with path.open("wb") as file:
        np.savez_compressed(file, allow_pickle=False, **arrays)


def load_weights(path: Path | str | None = None) -> Weights:
    """The weights in ``path`` (the shipped baseline by default)."""
    if path is None:
        path = Path(str(resources.files("spades.rl").joinpath(DEFAULT_CHECKPOINT)))
    with np.load(path) as data:
        matrices = tuple(data[f"{name}.weight"].astype(np.float32) for name in LAYER_NAMES)
        biases = tuple(data[f"{name}.bias"].astype(np.float32) for name in LAYER_NAMES)
    if matrices[0].shape[0] != OBSERVATION_SIZE or matrices[2].shape[1] != ACTION_COUNT:
        raise ValueError(
            f"{path} is not a baseline network: it takes {matrices[0].shape[0]} numbers "
            f"and scores {matrices[2].shape[1]} actions ({OBSERVATION_SIZE} and {ACTION_COUNT} expected)"
        )
    return Weights(matrices, biases)


def masked_choice(
    logits: FloatArray, mask: Int8Array, rng: np.random.Generator | None = None
) -> int:
    """The legal action with the highest score, or (given ``rng``) one drawn
    from the softmax over the legal actions."""
    scores = np.where(mask.astype(bool), logits.astype(np.float64), -np.inf)
    if rng is None:
        return int(scores.argmax())
    weights = np.exp(scores - scores.max())
    return int(rng.choice(scores.size, p=weights / weights.sum()))


def baseline_bot(
    seed: int | str | None = None, path: Path | str | None = None, *, sample: bool = False
) -> PolicyBot:
    """The baseline network as a ``Bot``: greedy, or sampling its policy."""
    weights = load_weights(path)
    rng = np.random.default_rng(zlib.crc32(str(seed).encode())) if sample else None

    def policy(observation: FloatArray, mask: Int8Array) -> int:
        logits, _ = weights.scores(observation)
        return masked_choice(logits, mask, rng)

    return PolicyBot(policy, seed, name="baseline")


def main(argv: list[str] | None = None) -> None:
    """Serve the baseline over the bot protocol on stdin and stdout."""
    from spades.protocol.serve import serve

    args = sys.argv[1:] if argv is None else argv
    serve(baseline_bot(path=args[0] if args else None), sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
