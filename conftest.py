"""Test collection settings shared by the whole suite."""

# These modules are compiled by mypyc, and pytest cannot collect doctests from
# a compiled module; tests/test_doctests.py runs their doctests on the source.
collect_ignore = [
    "src/spades/core/cards.py",
    "src/spades/core/hand.py",
    "src/spades/core/scoring.py",
    "src/spades/core/seats.py",
    "src/spades/core/view.py",
    "src/spades/solver/dds.py",
    "src/spades/bots/knowledge/play.py",
    "src/spades/bots/knowledge/memory.py",
    "src/spades/bots/knowledge/learned_bidding.py",
    "src/spades/bots/knowledge/features.py",
    "src/spades/bots/knowledge/bidding.py",
    "src/spades/bots/search/sampler.py",
    "src/spades/bots/search/inference.py",
    "src/spades/bots/search/playouts.py",
    "src/spades/bots/valuation.py",
    "src/spades/rl/tracker.py",
    # No doctests, and importing it imports PyTorch: 1-2 s of CPU in every test
    # process at collection (tests/rl/test_training.py imports it when it runs).
    "src/spades/rl/ppo.py",
    # Alembic's entry point runs only inside a migration (alembic.context is set then).
    "src/spades/storage/migrations/env.py",
]
