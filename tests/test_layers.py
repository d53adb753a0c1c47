"""The folders are the architecture: each layer imports only from below it
(docs/architecture.md). Read from the source, so a new import that points
upward fails here before it tangles anything."""

from __future__ import annotations

import ast
from pathlib import Path

import spades

PACKAGE = Path(spades.__file__).parent


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute."""
    package = ".".join(("spades", *path.relative_to(PACKAGE).parent.parts))
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            elif node.module:
                found.add(node.module)
    return found


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


def test_the_challenge_knows_nothing_of_the_web_or_the_terminal() -> None:
    assert sources("challenge")
    for path in sources("challenge"):
        for module in imported_modules(path):
            top = module.split(".")[0]
            assert top not in ("fastapi", "pydantic", "starlette", "typer", "rich"), (path, module)
            assert not module.startswith(("spades.server", "spades.cli")), (path, module)
