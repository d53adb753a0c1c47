"""Scoring a hand, every example of the rule page's table and FAQ, and bags."""

import pytest

from spades.core import EW, NIL, NS, Rules, score_hand
from spades.core.scoring import score_team

# Seats are N, E, S, W: North-South is team 0, East-West team 1.


def ns_score(bids: list[int], tricks: list[int], bags: int = 0):  # type: ignore[no-untyped-def]
    return score_team(NS, bids, tricks, bags)


def test_made_bid_scores_ten_per_trick_bid_plus_one_per_overtrick() -> None:
    # Rule page: "Bid 7, take 8: +71 (and 1 bag)".
    result = ns_score([3, 3, 4, 3], [4, 2, 4, 3])
    assert (result.bid, result.tricks, result.delta, result.bags, result.made) == (
        7,
        8,
        71,
        1,
        True,
    )


def test_set_bid_loses_ten_per_trick_bid() -> None:
    # Rule page: "Bid 7, take 6: -70".
    result = ns_score([3, 3, 4, 3], [3, 4, 3, 3])
    assert (result.delta, result.bags, result.made) == (-70, 0, False)


def test_faq_bid_five_take_four_costs_fifty() -> None:
    assert ns_score([2, 4, 3, 4], [2, 5, 2, 4]).delta == -50


def test_made_nil_with_partner_making_bid_and_a_bag() -> None:
    # Rule page: "Nil made (0 tricks): Partner bid 4 and took 5: +100 +41".
    result = ns_score([NIL, 4, 4, 5], [0, 4, 5, 4])
    assert result.delta == 141 and result.bags == 1
    assert [nil.made for nil in result.nils] == [True]


def test_failed_nil_costs_hundred_and_its_tricks_are_bags() -> None:
    # Rule page: "Nil bidder took 2: -100, +2 bags"; the partner's bid is judged alone.
    result = ns_score([NIL, 4, 4, 5], [2, 4, 4, 3])
    assert result.nil_points == -100
    assert result.bid_points == 40 and result.overtricks == 0
    assert result.delta == -60 and result.bags == 2


def test_nil_bidders_tricks_never_help_the_partners_bid() -> None:
    # South bid 4 and took 3; North (Nil) took 1: the 4 is set, the Nil failed.
    result = ns_score([NIL, 4, 4, 5], [1, 5, 3, 4])
    assert result.made is False
    assert result.delta == -100 - 40 and result.bags == 1


def test_made_nil_with_partner_set() -> None:
    result = ns_score([NIL, 4, 4, 5], [0, 6, 3, 4])
    assert result.delta == 100 - 40 and result.bags == 0


def test_both_partners_nil_are_scored_alone() -> None:
    made_and_failed = ns_score([NIL, 4, NIL, 5], [0, 8, 3, 2])
    assert made_and_failed.bid is None and made_and_failed.made is None
    assert made_and_failed.delta == 100 - 100 + 0 and made_and_failed.bags == 3
    both_made = ns_score([NIL, 6, NIL, 5], [0, 7, 0, 6])
    assert both_made.delta == 200 and both_made.bags == 0


def test_bags_going_from_eight_to_eleven_cost_hundred_and_leave_one() -> None:
    # Rule page: "Bags go from 8 to 11: -100, 1 bag remains". Bid 4, take 7: +43.
    result = ns_score([2, 3, 2, 3], [3, 3, 4, 3], bags=8)
    assert result.bags_taken == 3 and result.bag_penalties == 1
    assert result.delta == 43 - 100 and result.bags == 1


def test_bags_reaching_exactly_ten_are_penalised() -> None:
    result = ns_score([2, 3, 2, 3], [3, 3, 2, 5], bags=9)
    assert result.bags_taken == 1 and result.delta == 41 - 100 and result.bags == 0


def test_bags_crossing_twenty_at_once_cost_two_penalties() -> None:
    # A failed Nil can bring many bags: from 9, a Nil taking 6 and 6 overtricks make 21.
    result = ns_score([NIL, 1, 1, 1], [6, 3, 7, 3], bags=9)
    assert result.bags_taken == 12 and result.bag_penalties == 2
    assert result.delta == -100 + 10 + 6 - 200 and result.bags == 1


def test_both_teams_are_scored_independently() -> None:
    ns, ew = score_hand([4, 3, 3, 5], [5, 3, 3, 2], bags_before=(0, 7))
    assert (ns.delta, ns.bags) == (71, 1)
    assert (ew.delta, ew.bags, ew.team) == (-80, 7, EW)


def test_rules_values_change_the_numbers() -> None:
    rules = Rules(nil_bonus=50, bag_limit=5, bag_penalty=50)
    result = score_team(NS, [NIL, 3, 3, 3], [0, 3, 6, 4], bags_before=3, rules=rules)
    assert result.delta == 50 + 33 - 50 and result.bags == 1


def test_a_hand_must_have_thirteen_tricks() -> None:
    with pytest.raises(ValueError, match="13 tricks"):
        score_hand([1, 1, 1, 1], [1, 1, 1, 1])
