"""Decisions as Ray tasks on a Ray started here: what `spades serve --bots ray`
does, and what a cluster of bot machines does for `--bots ray://HOST:PORT`."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from spades.core import Game, Phase, PlayerView
from spades.session import make_decider
from spades.session.ray_decider import RayDecider


def first_card_view() -> PlayerView:
    game = Game(seed=11)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)  # type: ignore[arg-type]
    assert game.to_act is not None
    return game.view(game.to_act)


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def decider() -> Iterator[RayDecider]:
    """One local Ray of two CPUs for the module: starting Ray costs seconds of CPU,
    and each test reads the same cluster as `spades serve --bots ray` would."""
    # Imported here, by the worker that runs these tests only, not at collection
    # (a quarter of a second of CPU in every test process).
    ray = pytest.importorskip("ray", reason="the cluster extra (Ray) is not installed")
    made = make_decider("ray")
    assert isinstance(made, RayDecider)
    assert made.effort_for(8).frugal is False  # nothing known before connecting
    made.cpus = 2
    try:
        made.start()
        yield made
    finally:
        made.close()
    assert not ray.is_initialized(), "closing the decider shuts the Ray it started"


def test_a_search_on_a_local_ray_answers_and_a_late_one_falls_back(decider: RayDecider) -> None:
    view = first_card_view()
    answer = decider("expert", view, "on-ray")
    assert answer in view.legal_cards()
    late = decider.search("expert", view, "late", time.monotonic() - 1)
    # Past its deadline: no answer is waited for (or the task, started late,
    # searched nothing and answered normal's choice).
    assert late is None or late in view.legal_cards()


def test_a_ray_decider_takes_the_clusters_cpus_for_its_capacity(decider: RayDecider) -> None:
    """With more searches asked for at once than the cluster has CPUs, each is
    frugal, as on a pool of processes: the capacity is read from Ray."""
    answer = decider("expert", first_card_view(), "capacity")
    assert answer is not None
    assert decider.capacity == 2
    assert decider.effort_for(2).frugal is False
    assert decider.effort_for(3).frugal is True
    assert decider.effort_for(16).share == 0.5


def test_a_decision_with_no_bot_actor_free_by_its_deadline_gets_none_in_time(
    decider: RayDecider,
) -> None:
    """Every actor busy (here: taken from the free queue by the test itself):
    the search waits no longer than its deadline, and the caller then makes
    normal's choice."""
    decider("expert", first_card_view(), "warm")  # both actors are up and back in the queue
    assert decider.capacity == 2
    busy = [decider._free.get(timeout=5) for _ in range(2)]
    try:
        deadline = time.monotonic() + 0.2
        assert decider.search("expert", first_card_view(), "busy", deadline) is None
        # It waited for no actor past its deadline; the bound leaves room for a
        # loaded machine's reading of the cluster's CPUs, not for the busy actors.
        assert time.monotonic() < deadline + 10
    finally:
        for actor in busy:
            decider._free.put(actor)
    assert decider.search("expert", first_card_view(), "free", time.monotonic() + 5)
