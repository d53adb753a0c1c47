"""The commands that read and write game records (`spades simulate`, `spades
replay`), run by their entry point in this process (``run``) or through the
real console script (``run_script``, the tests about the process itself): see
``tests/commands.py``."""

from __future__ import annotations

import subprocess

from ..commands import spades_here, spades_process


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return spades_here(*args)


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return spades_process(*args, timeout=120)
