"""Decisions as Ray tasks: ``spades serve --bots ray://HOST:PORT`` (or ``ray``).

A Ray cluster of bot machines answers the search levels' decisions for any
number of web servers; adding a bot machine to the cluster adds thinking
without adding a web server. Ray is the optional ``cluster`` extra, as for the
arena (``arena/cluster.py``).

A cluster's capacity is its CPUs, read from Ray every CAPACITY_REFRESH
seconds (bot machines join and leave): with more searches asked for at once
than that, each is frugal and then searches a share of its deals, as on a pool
of processes (``Decider.effort_for``), instead of queueing in Ray past its
deadline.

Clocks differ between machines, so the deadline travels as wall-clock time and
each task turns it into its own machine's monotonic deadline when it starts (a
task that starts late searches less, at worst not at all). The caller waits no
longer than the deadline either way (see ``Decider``).
"""

from __future__ import annotations

import logging
import math
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


def cluster_cpus() -> int | None:
    """The CPUs of the Ray cluster this process is connected to (whole ones,
    at least 1), or ``None`` if Ray cannot say."""
    import ray

    try:
        cpus = ray.cluster_resources().get("CPU", 0.0)
    except Exception as error:  # noqa: BLE001 (a cluster going away must not cost a move)
        log.warning("cannot read the Ray cluster's CPUs (%s): searches keep their full effort", error)
        return None
    return max(1, int(cpus))


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


class RayDecider(Decider):
    """Decisions sent to Ray: a cluster at ``address`` (``ray://HOST:PORT``), or
    a Ray started on this machine's loopback address when ``address`` is None
    (stopped again by ``close``). Connects on the first search."""

    def __init__(self, address: str | None, *, cpus: int | None = None) -> None:
        super().__init__()  # capacity unknown until connected
        self.address = address
        self.cpus = cpus
        self._lock = threading.Lock()
        self._remote: Any = None
        self._capacity_read_at = -math.inf

    def connect(self) -> Any:
        with self._lock:
            if self._remote is None:
                try:
                    import ray
                except ImportError:
                    raise RayUnavailable(
                        "Ray is not installed: pip install 'spades[cluster]' (or pip install ray)"
                    ) from None
                if not ray.is_initialized():
                    if self.address is None:
                        ray.init(
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
                self._remote = ray.remote(num_cpus=1, max_retries=0)(decide_by_wall_clock)
            return self._remote

    def start(self) -> None:
        self.connect()

    def refresh_capacity(self) -> None:
        """Take the cluster's CPUs, as Ray says now, for this decider's capacity
        (``Decider.effort_for``), if the last reading is CAPACITY_REFRESH old:
        a cluster grows and shrinks. Called from a search, outside the lock
        every decision takes and while this one's task runs."""
        now = time.monotonic()
        if now - self._capacity_read_at >= CAPACITY_REFRESH:
            self._capacity_read_at = now
            self.capacity = cluster_cpus()

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
            remote = self.connect()
        except RayUnavailable as error:
            log.warning("%s: normal's choice stands", error)
            return None
        left = deadline - time.monotonic()
        task = remote.remote(level, view, seed, time.time() + left, effort, hint)
        self.refresh_capacity()  # while the task runs
        left = deadline - time.monotonic()
        try:
            answer: Answer = ray.get(task, timeout=max(0.0, left) + GRACE)
            return answer
        except ray.exceptions.GetTimeoutError:
            # Not forced: that kills the worker, and a fresh one costs a second
            # or more of CPU to start, just when the cluster is short of it. A
            # task still queued is dropped; a running one stops at its deadline.
            ray.cancel(task, force=False)
            log.warning("a %s decision on Ray missed its deadline: normal's choice stands", level)
        except ray.exceptions.RayError as error:  # a worker died, the cluster went away
            log.warning("a %s decision on Ray failed (%s): normal's choice stands", level, error)
        return None

    def close(self) -> None:
        with self._lock:
            if self._remote is None:
                return
            self._remote = None
        import ray

        ray.shutdown()

    def describe(self) -> str:
        return f"bots on Ray at {self.address}" if self.address else "bots on a local Ray"
