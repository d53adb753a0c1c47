"""The folders are the architecture: each layer imports only from below it
(docs/architecture.md). Read from the source, so a new import that points
upward fails here before it tangles anything."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import spades

PACKAGE = Path(spades.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute; ``from
    package import name`` counts as importing ``package.name`` too, in case the
    name is a module."""
    package = ".".join(("spades", *path.relative_to(PACKAGE).parent.parts))
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            elif node.module:
                module = node.module
            else:
                continue
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(("spades", *(parts[:-1] if parts[-1] == "__init__" else parts)))


def server_imports() -> dict[str, set[str]]:
    """Each module of the web server and the server modules it imports. Importing
    ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so those count too."""
    paths = {module_name(path): path for path in sources("server")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        targets: set[str] = set()
        for module in imported_modules(path):
            parts = module.split(".")
            targets.update(".".join(parts[:end]) for end in range(2, len(parts) + 1))
        graph[name] = {target for target in targets & paths.keys() if target != name}
    return graph


def import_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports in ``graph``, if there is one (depth first, by colour)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for target in sorted(graph[module]):
            circle = visit(target)
            if circle:
                return circle
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        circle = visit(module)
        if circle:
            return circle
    return None


def sources(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


def test_nothing_imports_the_web_server_but_the_serve_command() -> None:
    for path in PACKAGE.rglob("*.py"):
        if path.is_relative_to(PACKAGE / "server") or path == PACKAGE / "cli" / "serve.py":
            continue
        upward = {m for m in imported_modules(path) if m.startswith("spades.server")}
        assert not upward, f"{path.relative_to(PACKAGE)} imports {upward}"


def test_the_session_layer_knows_nothing_of_the_web_or_the_terminal() -> None:
    assert sources("session")
    for path in sources("session"):
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top not in ("fastapi", "pydantic", "starlette", "typer", "rich"), (path, module)
            assert not module.startswith(("spades.server", "spades.cli", "spades.arena")), (
                path,
                module,
            )


def test_core_imports_nothing_of_ours_but_core() -> None:
    for path in sources("core"):
        ours = {m for m in imported_modules(path) if m.startswith("spades.")}
        assert all(m.startswith("spades.core") for m in ours), (path, ours)


def test_the_web_server_has_no_import_circle() -> None:
    graph = server_imports()
    assert "spades.server.play.routes" in graph  # the feature folders are read
    assert import_circle(graph) is None, " -> ".join(import_circle(graph) or [])


def test_the_circle_check_finds_a_circle() -> None:
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_nothing_imports_the_app_module_but_the_serve_command() -> None:
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "cli" / "serve.py":
            continue
        assert "spades.server.app" not in imported_modules(path), path.relative_to(PACKAGE)


def test_a_feature_reaches_the_app_only_through_its_router() -> None:
    # Each feature folder has routes.py with `router`; the routes stand on deps.py,
    # and nothing below the routes imports a routes module.
    graph = server_imports()
    features = sorted(path.parent.name for path in (PACKAGE / "server").glob("*/routes.py"))
    assert {"play", "tables", "records", "stats"} <= set(features)
    for module, targets in graph.items():
        routes = {t for t in targets if t.endswith(".routes")}
        if module != "spades.server.app":
            assert not routes, f"{module} imports {routes}: only app.py includes routers"
    for below in ("spades.server.deps", "spades.server.errors"):
        assert not {t for t in graph[below] if t.endswith(".routes")}, below


def test_the_challenge_knows_nothing_of_the_web_or_the_terminal() -> None:
    assert sources("challenge")
    for path in sources("challenge"):
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top not in ("fastapi", "pydantic", "starlette", "typer", "rich"), (path, module)
            assert not module.startswith(("spades.server", "spades.cli")), (path, module)


def test_the_command_line_starts_without_the_database_or_the_web() -> None:
    """Every `spades` command but `serve`, `db` and `challenge` runs without
    SQLAlchemy, Alembic or FastAPI: loading them was three quarters of the
    command's start (1.3 of 1.8 CPU seconds), paid by each `spades arena`,
    `play` or `replay`. Those commands import them when they run."""
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, spades.cli.app; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    heavy = {"sqlalchemy", "alembic", "fastapi", "uvicorn", "spades.storage", "spades.server"}
    assert heavy.isdisjoint(loaded), heavy.intersection(loaded)
