"""Where the knowledge-based players give tricks away, trick by trick. Run by hand:

    .venv/bin/python benchmarks/tricks_lost.py [--games 10] [--level normal]

Plays seeded games with ``--level`` at all four seats and reviews every hand
double-dummy (``spades.analysis.analyze_hand``). For each trick number it
prints how many plays were judged, the tricks those plays gave away (all four
seats together, deliberate ducks for bags included) per hand, and how many
plays were mistakes (a trick, a contract or a Nil lost). The search players
play their sampled deals out with ``normal``, so this says how much an exact
endgame inside the search could still gain, and in which tricks.
"""

from __future__ import annotations

import argparse
from collections import Counter

from spades.analysis import analyze_hand
from spades.arena import play_game, seat_bots
from spades.bots import BOT_LEVELS
from spades.core import SEATS

TRICKS = 13


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=10, help="seeded games to review")
    parser.add_argument("--level", choices=list(BOT_LEVELS), default="normal")
    arguments = parser.parse_args()

    judged: Counter[int] = Counter()
    lost: Counter[int] = Counter()
    mistakes: Counter[int] = Counter()
    hands = 0
    for seed in range(arguments.games):
        game = play_game(seat_bots(dict.fromkeys(SEATS, arguments.level), seed), seed=seed)
        for number, scored in enumerate(game.history, start=1):
            hands += 1
            for play in analyze_hand(scored.state, number=number).plays:
                if play.judged:
                    judged[play.trick] += 1
                    lost[play.trick] += play.tricks_lost
                    mistakes[play.trick] += play.is_mistake

    print(f"{arguments.level} at all seats, {arguments.games} games, {hands} hands")
    print(f"{'trick':>5} {'plays judged':>12} {'tricks lost a hand':>18} {'mistakes':>8}")
    for trick in range(1, TRICKS + 1):
        print(
            f"{trick:>5} {judged[trick]:>12} {lost[trick] / max(1, hands):>18.3f} "
            f"{mistakes[trick]:>8}"
        )


if __name__ == "__main__":
    main()
