"""Decisions as Ray tasks: ``spades serve --bots ray://HOST:PORT`` (or ``ray``).

A Ray cluster of bot machines answers the search levels' decisions for any
number of web servers; adding a bot machine to the cluster adds thinking
without adding a web server. Ray is the optional ``cluster`` extra, as for the
arena (``arena/cluster.py``).

The decisions go to long-lived bot actors, one per CPU of the cluster (read
from Ray every CAPACITY_REFRESH seconds: bot machines join and leave), each
with the bots imported and warm, taken from one queue here as each comes free,
as a pool of processes does. Plain Ray tasks were tried first: each was leased
and queued by the node it was sent to, so a decision could wait behind a busy
node while another stood idle, and at 64 people on two one-core nodes 118 to
463 decisions a minute missed their deadline where a local pool of two
processes missed none (docs/performance.md). The capacity also makes a crowded
cluster search frugally, as a pool does (``Decider.effort_for``).

Clocks differ between machines, so the deadline travels as wall-clock time and
each task turns it into its own machine's monotonic deadline when it starts (a
task that starts late searches less, at worst not at all). The caller waits no
longer than the deadline either way (see ``Decider``).
"""

from __future__ import annotations

import logging
import math
import queue
import threading
import time
from typing import Any

from spades.core import PlayerView

from .deciders import FULL_EFFORT, GRACE, Decider, Effort, decide_now
from .turns import Answer

log = logging.getLogger(__name__)

CAPACITY_REFRESH = 5.0
"""Seconds a reading of the cluster's CPUs is trusted before Ray is asked again."""


def decide_by_wall_clock(
    level: str,
    view: PlayerView,
    seed: str,
    wall_deadline: float,
    effort: Effort = FULL_EFFORT,
    hint: bool = False,
) -> Answer:
    """``decide_now`` with the deadline given as ``time.time()`` seconds."""
    deadline = time.monotonic() + (wall_deadline - time.time())
    return decide_now(level, view, seed, deadline, effort, hint)


