"""Build hook: compile the engine's hot path with mypyc.

The modules below are plain, fully typed Python; mypyc turns them into C
extensions (about 3x faster, see docs/performance.md). Set SPADES_PURE_PYTHON=1
to install them interpreted instead: behaviour is identical.

The double-dummy search also has a hand-written C port (``_kernel.c``, see
docs/solver.md), built here too and skipped the same way; ``dds.py`` stays the
reference and answers alone when the kernel is not built. So does the RL
tables' observation encoder (``rl/_observations.c``) beside the numpy one in
``rl/vector.py``, and the search's playouts (``bots/search/_playout.c``, a
port of the knowledge-based player's card play, held to it card by card in
tests/bots/test_playout_kernel.py; ``playouts.py`` plays in Python without it).
The storage's SIGBUS guard (``storage/_sigbus.c``) has no Python twin: without
it a WAL index cut during a statement ends the server, as it would any SQLite
program.
"""

import os

from setuptools import Extension, setup

COMPILED_MODULES = [
    "src/spades/core/cards.py",
    "src/spades/core/hand.py",
    "src/spades/core/scoring.py",
    "src/spades/core/seats.py",
    "src/spades/core/view.py",
    "src/spades/solver/dds.py",
    # The search's playouts: the knowledge-based player at every seat, the
    # sampler, the bids' evidence and the valuation (2.3x faster compiled, the
    # same decisions).
    "src/spades/bots/knowledge/play.py",
    "src/spades/bots/knowledge/memory.py",
    "src/spades/bots/knowledge/learned_bidding.py",
    "src/spades/bots/knowledge/features.py",
    "src/spades/bots/knowledge/bidding.py",
    "src/spades/bots/search/sampler.py",
    "src/spades/bots/search/inference.py",
    "src/spades/bots/search/playouts.py",
    "src/spades/bots/valuation.py",
    # The AEC environment's observations, followed action by action.
    "src/spades/rl/tracker.py",
]

ext_modules = []
if os.environ.get("SPADES_PURE_PYTHON", "") in ("", "0"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED_MODULES, opt_level="3")
    ext_modules.append(
        Extension(
            "spades.solver._kernel",
            ["src/spades/solver/_kernel.c"],
            extra_compile_args=["-O3"],
        )
    )
    ext_modules.append(
        Extension(
            "spades.rl._observations",
            ["src/spades/rl/_observations.c"],
            extra_compile_args=["-O3"],
        )
    )
    # A SIGBUS from SQLite's WAL index cut under a statement, repaired in
    # place instead of ending the server (storage/wal_index.py).
    ext_modules.append(Extension("spades.storage._sigbus", ["src/spades/storage/_sigbus.c"]))
    ext_modules.append(
        Extension(
            "spades.bots.search._playout",
            ["src/spades/bots/search/_playout.c"],
            extra_compile_args=["-O3"],
        )
    )

setup(ext_modules=ext_modules)
