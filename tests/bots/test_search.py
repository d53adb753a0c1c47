"""The search player's decision rule, its value of a score, and reproducibility."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spades.arena import seat_bots
from spades.arena.referee import play_hand
from spades.bots import SearchBot, make_bot
from spades.bots.search import player
from spades.bots.search.player import OVERRULE_MARGIN, Budget, Outcomes
from spades.bots.valuation import win_chance
from spades.core import HandState, PlayerView, Rules
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


def two_pass_advantage(outcomes: Outcomes, i: int, j: int) -> tuple[float, float]:
    """The advantage of option ``i`` over ``j`` worked out from scratch, the
    textbook way: the reference the search's running sums must agree with."""
    pairs = [
        (weight, row[i] - row[j])
        for weight, row in zip(outcomes.weights, outcomes.values, strict=True)
        if weight > 0 and not math.isnan(row[i]) and not math.isnan(row[j])
    ]
    total = math.fsum(weight for weight, _ in pairs)
    if total <= 0:
        return 0.0, math.inf
    shares = [(weight / total, diff) for weight, diff in pairs]
    mean = math.fsum(share * diff for share, diff in shares)
    spread = math.fsum(share * (diff - mean) ** 2 for share, diff in shares)
    effective = 1.0 / math.fsum(share**2 for share, _ in shares)
    if effective <= 1.0:
        return mean, math.inf
    return mean, math.sqrt(spread / (effective - 1.0))


point_values = st.floats(min_value=-400, max_value=400, allow_nan=False) | st.just(math.nan)
# Weights within a millionth of each other, or none: the standard error of deals
# one of which outweighs the rest by far more is at the edge of infinite.
deals = st.tuples(
    st.just(0.0) | st.floats(min_value=1e-6, max_value=1),
    st.lists(point_values, min_size=3, max_size=3),
)


@given(st.lists(st.lists(deals, max_size=12), min_size=1, max_size=6))
def test_running_advantage_agrees_with_the_whole_sum(batches: list[list[tuple]]) -> None:
    # Asked between batches of deals, as the search asks after each deal of its
    # first look: the running sums fold in only the new deals each time.
    outcomes = Outcomes([7, 8, 9])
    for batch in batches:
        for weight, row in batch:
            outcomes.add(weight, list(row))
        for i, j in ((0, 1), (2, 0)):
            gain, error = outcomes.advantage(outcomes.options[i], outcomes.options[j])
            want_gain, want_error = two_pass_advantage(outcomes, i, j)
            assert gain == pytest.approx(want_gain, rel=1e-9, abs=1e-9)
            if math.isinf(want_error):
                assert math.isinf(error)
            else:
                assert error == pytest.approx(want_error, rel=1e-6, abs=1e-7)


def test_running_advantage_of_deals_of_tiny_likelihood() -> None:
    # Deal weights are likelihoods, tiny when the bids say a deal is unlikely:
    # their squares would underflow to nothing.
    tiny = Outcomes([1, 2])
    for scale, gain in ((1e-200, 10.0), (2e-200, 30.0), (1e-300, 0.0)):
        tiny.add(scale, [gain, 0.0])
    equal = Outcomes([1, 2])
    for scale, gain in ((1.0, 10.0), (2.0, 30.0), (1e-100, 0.0)):
        equal.add(scale, [gain, 0.0])
    assert tiny.advantage(1, 2) == pytest.approx(equal.advantage(1, 2))
    assert math.isfinite(tiny.advantage(1, 2)[1])


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


def first_trick_view(bids: tuple[int, int, int, int], seed: int = 11) -> PlayerView:
    """The view of the seat to lead the first trick, after ``bids`` (by seat)."""
    state = HandState(0, deal_from_seed(seed))
    while state.to_act is not None and len(state.bid_order) < 4:
        state.apply_bid(bids[state.to_act])
    return PlayerView.of(state, state.turn)


def searches_made(bot: SearchBot, view: PlayerView, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many searches ``bot`` starts to choose its card on ``view``."""
    calls: list[str] = []
    search = bot.search

    def counted(*args: object, **kwargs: object) -> Outcomes:
        calls.append("search")
        return search(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot, "search", counted)
    assert bot.play(view) in view.legal_cards()
    return len(calls)


def test_a_frugal_search_skips_the_opening_tricks_of_a_hand_without_nil(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Frugal (a busy server's), the search leaves the first
    FRUGAL_OPENING_TRICKS tricks of a plain hand to the rule of thumb; it
    still searches them with a Nil at the table, and always when idle."""
    plain, with_nil = first_trick_view((3, 3, 3, 3)), first_trick_view((3, 0, 3, 3))
    for view in (plain, with_nil):
        assert len(player.distinct_cards(view.legal_mask(), view)) > 1  # a real choice
    frugal = make_bot("expert", seed=1, worlds=8)
    assert isinstance(frugal, SearchBot)
    frugal.be_frugal()
    assert searches_made(frugal, plain, monkeypatch) == 0
    assert frugal.play(plain) == frugal.prior.play(plain)
    assert searches_made(frugal, with_nil, monkeypatch) == 1
    idle = make_bot("expert", seed=1, worlds=8)
    assert isinstance(idle, SearchBot)
    assert searches_made(idle, plain, monkeypatch) == 1


# ------------------------------------------------------------ helper processes


def opening_view(seed: int) -> PlayerView:
    state = HandState(0, deal_from_seed(seed))
    return PlayerView.of(state, state.turn)


def test_a_decision_spread_over_two_processes_searches_every_deal() -> None:
    bot = make_bot("hard", seed=3, worlds=6, processes=2)
    assert isinstance(bot, SearchBot)
    view = opening_view(3)
    outcomes = bot.search(view, [1, 2, 3], "bid", Budget(math.inf, 10, 10))
    assert len(outcomes.weights) == 10 and all(len(row) == 3 for row in outcomes.values)
    again = make_bot("hard", seed=3, worlds=6, processes=2)
    assert again.bid(view) == make_bot("hard", seed=3, worlds=6, processes=2).bid(view)


def test_a_dead_helper_is_replaced_by_searching_here(monkeypatch: pytest.MonkeyPatch) -> None:
    class DeadPool:
        def submit(self, *args: object) -> Future[object]:
            future: Future[object] = Future()
            future.set_exception(BrokenProcessPool("a helper died"))
            return future

    monkeypatch.setattr(player, "helper_pool", lambda helpers: DeadPool())
    bot = SearchBot(seed=4, worlds=5, processes=2)
    outcomes = bot.search(opening_view(4), [1, 2], "bid", Budget(math.inf, 8, 8))
    assert len(outcomes.weights) == 8


def test_helpers_leave_when_their_process_is_killed(tmp_path: Path) -> None:
    # A server stopped with SIGTERM never shuts its pool down: the helpers must
    # notice on their own, or every restart leaves processes behind.
    script = tmp_path / "parent.py"
    script.write_text(
        "import os, time\n"
        "from spades.bots.search.helpers import helper_pool\n"
        "if __name__ == '__main__':\n"
        "    print(helper_pool(1).submit(os.getpid).result(), flush=True)\n"
        "    time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    helper = int(parent.stdout.readline())
    parent.terminate()
    parent.wait(timeout=10)
    # The helper looks for its parent every PARENT_CHECK_SECONDS; the deadline is only
    # for a helper that never leaves, and generous for a machine busy with other work.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and helper_is_running(helper):
        time.sleep(0.1)
    assert not helper_is_running(helper)


def helper_is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A process that exited but was not yet reaped (by init) is a zombie: gone.
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split()[2] == "Z")
