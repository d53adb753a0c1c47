"""Where the built-in bots think: here, in processes on every core, or on Ray.

A search decision is tens of milliseconds of pure Python. Made in the web
server's threads, every decision of every game queued on one lock (the GIL),
and one server answered about four people at once. A ``Decider`` takes a
decision as plain data (the level, the seat's view, the decision seed) and
returns the answer, so the thinking can happen anywhere:

- ``InlineDecider``: in the calling process (the terminal game, tests).
- ``ProcessDecider``: in worker processes, one per core by default
  (``bot_processes.py``): the server's default, so its bots use every core it has.
- ``RayDecider`` (``ray_decider.py``): in bot actors on a cluster of bot machines
  (``spades serve --bots ray://HOST:PORT``), so a site adds bot machines
  without adding web servers.

A person never waits on a bot for longer than the decision budget: the worker
is handed the moment the decision must be made by (its search stops there and
answers with what it has, at worst the knowledge-based ``normal`` choice it
starts from), and should no answer come by then (the pool is flooded, a worker
died, the cluster is gone) the caller makes ``normal``'s choice itself, which
takes microseconds. Levels that do not search are always decided in the
calling process: sending them away would cost more than deciding.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from spades.bots import DECISION_BUDGET, SEARCH_LEVELS, Bot, KnowledgeBot, SearchBot, make_bot
from spades.bots.search.helpers import usable_cores
from spades.core import PlayerView

from .bot_processes import BotProcesses, CallTimedOut, WorkerDied
from .turns import Answer, Decide, answer_of, hint_of

log = logging.getLogger(__name__)

FALLBACK_LEVEL: Final = KnowledgeBot.name
"""What answers when a search cannot in time: the choice every search starts
from and keeps unless its deals show clearly that another is better."""
GRACE: Final = 0.05
"""Seconds a caller waits past the deadline for an answer on its way back."""
TOO_LATE_TO_SEARCH: Final = 0.02
"""With less time than this left, a search is not started: ``normal`` answers."""
CROWDED: Final = 4
"""Searches waiting for each bot process beyond which each searches a share of its deals."""
MIN_SHARE: Final = 0.25
"""However crowded, a search keeps at least this share of its planned deals."""
REMEMBERED: Final = 4096
"""Search answers a decider keeps, the latest asked (see ``Decider.__call__``)."""


class EarliestDeadlineFirst:
    """Lets at most ``slots`` searches run at once, admitting the waiting ones
    earliest deadline first, not in the order they asked.

    A person's answer waits for the bots that act after the move, one after
    another, all due by one instant (``Decider.until``). In a queue by arrival,
    the third bot of a table queued behind the first bots of every table that
    moved since, and the tables that moved first waited longest: the answer
    times' tail. The earliest deadline first keeps each table's bots moving
    while the pool is busy, for the same CPU.

    >>> gate = EarliestDeadlineFirst()
    >>> gate.enter(deadline=time.monotonic() + 1, slots=1)
    True
    >>> gate.enter(deadline=time.monotonic() + 0.01, slots=1)  # the one slot stays taken
    False
    >>> gate.leave()
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._waiting: list[tuple[float, int, threading.Condition]] = []
        """A heap of the waiting searches: (deadline, order of asking, where
        that search waits for its turn)."""
        self._order = itertools.count()

    def enter(self, deadline: float, slots: int) -> bool:
        """Wait for one of ``slots`` (as many as the decider's capacity lets run
        now), ahead of every search due later; ``False`` (and no slot taken) if
        none came by ``deadline`` (a ``time.monotonic()`` instant)."""
        with self._lock:
            if self._running < slots and not self._waiting:
                self._running += 1
                return True
            # Each waiter waits on a condition of its own, and only the first
            # in line is woken when a slot may be free: waking every waiter on
            # every change (one shared condition) cost a crowded server a
            # sixth of its web process's time, waiters waking only to wait again.
            place = (deadline, next(self._order), threading.Condition(self._lock))
            heapq.heappush(self._waiting, place)
            while not (self._running < slots and self._waiting[0] is place):
                left = deadline - time.monotonic()
                if left <= 0:
                    self._waiting.remove(place)
                    heapq.heapify(self._waiting)
                    self._wake_first()  # the next in line may be first now
                    return False
                place[2].wait(left)
            heapq.heappop(self._waiting)
            self._running += 1
            self._wake_first()  # a second free slot goes to the next in line
            return True

    def leave(self) -> None:
        """Give back the slot ``enter`` took."""
        with self._lock:
            self._running -= 1
            self._wake_first()

    def _wake_first(self) -> None:
        """Wake the first in line to look at the slots again (the lock held)."""
        if self._waiting:
            self._waiting[0][2].notify()

    def waiting(self) -> int:
        """Searches waiting for a slot now."""
        with self._lock:
            return len(self._waiting)


