"""The bots' compiled modules (mypyc, see setup.py) decide exactly as their
interpreted source: the search's playouts run compiled for speed, and must
not play a different game for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import spades

FINGERPRINT = """
import hashlib
from spades.arena.referee import play_game
from spades.bots import make_bot
from spades.core import SEATS, game_to_record

digest = hashlib.sha256()
for game_seed in (3,):
    bots = {
        seat: make_bot("normal" if seat % 2 else "expert", seed=f"{game_seed}:{seat}", worlds=2)
        for seat in SEATS
    }
    digest.update(str(game_to_record(play_game(bots, seed=game_seed))).encode())
print(digest.hexdigest())
"""

SOURCE_ONLY = """
import importlib.util, os, sys

class SourceOnly:
    '''Load every spades module from its .py file, never a compiled extension.'''

    def find_spec(self, name, path=None, target=None):
        if name != "spades" and not name.startswith("spades."):
            return None
        leaf = name.rpartition(".")[2]
        for entry in path if path is not None else sys.path:
            folder = os.path.join(entry, leaf)
            if os.path.isfile(os.path.join(folder, "__init__.py")):
                return importlib.util.spec_from_file_location(
                    name, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder]
                )
            if os.path.isfile(folder + ".py"):
                return importlib.util.spec_from_file_location(name, folder + ".py")
        return None

sys.meta_path.insert(0, SourceOnly())
import spades.bots.knowledge.play as play
assert play.__file__.endswith(".py"), play.__file__
"""


def fingerprint(prelude: str) -> str:
    source_root = str(Path(spades.__file__).parent.parent)
    result = subprocess.run(
        [sys.executable, "-c", prelude + FINGERPRINT],
        capture_output=True,
        text=True,
        check=True,
        cwd=source_root,
        timeout=600,
    )
    return result.stdout.strip()


def test_compiled_and_interpreted_bots_play_identical_games() -> None:
    compiled = fingerprint("")
    interpreted = fingerprint(SOURCE_ONLY)
    assert len(compiled) == 64
    assert compiled == interpreted
