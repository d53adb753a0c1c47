"""A hand's review is computed once, whichever server process is asked: the
first claims it in the database, the others answer "analysing" until its
result is written there, then read it; a claim left by a process that died
is taken over. Two reviewers over one database stand for two processes, and
the review work is a future the test completes itself."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from spades.server.records import reviews
from spades.server.records.reviews import HandReviewer
from spades.storage import GameRepository

from .reviewing import finished_hand, ready

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)


class Work:
    """The reviews each reviewer started, as futures the test finishes."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.started: list[tuple[HandReviewer, Future[dict[str, Any]]]] = []

        def submit(reviewer: HandReviewer, *_args: object, **_kwargs: object) -> Future[Any]:
            future: Future[dict[str, Any]] = Future()
            self.started.append((reviewer, future))
            return future

        monkeypatch.setattr(HandReviewer, "_submit", submit)


@pytest.fixture
def two_processes(db_url: str) -> Iterator[tuple[HandReviewer, HandReviewer]]:
    repositories = [GameRepository(db_url), GameRepository(db_url)]
    yield (HandReviewer(repositories[0].reviews), HandReviewer(repositories[1].reviews))
    for repository in repositories:
        repository.close()


def test_the_second_process_asked_waits_for_the_first_and_reads_its_review(
    two_processes: tuple[HandReviewer, HandReviewer], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = Work(monkeypatch)
    first, second = two_processes
    state = finished_hand()
    assert first.review("game", 1, state).status == "analysing"
    assert second.review("game", 1, state).status == "analysing"
    assert [reviewer for reviewer, _ in work.started] == [first]  # computed once
    work.started[0][1].set_result(ready(1))
    kept = second.review("game", 1, state)
    assert kept.status == "ready" and kept.judged == 13
    assert first.review("game", 1, state) == kept
    assert len(work.started) == 1
    # Another hand is another piece of work, for whoever is asked first.
    assert second.review("game", 2, state).status == "analysing"
    assert [reviewer for reviewer, _ in work.started] == [first, second]


def test_a_claim_left_by_a_process_that_died_is_taken_over(
    two_processes: tuple[HandReviewer, HandReviewer], monkeypatch: pytest.MonkeyPatch
) -> None:
    work = Work(monkeypatch)
    first, second = two_processes
    state = finished_hand()
    first.review("game", 1, state)  # claims, then "dies": its future never ends
    monkeypatch.setattr(reviews, "CLAIM_SECONDS", 0.0)  # every claim is stale from now
    assert second.review("game", 1, state).status == "analysing"
    assert [reviewer for reviewer, _ in work.started] == [first, second]
    work.started[1][1].set_result(ready(1))
    assert second.review("game", 1, state).status == "ready"
