"""Post-hand reviews, computed in the background.

Judging a hand by what each player could know solves thousands of sampled
deals: seconds of work, far beyond an API call's budget (100 ms). A review is
therefore computed in a separate process, one hand at a time at low priority,
while the player goes on; the page asks for it and is told "analysing" until
it is ready. A process, not a thread: the solver holds the interpreter lock,
and API calls in this process must not wait for it.

Reviews are seeded by the game and hand, so the same hand always gets the same
review. Each is kept in the database (``storage/reviews.py``): the first
process asked claims the hand and computes it once, the others answer
"analysing" until its result is written, and a restart recomputes nothing.
The last few hundred are also kept in memory, to spare the database a read.

A crowd ends hands faster than one process reviews them (a review is about a
second of CPU; 128 people end about three hands a second). So the reviews
claimed here wait in line, and the process takes the one asked for most
recently: the page asks every second while its summary is open, so that is
someone still reading. One nobody has asked for in ``ABANDONED_SECONDS`` is
dropped and its claim given up: its player has moved on, and Records asks anew.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Final

from spades.analysis.information import DEALS
from spades.core.hand import HandState
from spades.storage.reviews import ANALYSING, ReviewStore

from .review_schemas import HandReviewResponse
from .review_work import payload_of, review_hand, start_worker

REVIEW_DEALS: Final = DEALS
"""Deals sampled for each play of a hand reviewed in the page."""
RETRIES: Final = 2
"""Times a review is started before a dying review process makes it fail."""
CACHE_SIZE: Final = 512
"""Finished reviews kept in memory: a few hundred hands' worth of small results."""
ABANDONED_SECONDS: Final = 10.0
"""A review still waiting for the review process that no one has asked for
in this long is dropped: the page asks every second while it waits."""
CLAIM_SECONDS: Final = 600
"""A claim this old belongs to a process that stopped: reviews queue one at a
time in each process, but none waits ten minutes."""

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Waiting:
    """A review claimed here, waiting for the review process."""

    state: HandState
    number: int
    seed: str
    asked_at: float