@dataclass(frozen=True)
class Effort:
    """How much of its planned search a decision gets from a busy server."""

    share: float = 1.0
    """The share of its planned deals it searches (``Decider.share_for``)."""
    frugal: bool = False
    """Whether it leaves the opening tricks of a hand without a Nil to the rule
    of thumb (``SearchBot.be_frugal``), as it does once searches wait."""


FULL_EFFORT: Final = Effort()
"""An idle server's: every planned deal of every decision."""

BOT_SERVICES: Final = {
    "local": "a pool of bot processes on this machine, one per core (the default)",
    "local:N": "a pool of N bot processes on this machine",
    "inline": "in the server's own process (one core; for tests and tiny machines)",
    "ray": "bot actors on a Ray started on this machine",
    "ray://HOST:PORT": "bot actors on the cluster whose Ray client server is at HOST:PORT",
    "ray-node:HOST:PORT": (
        "bot actors on the cluster whose head listens at HOST:PORT (its GCS port, 6379),"
        " this process joining it as a driver: a fifth of the Ray client's overhead a"
        " decision, but it needs the cluster's Ray and Python versions and a network"
        " path to every node"
    ),
}
"""The places ``spades serve --bots`` can send decisions to, for its help."""


def decide_now(
    level: str,
    view: PlayerView,
    seed: str,
    deadline: float | None = None,
    effort: Effort = FULL_EFFORT,
    hint: bool = False,
) -> Answer:
    """``level``'s answer on ``view``, computed here, seeded with ``seed``. A
    search level stops at ``deadline`` (a ``time.monotonic()`` instant) with the
    deals it has searched by then (at worst it answers ``normal``'s choice),
    and makes the ``effort`` a busy server asks (see ``Decider.effort_for``).
    With ``hint``, the answer is advice to the seat's player (``hint_of``)
    rather than the bot's own turn."""
    return _answer_with(_prepared_bot(level, seed, deadline, effort), view, hint)


def _prepared_bot(level: str, seed: str, deadline: float | None, effort: Effort) -> Bot:
    bot = make_bot(level, seed=seed)
    if isinstance(bot, SearchBot):
        if deadline is not None:
            bot.stop_at(deadline)
        if effort.share < 1.0:
            bot.search_share(effort.share)
        if effort.frugal:
            bot.be_frugal()
    return bot


def _answer_with(bot: Bot, view: PlayerView, hint: bool) -> Answer:
    bot.start_game(view.seat, view.rules)
    try:
        return hint_of(bot, view) if hint else answer_of(bot, view)
    finally:
        bot.close()


