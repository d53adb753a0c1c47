"""The search player's decision rule, its value of a score, and reproducibility."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from spades.arena import seat_bots
from spades.arena.referee import play_hand
from spades.bots import make_bot
from spades.bots.search.player import OVERRULE_MARGIN, Outcomes, win_chance
from spades.core import Rules
from spades.core.hand import deal_from_seed

RULES = Rules()


def outcomes_of(rows: list[tuple[float, float]]) -> Outcomes:
    """Two options, 1 (the knowledge-based default) and 2, over equal-weight deals."""
    outcomes = Outcomes([1, 2])
    for row in rows:
        outcomes.add(1.0, list(row))
    return outcomes


def test_keeps_the_default_on_a_noisy_edge() -> None:
    # Option 2 looks 20 points better on average, but only thanks to one deal.
    rows = [(0.0, 0.0)] * 9 + [(0.0, 200.0)]
    assert outcomes_of(rows).choose(1) == 1


def test_keeps_the_default_on_a_tiny_sure_edge() -> None:
    rows = [(0.0, OVERRULE_MARGIN / 2)] * 30
    assert outcomes_of(rows).choose(1) == 1


def test_overrules_the_default_when_clearly_worse() -> None:
    rows = [(0.0, 30.0 + (i % 3)) for i in range(20)]
    assert outcomes_of(rows).choose(1) == 2


def test_weights_count_deals_that_explain_the_bids_more() -> None:
    outcomes = Outcomes([1, 2])
    for _ in range(10):
        outcomes.add(1.0, [0.0, 40.0])
        outcomes.add(0.001, [0.0, -40.0])
    gain, _error = outcomes.advantage(2, 1)
    assert gain > 39.0


scores = st.integers(min_value=-190, max_value=490)
bag_counts = st.integers(min_value=0, max_value=9)


@given(scores, scores, bag_counts, bag_counts)
def test_win_chances_of_the_two_teams_add_up_to_one(
    ns: int, ew: int, ns_bags: int, ew_bags: int
) -> None:
    totals, bags = (ns, ew), (ns_bags, ew_bags)
    chance = win_chance(totals, bags, 0, RULES)
    assert 0.0 < chance < 1.0
    assert abs(chance + win_chance(totals, bags, 1, RULES) - 1.0) < 1e-9


@given(scores, scores, st.integers(min_value=1, max_value=200), bag_counts)
def test_more_points_or_fewer_bags_never_lower_the_chance(
    ns: int, ew: int, more: int, bags: int
) -> None:
    base = win_chance((ns, ew), (bags, 0), 0, RULES)
    assert win_chance((min(ns + more, 499), ew), (bags, 0), 0, RULES) >= base
    assert win_chance((ns, ew), (0, 0), 0, RULES) >= base


def test_a_lead_matters_more_near_the_end() -> None:
    early = win_chance((100, 0), (0, 0), 0, RULES)
    late = win_chance((480, 380), (0, 0), 0, RULES)
    assert 0.6 < early < late < 1.0


def test_the_game_decided_by_the_hand_is_certain() -> None:
    assert win_chance((500, 490), (0, 0), 0, RULES) == 1.0
    assert win_chance((0, -200), (0, 0), 1, RULES) == 0.0


def test_fixed_worlds_make_the_play_depend_on_the_seed_alone() -> None:
    def hand(seed: int) -> list[object]:
        bots = {seat: make_bot("hard", f"{seed}:{seat}", worlds=4) for seat in (0, 2)}
        bots |= seat_bots({1: "normal", 3: "normal"}, seed)
        game = play_hand(bots, dealer=1, deal=deal_from_seed(seed), seed=seed)
        return [event.to_dict() for event in game.log]

    assert hand(5) == hand(5)
