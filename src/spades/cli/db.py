"""``spades db``: the game database's schema (``status``) and its migrations (``upgrade``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from spades.storage import GameRepository

db_app = typer.Typer(
    help="The web game's database: see where its schema stands, and upgrade it.",
    no_args_is_help=True,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        metavar="URL",
        help="The database, as for spades serve (default: the SQLite file in your data directory).",
    ),
]


@db_app.command()
def status(db: DbOption = None) -> None:
    """Say whether the database's schema is the one this spades needs."""
    from spades.storage import SchemaState, schema_status

    engine, where = _open(db)
    try:
        with engine.connect() as connection:
            current = schema_status(connection)
    except Exception as error:
        raise _unreachable(where, error) from None
    finally:
        engine.dispose()
    typer.echo(f"{where}: {current.describe()}")
    if current.state is SchemaState.BEHIND:
        typer.echo(f"Upgrade it with: {upgrade_command(db)}")
        raise typer.Exit(1)
    if current.state is SchemaState.AHEAD:
        raise typer.Exit(1)


@db_app.command()
def upgrade(db: DbOption = None) -> None:
    """Bring the database's schema up to date, keeping every game.

    Back the database up first, and stop the servers that use it: a server of
    the old version would not understand the new schema. Running it again does
    nothing."""
    from spades.storage import SchemaError, SchemaState
    from spades.storage import upgrade as run_upgrade

    engine, where = _open(db)
    try:
        before, after = run_upgrade(engine)
    except SchemaError as error:
        typer.echo(f"Not upgraded: {error}", err=True)
        raise typer.Exit(1) from None
    except Exception as error:
        raise _unreachable(where, error) from None
    finally:
        engine.dispose()
    if before.state is SchemaState.CURRENT:
        typer.echo(f"{where}: already up to date (schema {after.head}); nothing to do.")
    elif before.state is SchemaState.EMPTY:
        typer.echo(f"{where}: made the tables (schema {after.head}).")
    else:
        was = before.revision or "the schema from before migrations"
        typer.echo(f"{where}: upgraded from {was} to {after.head}; every game kept.")


def upgrade_command(db: str | None) -> str:
    """The command that upgrades ``db``, to quote to the user (no password in it)."""
    if db is None:
        return "spades db upgrade"
    from sqlalchemy.engine import make_url

    try:
        shown = make_url(db).render_as_string(hide_password=True)
    except Exception:
        shown = "URL"
    return f"spades db upgrade --db '{shown}'"


def database_refusal(error: Exception, url: str, db: str | None) -> typer.BadParameter:
    """What to tell a user whose database (``url``, given as ``db``) could not
    be opened for games: read-only, a schema of another version, or not
    reachable at all; a usage error on ``--db``, never a traceback."""
    from spades.storage import SchemaError, SchemaState, StorageFault

    where = without_password(url)
    if isinstance(error, StorageFault):  # read-only: better refused now than every move failing
        return typer.BadParameter(
            f"the database {where!r} refuses writes ({error}); make it writable, "
            "or give another with --db",
            param_hint="--db",
        )
    if isinstance(error, SchemaError):
        status = error.status
        advice = (
            f"stop the servers using it, back it up, then run: {upgrade_command(db)}"
            if status.state is SchemaState.BEHIND
            else "use the newer spades that made it, or another database"
        )
        return typer.BadParameter(
            f"the database's schema is {status.describe()}; {advice}", param_hint="--db"
        )
    return _unreachable(where, error)  # a bad URL or a database that cannot be reached


def open_repository(db: str | None) -> GameRepository:
    """The game store at ``db`` (default: the SQLite file ``spades serve`` uses),
    or a usage error that says what is wrong with it."""
    from spades.storage import GameRepository, default_database_url

    url = db or default_database_url()
    try:
        return GameRepository(url)
    except Exception as error:
        raise database_refusal(error, url, db) from None


def without_password(url: str) -> str:
    """``url`` as it may be printed: never its password."""
    return url.split("@")[-1]


def _open(db: str | None) -> tuple[Engine, str]:
    from sqlalchemy.engine import make_url

    from spades.storage import database_engine, default_database_url

    url = db or default_database_url()
    try:
        engine = database_engine(url)
    except Exception as error:  # a malformed URL, a driver that is not installed
        raise _unreachable(url.split("@")[-1], error) from None
    return engine, make_url(url).render_as_string(hide_password=True)


def _unreachable(where: str, error: Exception) -> typer.BadParameter:
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return typer.BadParameter(
        f"cannot open the database {where!r}: {first_line}", param_hint="--db"
    )
