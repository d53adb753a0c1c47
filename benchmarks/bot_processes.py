"""What a trip to a bot process costs the web process, two ways. Run by hand:

    .venv/bin/python benchmarks/bot_processes.py [--calls 4000] [--callers 8] [--busy 1]

``--callers`` threads each send calls to 2 worker processes, as a server's
request threads send searches, first through ``concurrent.futures``'
``ProcessPoolExecutor`` (what the server used until session 13), then through
``spades.session.bot_processes.BotProcesses`` (what it uses now). Each call is
a small fixed piece of work in the worker (``WORK_SECONDS`` of spinning, about
a quick search), so the workers' side is the same both ways. ``--busy``
threads spin in this process meanwhile, holding the GIL as the web process's
own work does (the event loop, views, SQLite), which is what makes every hop
between threads wait.

It prints, for each way: calls a second, the round trip's p50 / p95 / p99, and
(without busy threads, whose CPU would drown it) this process's CPU a call.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from spades.session.bot_processes import BotProcesses

WORK_SECONDS = 0.005
PROCESSES = 2


def spin(seconds: float) -> int:
    """The worker's side of a call: ``seconds`` of CPU."""
    end = time.process_time() + seconds
    turns = 0
    while time.process_time() < end:
        turns += 1
    return turns


def busy(stop: threading.Event) -> None:
    while not stop.is_set():
        sum(range(1000))


def run(
    send: Callable[[], object], calls: int, callers: int, busy_threads: int
) -> dict[str, float]:
    trips: list[float] = []
    lock = threading.Lock()
    left = [calls]

    def caller() -> None:
        while True:
            with lock:
                if left[0] == 0:
                    return
                left[0] -= 1
            start = time.perf_counter()
            send()
            trip = time.perf_counter() - start
            with lock:
                trips.append(trip)

    stop = threading.Event()
    spinners = [threading.Thread(target=busy, args=(stop,)) for _ in range(busy_threads)]
    for spinner in spinners:
        spinner.start()
    cpu, wall = time.process_time(), time.perf_counter()
    threads = [threading.Thread(target=caller) for _ in range(callers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    stop.set()
    for spinner in spinners:
        spinner.join()
    trips.sort()
    return {
        "rate": calls / wall,
        "p50": statistics.median(trips) * 1000,
        "p95": trips[int(0.95 * len(trips))] * 1000,
        "p99": trips[int(0.99 * len(trips))] * 1000,
        "cpu": cpu,
        "wall": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4000)
    parser.add_argument("--callers", type=int, default=8)
    parser.add_argument("--busy", type=int, default=1, help="GIL-holding threads meanwhile")
    options = parser.parse_args()

    executor = ProcessPoolExecutor(PROCESSES, mp_context=get_context("spawn"))
    pipes = BotProcesses(PROCESSES)
    ways: dict[str, Callable[[], object]] = {
        "ProcessPoolExecutor": lambda: executor.submit(spin, WORK_SECONDS).result(),
        "BotProcesses": lambda: pipes.call(spin, WORK_SECONDS, timeout=60),
    }
    for send in ways.values():  # the workers started and warm
        for _ in range(20):
            send()
    print(
        f"{options.calls} calls of {WORK_SECONDS * 1000:.0f} ms in {PROCESSES} processes, "
        f"{options.callers} callers, {options.busy} GIL-busy threads"
    )
    for name, send in ways.items():
        got = run(send, options.calls, options.callers, options.busy)
        own = (
            ""
            if options.busy
            else f"   this process {got['cpu'] / options.calls * 1e6:.0f} us a call"
        )
        print(
            f"  {name:20s} {got['rate']:7.0f} calls/s   round trip p50 {got['p50']:6.1f} "
            f"p95 {got['p95']:6.1f} p99 {got['p99']:6.1f} ms{own}"
        )
    executor.shutdown()
    pipes.close()


if __name__ == "__main__":
    main()
