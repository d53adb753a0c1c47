"""Record files re-played in a process of their own, not the server's.

Re-playing an uploaded record checks every bid and card through the engine:
the costliest file the limits let in (100 hands) is about half a second of
CPU. Run in the server's thread pool, that is half a second of Python holding
the GIL, which the event loop serving every other player must win back every
few milliseconds: under a flood of uploads (one an address every two seconds,
the limit) the other players' answers took several times as long. In a
process of its own, at a lower priority (``NICENESS``), the re-play costs CPU
the server does not need at that moment, not the server's interpreter, and
its thread only waits for the answer.

The processes are shared by every app in the process (the tests make many)
and spawned, not forked (the server is threaded), at the first upload; ``close``
shuts them down when ``spades serve`` stops.
"""

from __future__ import annotations

import contextlib
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import get_context
from typing import Final

from spades.bots.search.helpers import exit_with_parent

from .records import open_record_file
from .replay_schemas import Replay

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_pool_size = 0


def replay_record_file(
    text: str, game_index: int = 1, *, max_hands: int | None, processes: int = 1
) -> bytes:
    """``open_record_file`` run in one of ``processes`` processes: its answer
    as the JSON a ``Replay`` is sent as (made there too: validating and writing
    the 0.3 MB of the costliest file's replay took the server's interpreter
    a tenth of a second more), or the same ``BadRecordFile``."""
    pool = _replay_pool(processes)
    try:
        return pool.submit(_replay_json, text, game_index, max_hands).result()
    except BrokenProcessPool:  # the process died (killed, out of memory): start anew
        _discard(pool)
        raise


def _replay_json(text: str, game_index: int, max_hands: int | None) -> bytes:
    replay: Replay = open_record_file(text, game_index, max_hands=max_hands)
    return replay.model_dump_json().encode()


def _replay_pool(processes: int) -> ProcessPoolExecutor:
    global _pool, _pool_size
    with _lock:
        if _pool is None or _pool_size < processes:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=get_context("spawn"),
                initializer=_start_replaying,
                initargs=(os.getpid(),),
            )
            _pool_size = processes
        return _pool


NICENESS: Final = 10
"""How much less the re-playing process is given the CPU than the server's:
when both want it, the players' answers come first and an upload waits (a
person opening a file waits half a second more, a flood of uploads gets less)."""


def _start_replaying(parent: int) -> None:
    exit_with_parent(parent)
    with contextlib.suppress(OSError):  # not allowed here: it runs at the server's priority
        os.nice(NICENESS)


def _discard(broken: ProcessPoolExecutor) -> None:
    global _pool, _pool_size
    with _lock:
        if _pool is broken:
            _pool, _pool_size = None, 0
    broken.shutdown(wait=False, cancel_futures=True)


def close() -> None:
    """Shut the processes down and wait until they have left (a server
    stopping: see ``helpers.close_pool`` for why it waits)."""
    global _pool, _pool_size
    with _lock:
        pool, _pool, _pool_size = _pool, None, 0
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
