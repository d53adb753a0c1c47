"""Schema migrations: a new database gets today's tables, an older one is refused
until `spades db upgrade` brings it up to date with every game kept, and a
database from a newer spades is never touched. On SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    insert,
    select,
    text,
)
from sqlalchemy import (
    inspect as sa_inspect,
)
from typer.testing import CliRunner

from spades.cli.app import app as cli
from spades.server.app import create_app
from spades.server.deps import COOKIE
from spades.storage import (
    GameRepository,
    SchemaError,
    SchemaState,
    database_engine,
    owner_key,
    schema_status,
)
from spades.storage.models import Base
from spades.storage.schema import _config, head_revision

from ..output import said
from ..server.conftest import QUICK, south_move, start_game

pytestmark = pytest.mark.both_databases  # (see tests/conftest.py)

GAMES = Base.metadata.tables["games"]

# The games table as spades made it before migrations, before the undo setting
# (commit 89bc81a): the oldest database anyone can have.
BEFORE_MIGRATIONS = MetaData()
Table(
    "games",
    BEFORE_MIGRATIONS,
    Column("id", String(32), primary_key=True),
    Column("owner", String(64), nullable=False, index=True),
    Column("seed", BigInteger, nullable=False),
    Column("partner_level", String(32), nullable=False),
    Column("opponent_level", String(32), nullable=False),
    Column("record", JSON, nullable=False),
    Column("hand_number", Integer, nullable=False),
    Column("finished", Boolean, nullable=False),
    Column("winner", String(2)),
    Column("version", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False, index=True),
)


def status_of(url: str) -> Any:
    engine = database_engine(url)
    try:
        with engine.connect() as connection:
            return schema_status(connection)
    finally:
        engine.dispose()


def migrate(url: str, revision: str) -> None:
    """Run the migrations up to ``revision`` (as an older spades left the database)."""
    engine = database_engine(url)
    with engine.begin() as connection:
        command.upgrade(_config(connection), revision)
    engine.dispose()


@pytest.fixture(scope="module")
def games_in_play(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, dict[str, Any], list[Any]]:
    """A player's cookie, their game as the page last saw it, and the stored rows:
    two games, one finished and one being played."""
    url = f"sqlite:///{tmp_path_factory.mktemp('source') / 'games.db'}"
    app = create_app(url, default_level="random")
    with TestClient(app) as client:
        body = start_game(client, seed=11, **QUICK)
        while body["game"]["phase"] != "over":
            body = south_move(client, body["game"]).json()
        game = start_game(client, seed=12, **QUICK)["game"]
        for _ in range(8):
            game = south_move(client, game).json()["game"]
        cookie = client.cookies[COOKIE]
    with app.state.repository.engine.connect() as connection:
        rows = [dict(row._mapping) for row in connection.execute(select(GAMES))]
    app.state.repository.close()
    return cookie, game, rows


def plays_on(url: str, cookie: str, game: dict[str, Any]) -> None:
    """The upgraded database serves the game as it was, and play goes on to the end."""
    app = create_app(url, default_level="random")
    with TestClient(app, cookies={COOKIE: cookie}) as client:
        assert client.get("/api/games/latest").json()["game"] == game
        listed = client.get("/api/games").json()["games"]
        assert [entry["finished"] for entry in listed] == [False, True]
        body = {"game": game}
        while body["game"]["phase"] != "over":
            response = south_move(client, body["game"])
            assert response.status_code == 200, response.text
            body = response.json()
    app.state.repository.close()


def test_the_migrations_build_exactly_the_tables_of_the_models(db_url: str) -> None:
    GameRepository(db_url).close()  # a new database: made by the migrations
    engine = database_engine(db_url)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        assert schema_status(connection).state is SchemaState.CURRENT
    engine.dispose()


def test_a_database_of_the_previous_schema_is_refused_then_upgraded_and_played_on(
    db_url: str, games_in_play: tuple[str, dict[str, Any], list[Any]]
) -> None:
    cookie, game, rows = games_in_play
    previous = "0001"
    assert previous != head_revision()
    migrate(db_url, previous)
    engine = database_engine(db_url)
    with engine.begin() as connection:
        # Only the columns that schema had: the ones added since are the upgrade's to make.
        had = {column["name"] for column in sa_inspect(connection).get_columns("games")}
        connection.execute(
            insert(GAMES),
            [{name: value for name, value in row.items() if name in had} for row in rows],
        )
    engine.dispose()

    with pytest.raises(SchemaError, match="spades db upgrade"):
        create_app(db_url)
    refused = CliRunner().invoke(cli, ["serve", "--db", db_url])
    assert refused.exit_code == 2
    assert f"behind: at {previous}, this spades needs {head_revision()}" in said(refused.output)
    assert "then run: spades db upgrade --db" in said(refused.output)

    status = CliRunner().invoke(cli, ["db", "status", "--db", db_url])
    assert status.exit_code == 1 and "Upgrade it with: spades db upgrade" in status.output
    upgraded = CliRunner().invoke(cli, ["db", "upgrade", "--db", db_url])
    assert upgraded.exit_code == 0, upgraded.output
    assert f"upgraded from {previous} to {head_revision()}; every game kept" in upgraded.output
    again = CliRunner().invoke(cli, ["db", "upgrade", "--db", db_url])
    assert again.exit_code == 0 and "nothing to do" in again.output
    plays_on(db_url, cookie, game)


def test_a_database_made_before_migrations_is_upgraded_keeping_its_games(
    db_url: str, games_in_play: tuple[str, dict[str, Any], list[Any]]
) -> None:
    cookie, game, rows = games_in_play
    engine = database_engine(db_url)
    BEFORE_MIGRATIONS.create_all(engine)
    with engine.begin() as connection:
        old = BEFORE_MIGRATIONS.tables["games"]
        connection.execute(
            insert(old), [{column.name: row[column.name] for column in old.c} for row in rows]
        )
    engine.dispose()
    before = status_of(db_url)
    assert before.state is SchemaState.BEHIND and before.revision is None
    assert "made before migrations" in before.describe()
    with pytest.raises(SchemaError, match="spades db upgrade"):
        GameRepository(db_url)

    upgraded = CliRunner().invoke(cli, ["db", "upgrade", "--db", db_url])
    assert upgraded.exit_code == 0, upgraded.output
    assert "upgraded from the schema from before migrations" in upgraded.output
    assert status_of(db_url).state is SchemaState.CURRENT
    engine = database_engine(db_url)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        # Undo, unknown then, is on for the old games, as for every new one.
        assert set(connection.scalars(text("SELECT undo FROM games"))) == {True}
    engine.dispose()
    plays_on(db_url, cookie, game)


def test_a_database_from_a_newer_spades_is_refused_and_left_alone(db_url: str) -> None:
    GameRepository(db_url).close()
    engine = database_engine(db_url)
    with engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(SchemaError, match="made by a newer spades: at 9999"):
        GameRepository(db_url)
    refused = CliRunner().invoke(cli, ["db", "upgrade", "--db", db_url])
    assert refused.exit_code == 1 and "Not upgraded" in refused.output
    assert status_of(db_url).revision == "9999"


def test_status_of_a_new_database_and_an_unreachable_one(db_url: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["db", "status", "--db", db_url])
    assert result.exit_code == 0 and "empty: no tables yet" in result.output
    made = CliRunner().invoke(cli, ["db", "upgrade", "--db", db_url])
    assert made.exit_code == 0 and f"made the tables (schema {head_revision()})" in made.output
    result = CliRunner().invoke(cli, ["db", "status", "--db", db_url])
    assert result.exit_code == 0 and "up to date" in result.output
    nowhere = "postgresql://someone:secret@127.0.0.1:1/none"
    result = CliRunner().invoke(cli, ["db", "status", "--db", nowhere])
    assert result.exit_code == 2 and "cannot open the database" in said(result.output)
    assert "secret" not in said(result.output)


def test_tables_with_friends_from_before_seat_links_upgrade_cleanly(
    db_url: str, games_in_play: tuple[str, dict[str, Any], list[Any]]
) -> None:
    """A database of 0005 holding a finished table game upgrades to seat links:
    the table's game stays as it was, the player's statistics count their own
    games (a seat taken then cannot be linked: the table knew it by its own
    secret), and a seat taken after the upgrade counts."""
    cookie, _game, rows = games_in_play
    migrate(db_url, "0005")
    finished = next(row for row in rows if row["finished"])
    table_game = {
        **finished,
        "id": "an-old-table",
        "owner": "table",
        "seating": {"host": "0" * 64, "seats": {"S": {"person": True, "key": "1" * 64}}},
    }
    engine = database_engine(db_url)
    with engine.begin() as connection:
        connection.execute(insert(GAMES), [*rows, table_game])
    engine.dispose()
    upgraded = CliRunner().invoke(cli, ["db", "upgrade", "--db", db_url])
    assert upgraded.exit_code == 0, upgraded.output
    assert "upgraded from 0005" in upgraded.output

    repository = GameRepository(db_url)
    try:
        owner = owner_key(cookie)
        assert [played.seat for played in repository.played_records(owner)] == ["S", "S"]
        stored = repository.load("table", "an-old-table")
        assert stored is not None and stored.seating == table_game["seating"]
        repository.link_seat(owner, "an-old-table", "E")
        repository.link_seat(owner, "an-old-table", "E")  # again: still one link
        assert sorted(entry.seat for entry in repository.played_records(owner)) == ["E", "S", "S"]
        repository.unlink_seat("an-old-table", "E")
        assert len(repository.played_records(owner)) == 2
    finally:
        repository.close()
