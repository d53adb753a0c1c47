"""The page's ES modules: each fact is written once, and no module imports one
that imports it back (a circle would make the order they run in matter)."""

from __future__ import annotations

import re
from pathlib import Path

import spades.server

STATIC = Path(spades.server.__file__).parent / "static"
IMPORT = re.compile(r'^import \{[^}]*\} from "\./([\w-]+\.js)";', re.MULTILINE)


def module_imports() -> dict[str, set[str]]:
    return {
        path.name: set(IMPORT.findall(path.read_text(encoding="utf-8")))
        for path in STATIC.glob("*.js")
    }


def test_every_import_names_a_module_of_the_page() -> None:
    graph = module_imports()
    assert "app.js" in graph and len(graph) > 10
    for module, imported in graph.items():
        assert imported <= graph.keys(), (module, imported - graph.keys())


def test_the_page_modules_import_no_circle() -> None:
    graph = module_imports()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


def test_seat_names_and_card_text_are_written_once() -> None:
    texts = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js")}
    assert [name for name, text in texts.items() if '"North"' in text] == ["seats.js"]
    assert [name for name, text in texts.items() if "RANK_WORDS =" in text] == ["cards.js"]
    assert [name for name, text in texts.items() if '"Blind Nil"' in text] == ["words.js"]
