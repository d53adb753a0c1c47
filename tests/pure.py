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

import spades

PACKAGE_DIR = Path(spades.__file__).parent
COMPILED = (
    "cards",
    "hand",
    "scoring",
    "seats",
    "view",
    "solver.dds",
    "bots.knowledge.play",
    "bots.knowledge.memory",
    "bots.knowledge.learned_bidding",
    "bots.knowledge.features",
    "bots.knowledge.bidding",
    "bots.search.sampler",
    "bots.search.inference",
    "bots.search.playouts",
    "bots.valuation",
    "rl.tracker",
)
"""The modules mypyc compiles: a name alone is in ``spades.core``."""


def _qualified(name: str) -> str:
    return f"spades.{name}" if "." in name else f"spades.core.{name}"


def load_source(name: str) -> ModuleType:
    """The module ``spades.core.<name>`` (or ``spades.<package>.<module>`` for a
    dotted name) loaded from its ``.py`` source."""
    package, _, module_name = _qualified(name).rpartition(".")
    qualified = f"{package}._source_{module_name}"
    if qualified in sys.modules:
        return sys.modules[qualified]
    path = PACKAGE_DIR.joinpath(*package.split(".")[1:], f"{module_name}.py")
    spec = importlib.util.spec_from_file_location(qualified, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[qualified] = module
    spec.loader.exec_module(module)
    return module