class Decider(ABC):
    """Computes built-in bots' decisions: ``decider(level, view, seed)``."""

    budget: float = DECISION_BUDGET
    """Seconds a decision may take, counted from when it is asked for."""
    capacity: int | None = None
    """Searches this decider runs at once (its processes); with more asked at
    once, each searches less (``effort_for``). ``None``: no limit known."""

    def __init__(self) -> None:
        self._gate = EarliestDeadlineFirst()
        """Where searches wait for a process, earliest deadline first: two a
        process are let through (one running, the next queued in the pool, so
        none idles while an answer travels back); with no capacity known,
        every search is."""
        self._searching = 0
        """Searches asked for and not yet answered."""
        self._searching_lock = threading.Lock()
        self._answers: OrderedDict[tuple[str, PlayerView, str, bool], Answer] = OrderedDict()
        """The search answers given, by question (level, view, seed, hint)."""
        self._answers_lock = threading.Lock()

    def share_for(self, searching: int) -> float:
        """The share of its planned deals a search gets while ``searching``
        searches (itself included) are asked for at once: all of them up to
        CROWDED searches a process, then less in proportion, never below
        MIN_SHARE.

        A few searches queued for each process wait tens of milliseconds, and
        searching less would cost more than it saves: fewer deals make a
        search overrule ``normal`` less often when it should (half the deals
        cost about 10 points a hand, docs/strength.md). A long queue is
        another matter: its last searches would wait past their deadline and
        get ``normal``'s choice, worth nothing of the search. Then each
        searching fewer deals drains the queue, and every answer comes in
        time, a little less searched.

        >>> decider = ProcessDecider(2)
        >>> [decider.share_for(n) for n in (1, 2, 8, 16, 32, 100)]
        [1.0, 1.0, 1.0, 0.5, 0.25, 0.25]
        """
        if self.capacity is None or searching <= CROWDED * self.capacity:
            return 1.0
        return max(MIN_SHARE, CROWDED * self.capacity / searching)

    def effort_for(self, searching: int) -> Effort:
        """The effort a search makes while ``searching`` searches (itself
        included) are asked for at once: frugal as soon as they outnumber the
        processes (some wait), and a share of the deals once crowded
        (``share_for``). Frugal costs about a point a hand for a quarter of
        the cards' CPU, where half the deals cost 8.5 (docs/strength.md).

        >>> decider = ProcessDecider(2)
        >>> [(e.share, e.frugal) for e in map(decider.effort_for, (2, 3, 16))]
        [(1.0, False), (1.0, True), (0.5, True)]
        """
        if self.capacity is None:
            return FULL_EFFORT
        return Effort(self.share_for(searching), frugal=searching > self.capacity)

    def __call__(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        due: float | None = None,
        *,
        hint: bool = False,
    ) -> Answer:
        """``level``'s answer, within the budget and by ``due`` (a
        ``time.monotonic()`` instant) if that comes first; with ``hint``, its
        advice to the seat's player (see ``decide_now``). A hint is a search
        like a bot's turn, made where the bots' turns are: never in the web
        server's own process, where it would hold every other request.

        A question asked again (a move taken back and made again, a hint asked
        twice, the day's challenge deal at the same point for another player)
        gets the answer it got, searched once: how busy the server was the
        first time (a frugal search, a share of the deals, ``normal`` standing
        in) never makes the bots answer differently the second. The last
        REMEMBERED answers are kept, in this process."""
        if level not in SEARCH_LEVELS:
            return decide_now(level, view, seed, hint=hint)  # microseconds: not worth a trip
        question = (level, view, seed, hint)
        with self._answers_lock:
            known = self._answers.get(question)
            if known is not None:
                self._answers.move_to_end(question)
                return known
        answer = self._answer(level, view, seed, due, hint)
        with self._answers_lock:
            self._answers[question] = answer
            while len(self._answers) > REMEMBERED:
                self._answers.popitem(last=False)  # the one asked longest ago
        return answer

    def _answer(
        self, level: str, view: PlayerView, seed: str, due: float | None, hint: bool
    ) -> Answer:
        deadline = time.monotonic() + self.budget
        if due is not None:
            deadline = min(deadline, due)
        answer = None
        if deadline - time.monotonic() >= TOO_LATE_TO_SEARCH:
            with self._searching_lock:
                self._searching += 1
                effort = self.effort_for(self._searching)
            try:
                bot = _prepared_bot(level, seed, deadline, effort)
                if isinstance(bot, SearchBot) and not bot.searches(view):
                    # The search would answer normal's card at once: decide it
                    # here, the same answer without the trip to a bot process
                    # (a third of all cards have one distinct choice; with the
                    # frugal opening tricks, 44% of a busy server's: 20 hands).
                    return _answer_with(bot, view, hint)
                answer = self._search_in_turn(level, view, seed, deadline, effort, hint)
            finally:
                with self._searching_lock:
                    self._searching -= 1
        if answer is None:  # nothing came back in time, or no time was left
            return decide_now(FALLBACK_LEVEL, view, seed, hint=hint)
        return answer

    def _search_in_turn(
        self, level: str, view: PlayerView, seed: str, deadline: float, effort: Effort, hint: bool
    ) -> Answer | None:
        """``search``, once the gate lets this decision through (see ``_gate``)."""
        if self.capacity is None:
            return self.search(level, view, seed, deadline, effort, hint)
        if not self._gate.enter(deadline - TOO_LATE_TO_SEARCH, slots=2 * self.capacity):
            log.warning(
                "a %s decision missed its deadline waiting its turn: normal's choice stands", level
            )
            return None
        try:
            return self.search(level, view, seed, deadline, effort, hint)
        finally:
            self._gate.leave()

    def until(self, due: float) -> Decide:
        """This decider with every decision due by ``due``: the bots that act
        after one move of a person's share one budget between them, so the
        person's answer comes within it however many bots act (at worst the
        later ones make ``normal``'s choice)."""
        return lambda level, view, seed: self(level, view, seed, due)

    @abstractmethod
    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer | None:
        """A search level's answer (or hint), with ``effort``, or ``None`` if
        it could not be had by ``deadline``."""

    def start(self) -> None:  # noqa: B027 (optional hook)
        """Get ready before the first decision (start processes, connect to a
        cluster), so no player's move pays for it; raises if it cannot."""

    def close(self) -> None:  # noqa: B027 (optional hook)
        """Stop whatever the decider started (processes, a cluster connection)."""

    def describe(self) -> str:
        """Where decisions are made, in a few words for the server's banner."""
        return type(self).__name__


