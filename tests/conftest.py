"""Fixtures for the tests that store games: on SQLite, and on PostgreSQL for
the modules marked ``both_databases`` (see ``tests/databases.py``)."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from hypothesis import settings
from sqlalchemy.engine import URL

from .databases import DATABASES, fresh_postgres_schema, postgres_server_url

# No property test is about speed: hypothesis's default deadline (200 ms an
# example) failed them at random whenever the machine was busy, a first example
# paying for a table warmed once ("Unreliable test timings").
settings.register_profile("spades", deadline=None)
settings.load_profile("spades")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_databases: run each test on SQLite and on PostgreSQL (db_url)"
    )
    # In xdist's workers too the option is set: only the controller (or a run
    # without workers) records, from the reports of every test.
    if config.getoption("--store-durations") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(DurationRecorder(), "spades-durations")


DURATIONS: Final = Path(__file__).with_name("durations.json")
"""Each test module's time in the last full run that wrote it (wall seconds summed
over its tests' set-up, call and tear-down), longest first; refreshed by

    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python -m pytest -n 3 --dist loadfile \
        --no-loadscope-reorder --store-durations

(``make unit``'s way on 2 cores, one worker more than cores; docs/performance.md,
"The test suite"). `make test` hands out whole modules to its workers in
collection order (``--dist loadfile --no-loadscope-reorder``): the longest go
first, so that the last module a worker starts is a short one and the others do
not wait long for it. (xdist's own order, most tests first, put the one-test
modules of a minute and more at the end.) A module missing from the file runs
after those in it; a name gone stale is ignored (``tests/test_module_imports.py``
checks that the file names only modules of the suite)."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store-durations",
        action="store_true",
        help=f"write each module's time in this run to {DURATIONS.name} (modules that "
        "did not run keep their old figure), the order the next runs hand modules out in",
    )


def stored_durations() -> dict[str, float]:
    if not DURATIONS.is_file():
        return {}
    durations: dict[str, float] = json.loads(DURATIONS.read_text())
    return durations


class DurationRecorder:
    """Sums, per module, the durations of the reports this process sees: with
    xdist, the controller's, which gets every worker's."""

    def __init__(self) -> None:
        self.seconds: defaultdict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[report.nodeid.split("::", 1)[0]] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        root = Path(session.config.rootpath)
        durations = {**stored_durations(), **self.seconds}
        kept = {name: round(s, 1) for name, s in durations.items() if (root / name).is_file()}
        ordered = dict(sorted(kept.items(), key=lambda item: (-item[1], item[0])))
        DURATIONS.write_text(json.dumps(ordered, indent=1) + "\n")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A test that drives Chromium is a browser test wherever it lives: marked here
    # from the fixture it asks for, so no browser test can miss its mark.
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
    # The longest modules first (DURATIONS), then the others by how many tests they hold
    # (xdist's order); each module's tests keep their order (a stable sort).
    modules = Counter(module_of(item) for item in items)
    durations = stored_durations()
    items.sort(key=lambda item: (-durations.get(module_of(item), -1.0), -modules[module_of(item)]))


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
