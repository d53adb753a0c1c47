"""Fixtures for the tests that store games: on SQLite, and on PostgreSQL for
the modules marked ``both_databases`` (see ``tests/databases.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import URL

from .databases import DATABASES, fresh_postgres_schema, postgres_server_url


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_databases: run each test on SQLite and on PostgreSQL (db_url)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # A test that drives Chromium is a browser test wherever it lives: marked here
    # from the fixture it asks for, so no browser test can miss its mark.
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


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
