"""Matches on Ray: the games (or deals) of a match as Ray tasks, on a Ray
started for the run or on an existing cluster (optional extra: ``pip install
'spades[cluster]'``).

A result depends on its index alone (see ``match``), so where a task runs
changes nothing: the summary is the one ``--workers 1`` gives. Results are
taken back in index order, as ``in_index_order`` yields them, with a bounded
number of tasks in flight: a 100,000-deal run neither floods the cluster's
scheduler nor holds every finished result in the driver at once.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final, TypeVar

from .match import Runner

LOCAL: Final = "local"
"""The address that starts a Ray on this machine for the run (and stops it after)."""
TASKS_PER_CPU: Final = 4
"""Chunks kept in flight for each CPU of the cluster: enough that none waits for work."""

Result = TypeVar("Result")


class RayUnavailable(Exception):
    """Ray is not installed, or its cluster cannot be reached."""


@contextmanager
def ray_runner(address: str = LOCAL, *, cpus: int | None = None) -> Iterator[Runner]:
    """Connect to Ray for the ``with`` block and yield a runner that plays on it.

    ``address`` is ``local`` (a Ray started here with ``cpus`` CPUs, default
    all of them, and stopped afterwards), ``auto`` (the cluster this machine
    belongs to) or a cluster's address (``ray://head:10001``, ``head:6379``).
    """
    try:
        import ray
    except ImportError:
        raise RayUnavailable(
            "Ray is not installed: pip install 'spades[cluster]' (or pip install ray)"
        ) from None
    try:
        if address == LOCAL:
            # On the loopback address: a Ray made for one run serves no other
            # machine. No dashboard (its web server and extra processes are of no
            # use to one run); the workers' output stays theirs: the arena prints
            # the summary.
            ray.init(
                _node_ip_address="127.0.0.1",
                num_cpus=cpus,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.WARNING,
            )
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    except (ConnectionError, ValueError, RuntimeError) as error:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address!r}: {error}") from None
    try:
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        total = int(resources.get("CPU", 1))
        yield _Runner(max(1, total))
    finally:
        ray.shutdown()


class _Runner:
    def __init__(self, cpus: int) -> None:
        self.cpus = cpus

    def __call__(self, work: Callable[[int], Result], count: int) -> Iterator[Result]:
        return in_index_order_on_ray(work, count, self.cpus)


def in_index_order_on_ray(work: Callable[[int], Result], count: int, cpus: int) -> Iterator[Result]:
    """``work(0) .. work(count - 1)``, in that order, as Ray tasks over ``cpus`` CPUs."""
    import ray

    # Chunks of a few indices: a task costs milliseconds to schedule, a random
    # bot's deal less than that. Small enough to keep every CPU busy to the end.
    size = max(1, min(16, count // (cpus * 8)))
    chunks = [range(start, min(start + size, count)) for start in range(0, count, size)]
    play: Any = ray.remote(_play_chunk)
    shared = ray.put(work)  # sent to the object store once, not with every task
    pending: deque[Any] = deque()
    upcoming = iter(chunks)
    for chunk in upcoming:
        pending.append(play.remote(shared, chunk))
        if len(pending) >= cpus * TASKS_PER_CPU:
            break
    try:
        while pending:
            try:
                results: list[Result] = ray.get(pending.popleft())
            except ray.exceptions.RayError as error:  # a task failed, or its worker died
                lines = str(error).strip().splitlines()
                raise RuntimeError(
                    f"a Ray task failed: {lines[-1] if lines else error!r}"
                ) from None
            next_chunk = next(upcoming, None)
            if next_chunk is not None:
                pending.append(play.remote(shared, next_chunk))
            yield from results
    finally:
        for task in pending:  # interrupted, or a task failed: stop the rest
            ray.cancel(task, force=True)


def _play_chunk(work: Callable[[int], Result], indices: range) -> list[Result]:
    return [work(index) for index in indices]
