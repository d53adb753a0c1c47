"""Fixtures for the tests that store games: on SQLite, and on PostgreSQL for
the modules marked ``both_databases`` (see ``tests/databases.py``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from sqlalchemy.engine import URL

from .databases import DATABASES, fresh_postgres_schema, postgres_server_url


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_databases: run each test on SQLite and on PostgreSQL (db_url)"
    )


LONGEST_FIRST: Final = (
    "tests/server/test_browser_many_processes.py",
    "tests/server/play/test_browser.py",
    "tests/server/play/test_browser_first_hour.py",
    "tests/server/tables/test_browser_tables.py",
    "tests/server/test_serve_command.py",
    "tests/arena/test_cli.py",
    "tests/rl/test_vector.py",
    "tests/server/records/test_records_and_reviews.py",
    "tests/cli/test_play.py",
    "tests/server/challenge/test_browser_challenge.py",
    "tests/server/play/test_browser_house_rules.py",
    "tests/solver/test_against_brute_force.py",
    "tests/server/records/test_browser_records.py",
    "tests/server/tables/test_tables_across_processes.py",
    "tests/server/test_many_processes.py",
    "tests/server/play/test_browser_play_features.py",
    "tests/server/play/test_api.py",
    "tests/server/play/test_game_store.py",
    "tests/bots/test_strangers.py",
    "tests/arena/test_ray.py",
    "tests/session/test_ray_decider.py",
    "tests/server/test_storage_faults.py",
    "tests/server/test_crowd_benchmark.py",
    "tests/server/play/test_hidden_information.py",
    "tests/server/tables/test_live_tables_benchmark.py",
    "tests/server/test_load_benchmark.py",
    "tests/rl/test_training.py",
    "tests/cli/test_simulate_replay.py",
)
"""The modules that took longest in a full run (docs/performance.md, "The test
suite", 2026-12-02: wall seconds summed over each module's tests), longest
first; a module of one long test (the two-process browser test) leads, since
no other module can fill its worker's time once it has started. `make test`
hands out whole modules to its workers in collection order (``--dist loadfile
--no-loadscope-reorder``): these go first, so
that the last module a worker starts is a short one and the other worker does
not wait long for it. (xdist's own order, most tests first, put the
one-test modules of a minute and more at the end.) A module missing here only
runs later; a name gone stale is ignored."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A test that drives Chromium is a browser test wherever it lives: marked here
    # from the fixture it asks for, so no browser test can miss its mark.
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    # The longest modules first, then the others by how many tests they hold
    # (xdist's order); each module's tests keep their order (a stable sort).
    modules = Counter(module_of(item) for item in items)
    rank = {module: place for place, module in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: (rank.get(module_of(item), len(rank)), -modules[module_of(item)]))


def module_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "database" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "both_databases"
    ):
        metafunc.parametrize("database", DATABASES, indirect=True)


@pytest.fixture
def database(request: pytest.FixtureRequest) -> str:
    """Which database ``db_url`` is: SQLite unless the test runs on both."""
    name: str = getattr(request, "param", "sqlite")
    return name


@pytest.fixture(scope="session")
def postgres_server() -> URL:
    return postgres_server_url()


@pytest.fixture
def postgres_url(postgres_server: URL) -> Iterator[str]:
    """A PostgreSQL URL whose tables start empty (a schema of its own)."""
    yield from fresh_postgres_schema(postgres_server)


@pytest.fixture
def db_url(database: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """An empty database of the test's kind."""
    if database == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
