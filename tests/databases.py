"""The databases the storage, API and persistence tests run on: an SQLite file,
and a PostgreSQL server (each test in a schema of its own, dropped after it).

The server is ``$SPADES_TEST_POSTGRES``, by default the one ``.ci/run`` sets up
on this machine. Without one the PostgreSQL half of those tests is skipped,
saying so, except in CI (``CI`` set), where a missing server fails them: a
change that breaks PostgreSQL must not pass CI unseen.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from typing import Final

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

POSTGRES_VARIABLE: Final = "SPADES_TEST_POSTGRES"
DEFAULT_POSTGRES: Final = "postgresql://spades:spades@127.0.0.1:5432/spades_test"
DATABASES: Final = ("sqlite", "postgresql")


def postgres_server_url() -> URL:
    """The PostgreSQL server the tests use; fails or skips (see above) when it cannot be reached."""
    url = make_url(os.environ.get(POSTGRES_VARIABLE) or DEFAULT_POSTGRES)
    url = url.set(drivername="postgresql+psycopg")
    engine = create_engine(url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except Exception as error:
        reason = (
            f"no PostgreSQL server at {url.render_as_string(hide_password=True)} "
            f"({str(error).strip().splitlines()[0]}): set {POSTGRES_VARIABLE}=postgresql://"
            "user:password@host/db, or set one up as .ci/run does"
        )
        if os.environ.get("CI"):
            pytest.fail(f"CI runs every storage test on PostgreSQL too, but found {reason}")
        pytest.skip(reason)
    finally:
        engine.dispose()
    return url


def fresh_postgres_schema(server: URL) -> Iterator[str]:
    """A URL whose tables live in a new, empty schema of ``server``, dropped afterwards.

    A schema, not a database: making one takes a millisecond, and every
    process given the URL (a server started by a test) uses the same schema."""
    schema = f"test_{secrets.token_hex(6)}"
    engine = create_engine(server)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        url = server.update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with engine.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()
