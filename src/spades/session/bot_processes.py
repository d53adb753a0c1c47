"""Worker processes the server's bots think in, each on a pipe of its own.

``concurrent.futures.ProcessPoolExecutor`` did this first. Each of its calls
crosses two threads of the calling process before it reaches a worker (the
manager thread, then a queue's feeder thread, which pickles and writes it) and
one more on the way back (the manager thread reads the answer and completes
the future, which wakes the caller). In a web server those threads queue for
the same GIL as every request, and each hop waited its turn: under a crowd the
workers idled half the time while searches queued for them, and the pool's
threads took an eighth of the web process's GIL.

Here the caller writes its call to a worker's pipe itself, and waits on that
pipe itself: nothing crosses another thread of this process. A worker runs the
calls sent to it in order, so two may be sent to one worker (the next waits in
the pipe while the first runs, and the worker never idles while an answer
travels back); the first caller still waiting reads the answers, keeps each
for whoever it belongs to, and hands the reading on. A worker that dies fails
the calls it held and is replaced by the next call sent to it.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from spades.bots.search.helpers import exit_with_parent

log = logging.getLogger(__name__)

T = TypeVar("T")


class WorkerDied(Exception):
    """The worker a call was sent to died before answering it."""


class CallTimedOut(Exception):
    """No answer came by the call's deadline (the worker may still be busy with
    it: its answer, when it comes, is dropped)."""


def _serve(calls: Connection, parent: int) -> None:
    """A worker: run each call the pipe brings, in order, and send back its
    result or the exception it raised."""
    exit_with_parent(parent)
    while True:
        try:
            number, function, args = calls.recv()
        except (EOFError, OSError):  # the server closed the pipe: its work is done
            return
        try:
            reply: tuple[int, bool, Any] = (number, True, function(*args))
        except Exception as error:  # the caller raises it, as a pool's future would
            reply = (number, False, error)
        try:
            calls.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # an answer or exception that will not pickle
            calls.send((number, False, RuntimeError(f"unsendable answer: {error!r}")))


@dataclass(eq=False)
class _Worker:
    """One process, the parent's end of its pipe, and who is waiting on it."""

    process: BaseProcess
    pipe: Connection
    sending: threading.Lock = field(default_factory=threading.Lock)
    turn: threading.Condition = field(default_factory=threading.Condition)
    """Guards the fields below; notified when an answer is kept or the worker dies."""
    held: int = 0
    """Calls sent and not yet answered (dropped ones too, until their answer is read)."""
    reading: bool = False
    answers: dict[int, tuple[bool, Any]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)
    dead: bool = False


class BotProcesses:
    """``processes`` spawned worker processes (spawned, so a threaded server
    forks no held lock), each leaving when this process is gone."""

    def __init__(self, processes: int) -> None:
        if processes < 1:
            raise ValueError(f"a pool needs at least 1 process, not {processes}")
        self._context = get_context("spawn")
        self._numbers = itertools.count()
        self._lock = threading.Lock()
        """Guards the list of workers and their ``held`` counts."""
        self._workers = [self._spawn() for _ in range(processes)]
        self._closed = False

    def _spawn(self) -> _Worker:
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve, args=(theirs, os.getpid()), name="spades-bot", daemon=True
        )
        process.start()
        theirs.close()  # the worker's end lives in the worker
        return _Worker(process, ours)

    def pids(self) -> list[int | None]:
        with self._lock:
            return [worker.process.pid for worker in self._workers]

    def call(self, function: Callable[..., T], *args: Any, timeout: float) -> T:
        """``function(*args)`` in the least busy worker, its result within
        ``timeout`` seconds; raises ``CallTimedOut`` or ``WorkerDied`` else, and
        what the call raised if it raised."""
        deadline = time.monotonic() + timeout
        worker, number = self._send(function, args)
        ok, value = self._answer(worker, number, deadline)
        if not ok:
            raise value
        result: T = value
        return result

    def _send(self, function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[_Worker, int]:
        with self._lock:
            if self._closed:
                raise WorkerDied("the bot processes are closed")
            index = min(range(len(self._workers)), key=lambda i: self._workers[i].held)
            worker = self._workers[index]
            if worker.dead:  # replaced only now, by the first call it would have been sent
                worker = self._workers[index] = self._spawn()
            worker.held += 1
            number = next(self._numbers)
        try:
            with worker.sending:
                worker.pipe.send((number, function, args))
        except (EOFError, OSError) as error:
            self._died(worker)
            raise WorkerDied(f"the bot process is gone: {error}") from None
        return worker, number

    def _answer(self, worker: _Worker, number: int, deadline: float) -> tuple[bool, Any]:
        turn = worker.turn
        with turn:
            while True:
                if number in worker.answers:
                    return worker.answers.pop(number)
                if worker.dead:
                    raise WorkerDied("the bot process died")
                left = deadline - time.monotonic()
                if left <= 0:
                    worker.dropped.add(number)  # whoever reads its answer drops it
                    raise CallTimedOut(f"no answer in {left:.3f} s")
                if worker.reading:
                    turn.wait(left)
                    continue
                worker.reading = True  # this caller reads for everyone waiting on the worker
                turn.release()
                try:
                    reply = worker.pipe.recv() if worker.pipe.poll(left) else None
                except (EOFError, OSError):
                    reply = None
                    died = True
                else:
                    died = False
                finally:
                    turn.acquire()
                    worker.reading = False
                if died:
                    self._died(worker)  # notifies every caller waiting on it
                    raise WorkerDied("the bot process died")
                if reply is not None:
                    self._keep(worker, reply)
                turn.notify_all()  # an answer kept, or the reading free for another

    def _keep(self, worker: _Worker, reply: tuple[int, bool, Any]) -> None:
        """An answer read from ``worker`` (its ``turn`` held): kept for its
        caller, or dropped if the caller gave up on it."""
        number, ok, value = reply
        with self._lock:
            worker.held -= 1
        if number in worker.dropped:
            worker.dropped.discard(number)
        else:
            worker.answers[number] = (ok, value)

    def _died(self, worker: _Worker) -> None:
        log.warning("a bot process died: the calls it held make normal's choice")
        with worker.turn:
            worker.dead = True
            worker.turn.notify_all()
        with self._lock:
            worker.held = 0
        worker.pipe.close()
        worker.process.join(timeout=0)

    def close(self) -> None:
        """Stop every worker: each ends once its pipe is closed (after the call
        it is running, whose answer nobody reads)."""
        with self._lock:
            self._closed = True
            workers, self._workers = self._workers, []
        for worker in workers:
            worker.pipe.close()
        for worker in workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(timeout=5)
