"""No test module imports another: what tests share lives in a helper module
(``tests/server/serving.py``, ``tests/solver/hands.py``, ...) or a conftest.

A test module imported by another is collected twice over in effect: its
fixtures and module state come along, editing it can break a module that
seems unrelated, and running it alone no longer says what it depends on."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def module_name(path: Path) -> str:
    return ".".join(("tests", *path.relative_to(TESTS).with_suffix("").parts))


def imported_modules(source: str, module: str) -> set[str]:
    """Every module the text ``source`` of the module named ``module`` imports,
    by absolute name (relative imports resolved; ``from package import name``
    counts ``package.name`` too, since the name may be a module)."""
    package = module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            imported = ".".join([*base, *([node.module] if node.module else [])])
            found.add(imported)
            found.update(f"{imported}.{alias.name}" for alias in node.names)
    return found


def is_test_module(name: str) -> bool:
    return name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")


def test_no_test_module_imports_another() -> None:
    offenders = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        module = module_name(path)
        imported = imported_modules(path.read_text(), module)
        if found := sorted(name for name in imported if is_test_module(name)):
            offenders[module] = found
    assert offenders == {}


def test_the_check_sees_imports_written_every_way() -> None:
    """The check itself, on imports written each way (so it cannot pass by reading none)."""
    here = "tests.server.play.test_probe"
    written = {
        "from .test_undo import bid": "tests.server.play.test_undo",
        "from ..test_many_processes import serving": "tests.server.test_many_processes",
        "from tests.solver.test_information import RUFF_ENDING": "tests.solver.test_information",
        "import tests.cli.test_play": "tests.cli.test_play",
        "from . import test_claims": "tests.server.play.test_claims",
    }
    for source, module in written.items():
        assert module in imported_modules(source, here), source
        assert is_test_module(module)
    helpers = imported_modules("from .moves import bid\nfrom ..browsers import api", here)
    assert helpers & {"tests.server.play.moves", "tests.server.browsers"} == {
        "tests.server.play.moves",
        "tests.server.browsers",
    }
    assert not any(is_test_module(name) for name in helpers)


def test_the_modules_run_first_are_modules_of_the_suite() -> None:
    """``tests/durations.json`` orders the suite by name: a module renamed or moved
    must be renamed there too (a run with ``--store-durations`` does it), or it
    silently loses its place."""
    from tests.conftest import stored_durations

    durations = stored_durations()
    root = TESTS.parent
    assert durations, "tests/durations.json is missing or empty"
    assert [name for name in durations if not (root / name).is_file()] == []
    assert list(durations.values()) == sorted(durations.values(), reverse=True)
