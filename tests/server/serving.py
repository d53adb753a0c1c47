"""`spades serve` as a subprocess, on a port no other process can take first.

The command binds its port itself and names it in the first line it prints
(``--port 0``: the system picks a free one; ``serve.ANNOUNCEMENT``), or serves
on a socket it inherits bound (``--fd``). A test reads the port from that line,
or holds the socket: it never picks a "free" port, releases it and hopes no
other process takes it before the server binds it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from spades.cli.serve import ANNOUNCEMENT

TAIL_LINES: Final = 200
"""Lines of the server's output kept to say why it failed."""
PATIENCE: Final = 120
"""Seconds to wait for server processes to (re)start: each imports the whole
server, and on a machine busy with other work that has taken 40 s."""


def spades_command() -> list[str]:
    script = Path(sys.executable).parent / "spades"
    if script.exists():
        return [str(script)]
    found = shutil.which("spades")
    return [found] if found else [sys.executable, "-m", "spades.cli.app"]


class ServeProcess:
    """`spades serve ARGUMENTS` started, its output (stdout and stderr together)
    read on a thread so it never blocks on a full pipe, the last lines kept."""

    def __init__(
        self,
        arguments: Sequence[str],
        *,
        environment: dict[str, str] | None = None,
        own_group: bool = False,
        pass_fds: Sequence[int] = (),
    ) -> None:
        """``own_group``: in a process group of its own, so its workers can be
        killed with it; ``pass_fds``: file descriptors it inherits (``--fd``)."""
        self.process = subprocess.Popen(
            [*spades_command(), "serve", *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=own_group,
            env={**os.environ, **(environment or {})},
            pass_fds=tuple(pass_fds),
        )
        self._tail: deque[str] = deque(maxlen=TAIL_LINES)
        self._first_line = threading.Event()
        self._reader = threading.Thread(target=self._read, name="spades-serve-output", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._tail.append(line.decode(errors="replace"))
            self._first_line.set()
        self._first_line.set()  # its output ended: it exited

    def output(self) -> str:
        """The last lines the server printed."""
        return "".join(self._tail)

    def output_to_the_end(self, timeout: float) -> str:
        """The last lines printed once the output has ended: once the server and
        every process that shares its output (multiprocessing's resource
        tracker, which speaks last) have exited."""
        self._reader.join(timeout)
        if self._reader.is_alive():
            raise RuntimeError(f"the server's output did not end within {timeout} s")
        return self.output()

    def announced_url(self, patience: float) -> str:
        """The URL the first line names (``--port 0``), within ``patience`` seconds."""
        if not self._first_line.wait(patience):
            raise RuntimeError(f"spades serve printed nothing in {patience} s")
        first = self._tail[0] if self._tail else ""
        announced = ANNOUNCEMENT.search(first)
        if announced is None:
            raise RuntimeError(f"spades serve did not say where it serves: {self.output()}")
        return announced[1]

    def wait_until_it_answers(self, url: str, patience: float) -> None:
        """Until ``url`` answers ``/api/levels``: the port is bound before the app
        starts, and how long the start takes is the machine's."""
        deadline = time.monotonic() + patience
        while True:
            if self.process.poll() is not None:
                self._reader.join(timeout=5)
                raise RuntimeError(
                    f"spades serve exited with code {self.process.returncode}: {self.output()}"
                )
            try:
                with urllib.request.urlopen(f"{url}/api/levels", timeout=2):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"spades serve did not answer within {patience} s") from None
                time.sleep(0.1)  # refused until uvicorn listens: ask again shortly

    def stop(self, timeout: float = 10) -> None:
        """SIGTERM, then SIGKILL if it is still there after ``timeout`` seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=timeout)
        if self.process.stdout is not None:
            self.process.stdout.close()


def serve_on_a_free_port(
    arguments: Sequence[str],
    *,
    patience: float,
    environment: dict[str, str] | None = None,
    own_group: bool = False,
) -> tuple[ServeProcess, str]:
    """`spades serve --port 0 ARGUMENTS`, once it answers: it and its URL."""
    serving = ServeProcess(
        ["--port", "0", *arguments], environment=environment, own_group=own_group
    )
    try:
        url = serving.announced_url(patience)
        serving.wait_until_it_answers(url, patience)
    except BaseException:
        serving.stop()
        raise
    return serving, url


@contextmanager
def serving(
    db_url: str, *options: str, environment: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """`spades serve` on a port it picks (with ``environment`` added to ours); yields
    its URL and process, and stops it and every worker it started afterwards."""
    server, url = serve_on_a_free_port(
        # Inline: a one-process server would spawn a pool of bot processes at
        # start-up, for searches these tests never ask for (normal bots do not search).
        [f"--db={db_url}", "--level=normal", "--bots=inline", *options],
        patience=PATIENCE,
        environment=environment,
        own_group=True,  # its own process group: the workers go with it
    )
    try:
        yield url, server.process
    finally:
        # A group whose every process has already exited is no longer there to kill.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.process.pid, signal.SIGKILL)
        server.stop()


def workers_of(server: subprocess.Popen[bytes], count: int) -> list[int]:
    """The pids of the server's worker processes, once ``count`` of them run."""
    deadline = time.monotonic() + PATIENCE
    while True:
        children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
        # uvicorn's workers, not the resource tracker multiprocessing keeps beside them
        workers = [int(pid) for pid in children if b"spawn_main" in _command_line(int(pid))]
        if len(workers) >= count:
            return workers
        assert time.monotonic() < deadline, f"{count} workers did not start: {children}"
        time.sleep(0.2)


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
