"""What the browser tests drive: Debian's Chromium, and `spades serve` as a subprocess.

The fixtures built on these (``tests/server/conftest.py``) start one Chromium and
one server per test module and give each test fresh browser contexts: starting
them is most of a browser test's time, and a fresh context is a new person with
cookies of their own, so no test sees another's games."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import uvicorn
from fastapi import FastAPI

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def spades_command() -> list[str]:
    script = Path(sys.executable).parent / "spades"
    if script.exists():
        return [str(script)]
    found = shutil.which("spades")
    return [found] if found else [sys.executable, "-m", "spades.cli.app"]


class Server:
    """`spades serve` as a subprocess, restartable on the same port and database."""

    startup_seconds = 30

    def __init__(self, db_url: str, *options: str) -> None:
        self.port = free_port()
        self.db_url = db_url
        self.options = options
        """More options for `spades serve`."""
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        command = [
            *spades_command(), "serve", "--port", str(self.port), "--db", self.db_url,
            "--level", "normal",  # quick bots: these tests are about the page
            *self.options,
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.startup_seconds
        while time.monotonic() < deadline:  # until it answers: how long it takes is the machine's
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode() if self.process.stdout else ""
                raise RuntimeError(f"spades serve exited: {output}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/levels", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"spades serve did not start within {self.startup_seconds} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stdout:
            self.process.stdout.close()
        self.process = None


class InProcessServer:
    """The web game served from this process (uvicorn on a thread) for tests that
    hold the app itself: its tables' clock, say. Like ``spades serve`` with one
    process, without the process: ``create_app`` is called as the command calls it."""

    startup_seconds = 30

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self._server = server = uvicorn.Server(config)
        self._thread = threading.Thread(target=server.run, name="spades-serve", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self.startup_seconds
        while not server.started:  # until it listens: how long that takes is the machine's
            if not self._thread.is_alive():
                raise RuntimeError("the server's thread ended before it listened")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start within {self.startup_seconds} s")
            time.sleep(0.05)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=30)
        self._server = self._thread = None