class BotActor:
    """One CPU's worth of a bot machine: decisions one at a time (a Ray actor),
    the bots imported once, when it starts."""

    def ready(self) -> bool:
        """Answered once the actor has started (and imported the bots)."""
        return True

    def decide(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        wall_deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer:
        return decide_by_wall_clock(level, view, seed, wall_deadline, effort, hint)


def cluster_cpus() -> int | None:
    """The CPUs of the Ray cluster this process is connected to (whole ones,
    at least 1), or ``None`` if Ray cannot say."""
    import ray

    try:
        cpus = ray.cluster_resources().get("CPU", 0.0)  # type: ignore[no-untyped-call]
    except Exception as error:  # a cluster going away must not cost a move
        log.warning(
            "cannot read the Ray cluster's CPUs (%s): its bot actors stay as they are", error
        )
        return None
    return max(1, int(cpus))


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


class RayDecider(Decider):
    """Decisions sent to bot actors on Ray: a cluster at ``address``
    (``ray://HOST:PORT`` through the Ray client, or ``HOST:PORT`` joined as a
    driver), or a Ray started on this machine's loopback address when
    ``address`` is None (stopped again by ``close``). Connects on the first
    search, or at ``start``."""

    def __init__(self, address: str | None, *, cpus: int | None = None) -> None:
        super().__init__()  # capacity unknown until connected
        self.address = address
        self.cpus = cpus
        self._lock = threading.Lock()
        self._actor_class: Any = None
        self._actors: list[Any] = []
        """Every live bot actor, free or busy."""
        self._free: queue.Queue[Any] = queue.Queue()
        """The bot actors started and not deciding anything now."""
        self._starting: dict[Any, Any] = {}
        """The bot actors still starting, by the answer each gives once ready."""
        self._capacity_read_at = -math.inf

    def connect(self) -> None:
        with self._lock:
            if self._actor_class is not None:
                return
            try:
                import ray
            except ImportError:
                raise RayUnavailable(
                    "Ray is not installed: pip install 'spades[cluster]' (or pip install ray)"
                ) from None
            if not ray.is_initialized():
                if self.address is None:
                    ray.init(
                        address="local",  # a new one, even beside another Ray on this machine
                        _node_ip_address="127.0.0.1",  # a Ray of its own serves no one else
                        num_cpus=self.cpus,
                        include_dashboard=False,
                        log_to_driver=False,
                        logging_level=logging.WARNING,
                    )
                else:
                    try:
                        ray.init(
                            address=self.address,
                            log_to_driver=False,
                            logging_level=logging.WARNING,
                        )
                    except (ConnectionError, ValueError, RuntimeError) as error:
                        raise RayUnavailable(
                            f"cannot reach the Ray cluster at {self.address!r}: {error}"
                        ) from None
            self._actor_class = ray.remote(num_cpus=1, max_restarts=0)(BotActor)
        self.refresh_capacity()

    def start(self) -> None:
        """Connect and wait (a minute at most) for the bot actors to start, so
        that no player's move waits for one."""
        import ray

        self.connect()
        with self._lock:
            starting = list(self._starting)
        if starting:
            ray.wait(starting, num_returns=len(starting), timeout=60)
        self._take_started()

    def _take_started(self) -> None:
        """Put the bot actors that have started since last asked to work."""
        import ray

        with self._lock:
            starting = list(self._starting)
        if not starting:
            return
        started, _ = ray.wait(starting, num_returns=len(starting), timeout=0)
        with self._lock:
            for answer in started:
                actor = self._starting.pop(answer, None)
                if actor is not None:
                    self._free.put(actor)

    def refresh_capacity(self) -> None:
        """Match the bot actors to the cluster's CPUs, as Ray says now, and take
        that for this decider's capacity (``Decider.effort_for``), if the last
        reading is CAPACITY_REFRESH old: a cluster grows and shrinks. An actor
        is added only for a CPU free now, so none waits for a place; one lost
        with its machine is dropped by the search that finds it gone."""
        with self._lock:
            now = time.monotonic()
            if now - self._capacity_read_at < CAPACITY_REFRESH:
                return
            self._capacity_read_at = now
        cpus = cluster_cpus()
        if cpus is None:  # Ray cannot say now: the actors there are stay as they are
            return
        import ray

        try:
            free_cpus = int(ray.available_resources().get("CPU", 0.0))  # type: ignore[no-untyped-call]
        except Exception as error:  # a cluster going away must not cost a move
            log.warning("cannot read the Ray cluster's free CPUs (%s)", error)
            return
        with self._lock:
            wanted = min(cpus - len(self._actors), free_cpus)
            for _ in range(max(0, wanted)):
                actor = self._actor_class.remote()
                self._actors.append(actor)
                self._starting[actor.ready.remote()] = actor  # to work once started
            self.capacity = max(1, len(self._actors))

    def _drop(self, actor: Any) -> None:
        with self._lock:
            if actor in self._actors:
                self._actors.remove(actor)
            self._capacity_read_at = -math.inf  # look for the CPUs again at once

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer | None:
        import ray

        try:
            self.connect()
        except RayUnavailable as error:
            log.warning("%s: normal's choice stands", error)
            return None
        self.refresh_capacity()
        self._take_started()
        try:
            actor = self._free.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            log.warning(
                "a %s decision missed its deadline waiting for a bot actor: normal's choice stands",
                level,
            )
            return None
        left = deadline - time.monotonic()
        call = actor.decide.remote(level, view, seed, time.time() + left, effort, hint)
        try:
            answer: Answer = ray.get(call, timeout=max(0.0, left) + GRACE)
        except ray.exceptions.GetTimeoutError:
            # The actor's search stops at the deadline by itself: it is free
            # again in a moment, and the next decision queues behind it.
            log.warning("a %s decision on Ray missed its deadline: normal's choice stands", level)
        except ray.exceptions.RayActorError as error:  # its machine went away
            log.warning("a bot actor on Ray is gone (%s): normal's choice stands", error)
            self._drop(actor)
            return None
        except ray.exceptions.RayError as error:
            log.warning("a %s decision on Ray failed (%s): normal's choice stands", level, error)
        else:
            self._free.put(actor)
            return answer
        self._free.put(actor)
        return None

    def close(self) -> None:
        with self._lock:
            if self._actor_class is None:
                return
            self._actor_class = None
            self._actors.clear()
            self._starting.clear()
            self._free = queue.Queue()
        import ray

        ray.shutdown()

    def describe(self) -> str:
        return f"bots on Ray at {self.address}" if self.address else "bots on a local Ray"
