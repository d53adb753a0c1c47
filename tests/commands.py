"""`spades ARGUMENTS` run two ways: through the real console script in a
process of its own (what a person runs), or by calling the command line's own
entry point in this process, its output captured the same way.

Each command keeps tests through the real script (that it starts, exits with
the right code, prints to the right stream); the tests about what a command
does and prints run it here, which spares each of them starting a Python,
importing the package and, on exit, tearing it down again."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from typer.testing import CliRunner

from spades.cli.app import app

SPADES_SCRIPT: Final = str(Path(sys.executable).parent / "spades")
"""The console script installed beside this Python."""


def spades_process(
    *arguments: str, stdin: str = "", timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """`spades ARGUMENTS` through the real console script, in its own process."""
    return subprocess.run(
        [SPADES_SCRIPT, *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def spades_here(
    *arguments: str, stdin: str = "", environment: Mapping[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """`spades ARGUMENTS` by the command line's entry point, in this process:
    the exit code, and what it wrote to standard output and standard error,
    as ``spades_process`` gives them. An exception the command lets out (a
    process would print its traceback and exit 1) is raised here, whole.
    ``environment`` is set for the run (a variable given None is unset)."""
    result = CliRunner().invoke(app, list(arguments), input=stdin, env=dict(environment or {}))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(
        ["spades", *arguments], result.exit_code, result.stdout, result.stderr
    )
