"""Load the interpreted source of a module that mypyc compiled.

The installed package imports the compiled extension; these helpers load the
very same ``.py`` file as an ordinary module so tests can run its doctests and
check that compiled and interpreted code behave identically.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import spades.core

CORE_DIR = Path(spades.core.__file__).parent
COMPILED = ("cards", "hand", "scoring")


def load_source(name: str) -> ModuleType:
    """The module ``spades.core.<name>`` loaded from its ``.py`` source."""
    qualified = f"spades.core._source_{name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    spec = importlib.util.spec_from_file_location(qualified, CORE_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "spades.core"
    sys.modules[qualified] = module
    spec.loader.exec_module(module)
    return module


def is_compiled(name: str) -> bool:
    module = sys.modules.get(f"spades.core.{name}") or importlib.import_module(
        f"spades.core.{name}"
    )
    return not str(module.__file__).endswith(".py")