class HandReviewer:
    """Reviews of finished hands by key (game id, hand number), kept in
    ``store``; who is still waiting for one is judged on ``clock`` (seconds)."""

    def __init__(
        self,
        store: ReviewStore,
        deals: int = REVIEW_DEALS,
        cache_size: int = CACHE_SIZE,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.deals = deals
        self.clock = clock
        self._cache_size = cache_size
        self._done: OrderedDict[tuple[str, int], HandReviewResponse] = OrderedDict()
        self._waiting: OrderedDict[tuple[str, int], _Waiting] = OrderedDict()
        """Claimed, not yet started: the one asked for last at the end."""
        self._running: set[tuple[str, int]] = set()
        """In the review process now (one at a time)."""
        self._closed = False
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._broken: dict[tuple[str, int], int] = {}

    def review(
        self, game_id: str, number: int, state: HandState, *, seed: object = None
    ) -> HandReviewResponse:
        """The review of hand ``number`` of game ``game_id`` (``state``, over), or
        an "analysing" answer while it is computed (here or by another process);
        asking starts the work if no one has. The deals it samples are seeded by
        ``seed`` (default: the game id) and the hand number."""
        key = (game_id, number)
        with self._lock:
            done = self._done.get(key)
            if done is not None:
                self._done.move_to_end(key)
                return done
            if key in self._running:
                return _analysing(number, self.deals)
            waiting = self._waiting.get(key)
            if waiting is not None:  # asked for again: someone still waits for it
                waiting.asked_at = self.clock()
                self._waiting.move_to_end(key)
                return _analysing(number, self.deals)
        kept = self.store.get(game_id, number)
        if kept is not None and kept.status != ANALYSING and kept.review is not None:
            result = HandReviewResponse.model_validate(kept.review)
            self._keep(key, result)
            return result
        claimed = kept is not None
        if not self.store.claim(game_id, number, stale_after=CLAIM_SECONDS, claimed=claimed):
            return _analysing(number, self.deals)  # another process (or request) computes it
        with self._lock:
            self._waiting[key] = _Waiting(
                state, number, f"{seed or game_id}:{number}", self.clock()
            )
        self._start_next()
        with self._lock:
            return self._done.get(key) or _analysing(number, self.deals)

    def _start_next(self) -> None:
        """With the review process free, give it the review asked for last,
        first dropping those no one has asked for in ABANDONED_SECONDS."""
        with self._lock:
            if self._running or self._closed:
                return
            now = self.clock()
            dropped = [
                key
                for key, waiting in self._waiting.items()
                if now - waiting.asked_at > ABANDONED_SECONDS
            ]
            for key in dropped:
                del self._waiting[key]
            chosen = self._waiting.popitem(last=True) if self._waiting else None
            if chosen is not None:
                self._running.add(chosen[0])
        for key in dropped:
            self._give_up(key)
        if chosen is None:
            return
        key, waiting = chosen
        try:
            running = self._submit(waiting.state, waiting.number, seed=waiting.seed)
        except Exception:  # a pool that broke before it took the work: the next ask retries
            log.warning("could not start the review of hand %s of game %s", key[1], key[0])
            with self._lock:
                self._running.discard(key)
                self._pool = None
            self._give_up(key)
            return
        running.add_done_callback(lambda future: self._settled(key, future))

    def _settled(self, key: tuple[str, int], future: Future[dict[str, Any]]) -> None:
        self._settle(key, future)
        self._start_next()

    def _settle(self, key: tuple[str, int], future: Future[dict[str, Any]]) -> None:
        """A review's work ended: write its result for every process, or, when the
        review process died, give the claim up so that the next ask starts it again."""
        try:
            self._write_result(key, future)
        except Exception:  # the database away: the claim goes stale, and someone retries
            log.warning("could not keep the review of hand %s of game %s", key[1], key[0])
        finally:
            with self._lock:
                self._running.discard(key)

    def _write_result(self, key: tuple[str, int], future: Future[dict[str, Any]]) -> None:
        game_id, number = key
        try:
            result = HandReviewResponse.model_validate(future.result())
        except BrokenProcessPool:  # the process died (killed?): try again, once
            with self._lock:
                self._pool = None
                self._broken[key] = self._broken.get(key, 0) + 1
                retry = self._broken[key] < RETRIES
            if retry:
                self.store.release(game_id, number)
                return
            result = _failed(number, self.deals, "the review process stopped")
        except Exception as error:  # a review that cannot be made is said so, once
            result = _failed(number, self.deals, str(error))
        self.store.finish(game_id, number, result.status, result.model_dump(mode="json"))
        self._keep(key, result)

    def _keep(self, key: tuple[str, int], result: HandReviewResponse) -> None:
        with self._lock:
            self._done[key] = result
            while len(self._done) > self._cache_size:
                self._done.popitem(last=False)

    def _submit(self, state: HandState, number: int, seed: str) -> Future[dict[str, Any]]:
        if self._pool is None:
            # Spawned, not forked: the server's threads may hold locks a fork would copy.
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=get_context("spawn"),
                initializer=start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool.submit(review_hand, payload_of(state), number, self.deals, seed)

    def close(self) -> None:
        """Stop the pool and wait for its processes (a review under way ends
        first): its semaphores are released before the server's process ends."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
            waiting, self._waiting = list(self._waiting), OrderedDict()
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        for key in waiting:  # for another process to take at once
            self._give_up(key)

    def _give_up(self, key: tuple[str, int]) -> None:
        """Release the claim of a review not made here, for the next ask to take."""
        try:
            self.store.release(*key)
        except Exception:  # the database away: the claim goes stale, and is taken over
            log.warning("could not give up the review of hand %s of game %s", key[1], key[0])


def _analysing(number: int, deals: int) -> HandReviewResponse:
    return HandReviewResponse(
        hand=number,
        status="analysing",
        plays=[],
        tricks_lost={"N": 0.0, "E": 0.0, "S": 0.0, "W": 0.0},
        judged=0,
        unjudged=0,
        deals=deals,
        seconds=0.0,
    )


def _failed(number: int, deals: int, reason: str) -> HandReviewResponse:
    return _analysing(number, deals).model_copy(
        update={"status": "failed", "detail": f"The review failed: {reason}."}
    )
