"""Helper processes: a search decision spread over the machine's cores.

In an interactive game one bot thinks at a time, so the other core would sit
idle; a search player given ``processes=2`` sends half of its deals to a
helper process and searches the other half itself. The helpers are shared by
every search player of the process (the web server makes a fresh bot for each
decision) and start once, in the background, the first time they are asked for.

Matches between bots (``spades arena --workers``) already keep every core busy
with whole games, so bots there search in their own process only.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

MAX_PROCESSES = 4
"""A decision searches a few dozen deals: beyond a few processes the shares
get too small to pay for sending them."""

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_pool_size = 0


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def interactive_processes() -> int:
    """How many processes a search decision may use in an interactive game:
    every core this process may run on (one bot thinks at a time there), up
    to MAX_PROCESSES."""
    return min(usable_cores(), MAX_PROCESSES)


def helper_pool(helpers: int) -> ProcessPoolExecutor:
    """The shared pool of ``helpers`` processes, grown if it is too small.

    Processes are spawned, not forked: the web server calls bots from threads,
    and forking a threaded process can copy a held lock into the child.
    """
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size < helpers:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ProcessPoolExecutor(
                max_workers=helpers,
                mp_context=get_context("spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
            _pool_size = helpers
            for _ in range(helpers):  # start them now: a spawned process takes a moment
                _pool.submit(_ready)
        return _pool


def discard_pool() -> None:
    """Forget a pool that broke (a helper died): the next request starts a new one."""
    global _pool, _pool_size
    with _lock:
        if _pool is not None:
            _pool.shutdown(wait=False, cancel_futures=True)
        _pool, _pool_size = None, 0


def close_pool() -> None:
    """Shut the shared pool down and wait until its processes have left (a server
    stopping): its queues' semaphores are released now, not reported leaked by
    multiprocessing's resource tracker when the process ends without running
    its finalizers (uvicorn ends itself by SIGTERM after a graceful stop)."""
    global _pool, _pool_size
    with _lock:
        pool, _pool, _pool_size = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)


def _ready() -> bool:
    return True


PARENT_CHECK_SECONDS = 1.0


def exit_with_parent(parent: int) -> None:
    """Run in each helper (and each of the server's bot processes): leave when the process that started it is gone. A
    server stopped with SIGTERM (or killed) does not shut its pool down, and
    its helpers would otherwise wait for work forever."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
