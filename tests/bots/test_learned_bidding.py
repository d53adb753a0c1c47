"""The learned bidder: its model, the value it puts on each bid, and the
fitting script that makes the model (run for real on a few hundred hands)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path

from spades.bots.knowledge import bidding_model as model
from spades.bots.knowledge.features import (
    NIL_FEATURE_NAMES,
    TRICK_FEATURE_NAMES,
    BiddingContext,
)
from spades.bots.knowledge.learned_bidding import (
    bid_values,
    choose_learned_bid,
    expected_tricks,
    nil_chance,
)
from spades.core import NIL, WEST, HandState, PlayerView
from spades.core.cards import mask_of, parse_cards
from spades.core.hand import deal

ROOT = Path(__file__).resolve().parents[2]


def hand(text: str) -> int:
    cards = parse_cards(text)
    assert len(cards) == 13
    return mask_of(cards)


def first_bidder_view(
    cards: list[int], *, totals: tuple[int, int] = (0, 0), bags: tuple[int, int] = (0, 0)
) -> PlayerView:
    """North bids first (West deals), holding ``cards[0]``."""
    state = HandState.from_deal(WEST, cards)
    return PlayerView.of(state, state.turn, totals=totals, bags=bags)


def random_deals(count: int, seed: int = 3) -> list[list[int]]:
    rng = random.Random(seed)
    return [list(deal(rng)) for _ in range(count)]


def random_views(count: int, seed: int = 3) -> list[PlayerView]:
    return [first_bidder_view(cards) for cards in random_deals(count, seed)]


def test_the_committed_model_matches_the_features() -> None:
    assert model.TRICK_FEATURES == TRICK_FEATURE_NAMES
    assert model.NIL_FEATURES == NIL_FEATURE_NAMES
    assert len(model.TRICK_WEIGHTS) == len(TRICK_FEATURE_NAMES)
    assert len(model.NIL_WEIGHTS) == len(NIL_FEATURE_NAMES)


def test_more_high_cards_more_tricks_and_a_worse_nil() -> None:
    weak = hand("2S 3S 2H 4H 6H 8H 3D 5D 7D 2C 4C 6C 9C")
    stronger = hand("AS 3S 2H 4H 6H 8H 3D 5D 7D 2C 4C 6C AC")
    context = BiddingContext()
    (weak_tricks, weak_spread), (strong_tricks, _) = (
        expected_tricks(h, context) for h in (weak, stronger)
    )
    assert strong_tricks > weak_tricks + 1.5
    assert weak_spread > 0.3
    assert nil_chance(weak, context) > 0.6 > nil_chance(stronger, context)


def test_the_bid_chosen_is_the_one_valued_most() -> None:
    for view in random_views(40):
        values = bid_values(view)
        chosen = choose_learned_bid(view)
        assert chosen in view.legal_bids()
        assert values[chosen] == max(values.values())


def test_an_uncertain_count_is_bid_below_its_mean() -> None:
    # Sets cost the whole bid and overtricks are bags: a hand is bid a little
    # under what it is expected to take, on average.
    gaps = []
    for view in random_views(200):
        bid = choose_learned_bid(view)
        if bid != NIL:
            gaps.append(expected_tricks(view.hand, BiddingContext.of(view))[0] - bid)
    assert 0.2 < sum(gaps) / len(gaps) < 1.5


def test_a_partner_who_bid_big_means_fewer_needed_from_this_hand() -> None:
    rng = random.Random(8)
    higher = 0
    for _ in range(60):
        cards = list(deal(rng))
        state = HandState.from_deal(WEST, cards)
        state.bid(state.turn, 2)  # North
        state.bid(state.turn, 3)  # East
        low = choose_learned_bid(PlayerView.of(state, state.turn))  # South, partner bid 2
        state = HandState.from_deal(WEST, cards)
        state.bid(state.turn, 6)
        state.bid(state.turn, 3)
        high = choose_learned_bid(PlayerView.of(state, state.turn))  # partner bid 6
        if NIL not in (low, high):
            assert high <= low + 1
            higher += high > low
    assert higher <= 3


def test_beside_a_partners_nil_the_bid_leaves_room_for_covering_it() -> None:
    # The learned count of a seat whose partner bid Nil includes tricks our own
    # players give away when they attack a Nil; the bid does not count on them.
    from spades.bots.knowledge.features import trick_features
    from spades.bots.knowledge.learned_bidding import dot

    rng = random.Random(11)
    beside_nil, beside_number = [], []
    for _ in range(150):
        cards = list(deal(rng))
        for partner_bid, gaps in ((NIL, beside_nil), (3, beside_number)):
            state = HandState.from_deal(WEST, cards)
            state.bid(state.turn, partner_bid)  # North
            state.bid(state.turn, 3)  # East
            view = PlayerView.of(state, state.turn)  # South
            bid = choose_learned_bid(view)
            if bid != NIL:
                learned = dot(
                    model.TRICK_WEIGHTS, trick_features(view.hand, BiddingContext.of(view))
                )
                gaps.append(learned - bid)
    shading = sum(beside_nil) / len(beside_nil) - sum(beside_number) / len(beside_number)
    assert shading > 0.25  # about COVER_CAUTION (0.5); none without it


def bids_at(
    deals: list[list[int]], *, totals: tuple[int, int] = (0, 0), bags: tuple[int, int] = (0, 0)
) -> list[int]:
    return [
        choose_learned_bid(first_bidder_view(cards, totals=totals, bags=bags)) for cards in deals
    ]


def numeric_pairs(first: list[int], second: list[int]) -> list[tuple[int, int]]:
    return [(a, b) for a, b in zip(first, second, strict=True) if NIL not in (a, b)]


def test_eight_bags_late_in_the_game_bid_up_to_what_the_hand_takes() -> None:
    # A hand or two from the end, two more bags are a penalty almost surely,
    # while with no bags they cost nothing before the game ends. (Early on
    # the penalty comes either way: a bag costs about a tenth of it at any count.)
    deals = random_deals(80, seed=11)
    late = (400, 380)
    pairs = numeric_pairs(bids_at(deals, totals=late), bids_at(deals, totals=late, bags=(8, 0)))
    assert all(near_limit >= fresh for fresh, near_limit in pairs)
    assert sum(near_limit > fresh for fresh, near_limit in pairs) >= 5


def test_close_to_500_a_small_sure_contract_wins_the_game() -> None:
    # At 470 any made contract of 3 or more wins: no reason to risk a set.
    deals = random_deals(80, seed=12)
    pairs = numeric_pairs(bids_at(deals), bids_at(deals, totals=(470, 300)))
    assert all(near_target <= fresh for fresh, near_target in pairs)
    assert sum(near_target < fresh for fresh, near_target in pairs) >= 5


def test_close_to_minus_200_a_set_that_loses_the_game_is_avoided() -> None:
    deals = random_deals(80, seed=13)
    pairs = numeric_pairs(bids_at(deals), bids_at(deals, totals=(-160, 0)))
    assert all(near_floor <= fresh for fresh, near_floor in pairs)


def test_a_double_nil_is_rare() -> None:
    # With the partner in Nil no one covers either Nil: only a hopeless hand for
    # tricks joins in. Over random hands after a partner's Nil, few do.
    nils = 0
    for cards in random_deals(100, seed=14):
        state = HandState.from_deal(WEST, cards)
        state.bid(state.turn, NIL)  # North
        state.bid(state.turn, 4)  # East
        nils += choose_learned_bid(PlayerView.of(state, state.turn)) == NIL
    assert nils <= 5


def test_the_fitting_script_writes_a_model_the_bidder_can_use(tmp_path: Path) -> None:
    out = tmp_path / "model.py"
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fit_bidding.py"), "--hands", "300",
         "--iterations", "2", "--workers", "1", "--seed", "4", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # The first round is bid by the rules of thumb, the second by the first's model.
    assert "round 1, bid by rules of thumb: 1,200 seat-hands simulated" in result.stdout
    assert "round 2, bid by the previous round's model: 1,200 seat-hands" in result.stdout
    spec = importlib.util.spec_from_file_location("fitted", out)
    assert spec is not None and spec.loader is not None
    fitted = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fitted)
    for name in dir(model):
        if name.isupper():
            assert hasattr(fitted, name), name
    assert len(fitted.TRICK_WEIGHTS) == len(TRICK_FEATURE_NAMES)
    assert "tools/fit_bidding.py --hands 300 --seed 4 --iterations 2" in out.read_text()


def test_a_lopsided_game_without_a_floor_still_ends() -> None:
    # Far ahead of random bots with no floor, every outcome is a sure win by
    # the win chance alone; a point of lead still counts, so normal keeps
    # bidding what its hands take and reaches the target.
    from spades.arena.referee import play_game
    from spades.bots import make_bot
    from spades.core.rules import parse_rules

    bots = {0: make_bot("random", seed=1), 2: make_bot("random", seed=2)}
    bots |= {1: make_bot("normal", seed=3), 3: make_bot("normal", seed=4)}
    game = play_game(bots, seed=3, rules=parse_rules("cardcouch,floor=none"), max_hands=40)
    assert game.is_over
    assert game.outcome is not None and game.outcome.winner == 1  # East-West
