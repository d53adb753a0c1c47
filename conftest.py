"""Test collection settings shared by the whole suite."""

# These modules are compiled by mypyc, and pytest cannot collect doctests from
# a compiled module; tests/test_doctests.py runs their doctests on the source.
collect_ignore = [
    "src/spades/core/cards.py",
    "src/spades/core/hand.py",
    "src/spades/core/scoring.py",
    "src/spades/solver/dds.py",
    # Alembic's entry point runs only inside a migration (alembic.context is set then).
    "src/spades/storage/migrations/env.py",
]
