"""Train the baseline network (spades.rl.ppo) and write its weights and learning curve.

    .venv/bin/python tools/train_baseline.py [--seed 0] [--updates 100] [--out DIR]

Needs the train extra (pip install -e '.[train]'; matplotlib too for the
picture). Writes DIR/baseline.npz (the weights spades.rl.baseline plays),
DIR/curve.csv (one row an update) and DIR/curve.png. One thread, so the same
seed gives the same network on the same machine and library versions.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from spades.rl.baseline import save_weights
from spades.rl.ppo import TrainConfig, UpdateStats, train


def plot(history: list[UpdateStats], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (points, entropy) = plt.subplots(1, 2, figsize=(9, 3.4))
    decisions = [stats.decisions / 1e6 for stats in history]
    points.plot(decisions, [stats.points for stats in history], color="tab:blue")
    points.set_xlabel("decisions trained on (millions)")
    points.set_ylabel("bag-adjusted points a team a hand")
    points.set_title("self-play hand score")
    points.grid(alpha=0.3)
    entropy.plot(decisions, [stats.entropy for stats in history], color="tab:orange")
    entropy.set_xlabel("decisions trained on (millions)")
    entropy.set_ylabel("policy entropy (nats)")
    entropy.set_title("exploration")
    entropy.grid(alpha=0.3)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--updates", type=int, default=100)
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--out", type=Path, default=Path("build/baseline"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    config = TrainConfig(seed=args.seed, updates=args.updates, tables=args.tables)

    def report(stats: UpdateStats) -> None:
        print(
            f"update {stats.update:4}  {stats.decisions:>9,} decisions  {stats.seconds:7.1f} s  "
            f"points {stats.points:7.1f}  policy {stats.policy_loss:+.4f}  "
            f"value {stats.value_loss:.4f}  entropy {stats.entropy:.3f}",
            flush=True,
        )

    net, history = train(config, report)
    save_weights(net.weights(), args.out / "baseline.npz")
    with (args.out / "curve.csv").open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(history[0].to_dict()))
        writer.writeheader()
        writer.writerows(stats.to_dict() for stats in history)
    plot(history, args.out / "curve.png", f"PPO self-play, seed {args.seed}, {args.tables} tables")
    print(f"wrote {args.out}/baseline.npz, curve.csv and curve.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
