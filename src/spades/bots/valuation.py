"""What the end of a hand is worth to a team: its chance of winning the game.

Both the search (valuing each sampled deal's outcome) and the learned bidder
(valuing each possible result of a bid) compare options in the same unit, so a
point of lead, a bag and a set weigh the same in both: little when the game is
young, everything when it is about to end.
"""

from __future__ import annotations

import math
from functools import lru_cache

from spades.core import Rules, game_outcome

GAME_VALUE = 800.0
"""What winning the game is worth, in the unit the search compares options in.
Scaled so that at 0-0 a point of lead is worth about one unit, which keeps
OVERRULE_MARGIN in points."""
HAND_SPREAD = 110.0
"""How far the score difference moves in one hand (its standard deviation):
108 points measured over 1,400 hands of ``normal`` players."""
BAG_RATE = 1.1
"""Bags a team takes in a typical hand (measured in the arena: 1.0 to 1.2)."""
HAND_PACE = 55.0
"""Points the leading team gains in a typical hand (games of ``normal``
players last 9.4 hands)."""


POINT_TIEBREAK = 0.01
"""Units a point of lead adds on top of the win chance. It decides only when
the chance no longer does: a game so lopsided (or so hopeless) that every
outcome rounds to a sure win (or loss) would otherwise leave every bid and
card worth the same, and a side with no floor to stop it could bid at random
for ever. Next to GAME_VALUE's one unit a point at 0-0 it is a hundredth."""


def game_value(totals: tuple[int, int], bags: tuple[int, int], team: int, rules: Rules) -> float:
    """What a score between hands is worth to ``team``, in the unit both the
    learned bidder and the search compare options in: GAME_VALUE times the
    chance of winning from it, and POINT_TIEBREAK a point of lead.

    >>> rules = Rules(floor=None)
    >>> game_value((-3000, -9000), (0, 0), 0, rules) > game_value((-3050, -9000), (0, 0), 0, rules)
    True
    """
    lead = totals[team] - totals[1 - team]
    return GAME_VALUE * win_chance(totals, bags, team, rules) + POINT_TIEBREAK * lead


def win_chance(totals: tuple[int, int], bags: tuple[int, int], team: int, rules: Rules) -> float:
    """The chance that ``team`` wins the game from this score, between hands.

    A finished game is won or lost. Otherwise the lead (each bag counted as the
    share of the penalty it brings closer) is set against how far the score
    difference can still move: HAND_SPREAD a hand, over the hands the leader
    needs to reach the target at HAND_PACE. A lead of 100 is nearly decisive
    one hand from the end and nearly nothing at the start.

    >>> round(win_chance((0, 0), (0, 0), 0, Rules()), 2)
    0.5
    >>> round(win_chance((450, 300), (0, 0), 0, Rules()), 2)
    0.91
    >>> round(win_chance((150, 0), (0, 0), 0, Rules()), 2)
    0.71
    >>> win_chance((520, 300), (0, 0), 1, Rules())
    0.0
    """
    outcome = game_outcome(totals, rules)
    if outcome is not None:
        return 1.0 if outcome.winner == team else 0.0
    hands_left = max(1.0, (rules.target - max(totals)) / HAND_PACE)
    worth = [
        totals[side] - rules.bag_penalty * expected_penalties(bags[side], hands_left, rules)
        for side in (0, 1)
    ]
    lead = worth[team] - worth[1 - team]
    return 0.5 * (1.0 + math.erf(lead / (HAND_SPREAD * math.sqrt(2.0 * hands_left))))


def expected_penalties(bags: int, hands_left: float, rules: Rules) -> float:
    """How many bag penalties a team holding ``bags`` can expect to pay before
    the game ends, ``hands_left`` hands from now, taking BAG_RATE bags a hand
    (a Poisson count).

    A bag costs its share of the penalty (a tenth of it under the seed's
    rules) only on average over a long game: one bag short of the limit with
    a hand to go it costs most of a penalty, and at the start of the count
    with a hand to go it costs next to nothing.

    >>> rules = Rules()
    >>> round(expected_penalties(9, 1.0, rules) - expected_penalties(8, 1.0, rules), 2)
    0.37
    >>> round(expected_penalties(1, 1.0, rules) - expected_penalties(0, 1.0, rules), 3)
    0.0
    >>> round(expected_penalties(1, 20.0, rules) - expected_penalties(0, 20.0, rules), 2)
    0.1
    """
    if rules.bag_limit is None:
        return 0.0
    return _expected_penalties(bags, round(BAG_RATE * hands_left, 1), rules.bag_limit)


@lru_cache(maxsize=4096)
def _expected_penalties(bags: int, mean_bags: float, limit: int) -> float:
    # E[floor((bags + X) / limit)] = sum over k >= 1 of P(X >= k * limit - bags).
    if mean_bags <= 0:
        return float(bags // limit)
    total = 0.0
    below = 0.0  # P(X < n), built up term by term
    term = math.exp(-mean_bags)  # P(X = 0)
    n = 0
    threshold = limit - bags
    while True:
        while n < threshold:
            below += term
            n += 1
            term *= mean_bags / n
        tail = 1.0 - below
        if tail < 1e-9:
            return total
        total += tail
        threshold += limit
