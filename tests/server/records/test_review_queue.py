"""A crowd ends hands faster than the review process reviews them: the reviews
claimed in a process wait in line, the one asked for last goes first (the page
asks every second while its summary is open: someone is reading), and one no
one has asked for in ABANDONED_SECONDS is dropped, its claim given up for the
next ask. The review work is a future the test completes, on a clock it turns."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from spades.server.records.reviews import ABANDONED_SECONDS, HandReviewer
from spades.storage import GameRepository

from .reviewing import finished_hand, ready

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


class Process:
    """The review process as the test runs it: the reviews started, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.started: list[tuple[str, Future[dict[str, Any]]]] = []

        def submit(reviewer: HandReviewer, _state: object, number: int, seed: str) -> Future[Any]:
            future: Future[dict[str, Any]] = Future()
            self.started.append((seed.split(":")[0], future))
            return future

        monkeypatch.setattr(HandReviewer, "_submit", submit)

    def finish(self) -> None:
        """The review under way is done."""
        self.started[-1][1].set_result(ready(1))

    @property
    def games(self) -> list[str]:
        return [game for game, _ in self.started]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def repository(db_url: str) -> Iterator[GameRepository]:
    repository = GameRepository(db_url)
    yield repository
    repository.close()


def test_the_review_asked_for_last_goes_first(
    repository: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    process, clock = Process(monkeypatch), Clock()
    reviewer = HandReviewer(repository.reviews, clock=clock)
    state = finished_hand()
    for game in ("a", "b", "c", "d"):  # "a" starts at once; the others wait
        assert reviewer.review(game, 1, state).status == "analysing"
        clock.now += 1
    reviewer.review("b", 1, state)  # b's player is still reading; c's and d's too
    assert process.games == ["a"]
    process.finish()
    assert process.games == ["a", "b"]  # the last asked, not the first in line
    process.finish()
    assert process.games == ["a", "b", "d"]
    assert reviewer.review("a", 1, state).status == "ready"


def test_a_review_no_one_waits_for_is_dropped_and_its_claim_given_up(
    db_url: str, repository: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    process, clock = Process(monkeypatch), Clock()
    reviewer = HandReviewer(repository.reviews, clock=clock)
    state = finished_hand()
    reviewer.review("busy", 1, state)  # the process is busy with it
    reviewer.review("moved-on", 1, state)  # asked once, then its player moved on
    reviewer.review("reading", 1, state)
    clock.now += ABANDONED_SECONDS / 2
    reviewer.review("reading", 1, state)  # asked again: still wanted
    clock.now += ABANDONED_SECONDS / 2 + 1
    process.finish()
    assert process.games == ["busy", "reading"]
    process.finish()
    assert process.games == ["busy", "reading"]  # the abandoned one is not started
    # Given up, not held: asked again (from Records, or by another process), it starts.
    other = GameRepository(db_url)
    try:
        assert HandReviewer(other.reviews, clock=clock).review("moved-on", 1, state).status == (
            "analysing"
        )
        assert process.games == ["busy", "reading", "moved-on"]
    finally:
        other.close()


def test_a_review_process_that_cannot_take_the_work_holds_up_no_other_review(
    repository: GameRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool broken when it is handed a review: that review is given up (the
    next ask starts it again), and the line is not left waiting on it."""
    process = Process(monkeypatch)
    started = HandReviewer._submit
    handed: list[object] = []

    def submit(reviewer: HandReviewer, *args: Any, **kwargs: Any) -> Future[Any]:
        handed.append(args)
        if len(handed) == 1:  # the first review is handed to a pool already shut
            raise RuntimeError("cannot schedule new futures after shutdown")
        return started(reviewer, *args, **kwargs)

    monkeypatch.setattr(HandReviewer, "_submit", submit)
    reviewer = HandReviewer(repository.reviews, clock=Clock())
    state = finished_hand()
    assert reviewer.review("broken", 1, state).status == "analysing"
    assert process.games == []
    assert reviewer.review("next", 1, state).status == "analysing"
    assert reviewer.review("broken", 1, state).status == "analysing"  # claimed again
    process.finish()
    assert process.games == ["next", "broken"]