class InlineDecider(Decider):
    """Decisions made in the calling thread, one at a time per thread."""

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer:
        return decide_now(level, view, seed, deadline, effort, hint)

    def describe(self) -> str:
        return "bots in the server's process"


class ProcessDecider(Decider):
    """Decisions made in ``processes`` worker processes (``BotProcesses``: each
    on a pipe of its own, spawned on the first search, a dead one replaced)."""

    def __init__(self, processes: int | None = None, *, budget: float = DECISION_BUDGET) -> None:
        super().__init__()
        self.processes = processes or usable_cores()
        if self.processes < 1:
            raise ValueError(f"a pool needs at least 1 process, not {self.processes}")
        self.capacity = self.processes
        self.budget = budget
        self._lock = threading.Lock()
        self._workers: BotProcesses | None = None

    def workers(self) -> BotProcesses:
        with self._lock:
            if self._workers is None:
                self._workers = BotProcesses(self.processes)
            return self._workers

    @property
    def started(self) -> bool:
        """Whether any worker process was started."""
        return self._workers is not None

    def start(self) -> None:
        self.workers()  # a spawned process takes a moment to import: start them now

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer | None:
        timeout = max(0.0, deadline - time.monotonic()) + GRACE
        try:
            return self.workers().call(
                decide_now, level, view, seed, deadline, effort, hint, timeout=timeout
            )
        except CallTimedOut:  # still queued, or running: its answer is dropped
            log.warning("a %s decision missed its deadline: normal's choice stands", level)
        except WorkerDied:
            pass  # said where it was found; the next call starts another
        return None

    def close(self) -> None:
        with self._lock:
            workers, self._workers = self._workers, None
        if workers is not None:
            workers.close()

    def describe(self) -> str:
        return f"bots in {self.processes} process{'es' if self.processes > 1 else ''}"


def make_decider(spec: str | None = None, *, budget: float = DECISION_BUDGET) -> Decider:
    """The decider ``spec`` names (see ``BOT_SERVICES``; ``None`` is ``local``).

    >>> make_decider("inline").describe(), make_decider("local:3").describe()
    ("bots in the server's process", 'bots in 3 processes')
    >>> make_decider("ray-node:10.0.0.5:6379").describe()
    'bots on Ray at 10.0.0.5:6379'
    >>> make_decider("elsewhere")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot service 'elsewhere': use local, local:N, inline, ray, ray://HOST:PORT or ray-node:HOST:PORT
    """
    spec = (spec or "local").strip()
    decider: Decider
    if spec == "inline":
        decider = InlineDecider()
    elif spec == "local":
        decider = ProcessDecider()
    elif spec.startswith("local:") and spec[6:].isdigit() and int(spec[6:]) >= 1:
        decider = ProcessDecider(int(spec[6:]))
    elif spec == "ray" or spec.startswith("ray://") or spec.startswith("ray-node:"):
        from .ray_decider import RayDecider  # Ray is an optional extra

        address = None if spec == "ray" else spec.removeprefix("ray-node:")
        decider = RayDecider(address)
    else:
        known = ", ".join(BOT_SERVICES).replace(", ray-node:", " or ray-node:")
        raise ValueError(f"unknown bot service {spec!r}: use {known}")
    decider.budget = budget
    return decider
