"""``spades serve``: the web game, played in the browser as South.

One process by default. ``--workers N`` runs N server processes (uvicorn's
workers, restarted if one dies) over a database server: they share nothing
but the database, whose row versions make two processes acting on one game at
once refuse the later save instead of losing or repeating a move.
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

if TYPE_CHECKING:
    from fastapi import FastAPI

LIMITS_VARIABLE: Final = "SPADES_LIMITS"
SETTINGS_VARIABLE: Final = "SPADES_SERVE_SETTINGS"
"""How the command hands its settings to worker processes, which uvicorn
starts afresh: they build the app from this (see ``worker_app``)."""


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="Where games are stored: sqlite:///path/to/file.db or postgresql://user@host/db "
            "(default: an SQLite file in your data directory).",
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            help="Bot level new games seat unless the player picks another "
            "(default: the strongest that answers within a second, expert).",
        ),
    ] = None,
    review_deals: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Deals sampled for each play when a hand is reviewed after it ends "
            "(default 24; fewer is quicker on a slow machine, more is surer).",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            metavar="WHERE",
            help="Where the search bots think: local (a process per core, the default), "
            "local:N (N processes), inline (in the server's process), ray (a Ray on this "
            "machine) or ray://HOST:PORT (a Ray cluster of bot machines).",
        ),
    ] = "local",
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes to run (default 1). More than one needs a database "
            "server (--db postgresql://...): SQLite lets one process write at a time.",
        ),
    ] = 1,
    limits: Annotated[
        str | None,
        typer.Option(
            metavar="LIMITS",
            help="What one player or address may ask: 'off', or name=N,... over the "
            "defaults, e.g. games_per_owner=200,sockets_per_seat=8 (default: "
            f"${LIMITS_VARIABLE}, else the defaults; see docs/security.md).",
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ORIGIN",
            help="Another origin (scheme://host[:port]) whose pages may act here as the "
            "server's own, e.g. behind a proxy that changes the Host; repeat for more.",
        ),
    ] = None,
) -> None:
    """Start the web game: open http://HOST:PORT in a browser and play as South."""
    import uvicorn  # imported here: the other commands do not need a web server
    from sqlalchemy.engine import make_url

    from spades.bots import BOT_LEVELS
    from spades.server.http.guards import BadOrigin, normal_origin
    from spades.server.http.rates import Limits
    from spades.storage import default_database_url

    if level is not None and level not in BOT_LEVELS:
        raise typer.BadParameter(
            f"unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})", param_hint="--level"
        )
    from spades.session import make_decider

    try:
        make_decider(bots)  # only checks the name: nothing starts until a bot thinks
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--bots") from None
    if workers > 1 and bots == "local":
        # Each server process has its own pool: share the cores out between them.
        bots = f"local:{max(1, _cores() // workers)}"
    url = db or default_database_url()
    written_limits = limits if limits is not None else os.environ.get(LIMITS_VARIABLE, "")
    try:
        Limits.parse(written_limits)
        origins = [normal_origin(origin) for origin in allow_origin or []]
    except ValueError as error:
        hint = "--allow-origin" if isinstance(error, BadOrigin) else "--limits"
        raise typer.BadParameter(str(error), param_hint=hint) from None
    settings = {
        "db": url,
        "level": level,
        "review_deals": review_deals,
        "limits": written_limits,
        "allowed_origins": origins,
        "bots": bots,
    }
    if workers > 1 and _is_sqlite(url):
        raise typer.BadParameter(
            "several server processes need a database server, such as "
            "--db postgresql://user@host/spades: with SQLite they would queue for its "
            "one writer (one process serves many players: see docs/performance.md)",
            param_hint="--workers",
        )
    # The app is made here even for workers: a database that cannot be used is
    # refused once, before any process starts, and a new one gets its tables once.
    app = _open_app(settings, db)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = make_url(url).render_as_string(hide_password=True)
    processes = f"; {workers} processes" if workers > 1 else ""
    thinking = app.state.service.decider.describe()
    typer.echo(
        f"Spades is at http://{shown}:{port}  (games stored in {where}{processes}; "
        f"{thinking}; Ctrl-C to stop)"
    )
    if workers == 1:
        try:
            app.state.service.decider.start()  # a cluster that cannot be reached: say so now
        except RuntimeError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        uvicorn.run(app, host=host, port=port, log_level="warning")
        return
    app.state.repository.close()  # each worker opens its own
    os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
    uvicorn.run(
        f"{__name__}:worker_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level="warning",
    )


def worker_app() -> FastAPI:
    """The app of one worker process, made from the settings ``serve`` left."""

    settings = json.loads(os.environ[SETTINGS_VARIABLE])
    return _create(settings)


def _create(settings: dict[str, Any]) -> FastAPI:
    from spades.server.app import create_app
    from spades.server.http.rates import Limits

    return create_app(
        settings["db"],
        default_level=settings["level"],
        review_deals=settings["review_deals"],
        limits=Limits.parse(settings["limits"]),
        allowed_origins=settings["allowed_origins"],
        bots=settings["bots"],
    )


def _cores() -> int:
    from spades.bots.search.helpers import usable_cores

    return usable_cores()


def _open_app(settings: dict[str, Any], db: str | None) -> FastAPI:
    from spades.storage import SchemaError, SchemaState, StorageFault

    from .db import upgrade_command

    url = settings["db"]
    try:
        return _create(settings)
    except StorageFault as error:  # read-only: better refused now than every move failing
        where = _without_password(url)
        raise typer.BadParameter(
            f"the database {where!r} refuses writes ({error}); make it writable, "
            "or give another with --db",
            param_hint="--db",
        ) from None
    except SchemaError as error:
        status = error.status
        advice = (
            f"stop the servers using it, back it up, then run: {upgrade_command(db)}"
            if status.state is SchemaState.BEHIND
            else "use the newer spades that made it, or another database"
        )
        raise typer.BadParameter(
            f"the database's schema is {status.describe()}; {advice}", param_hint="--db"
        ) from None
    except Exception as error:  # a bad URL or a database that cannot be reached
        where = _without_password(url)
        raise typer.BadParameter(
            f"cannot open the database {where!r}: {error}", param_hint="--db"
        ) from None


def _without_password(url: str) -> str:
    """``url`` as it may be printed: never its password."""
    return url.split("@")[-1]


def _is_sqlite(url: str) -> bool:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).get_backend_name() == "sqlite"
    except Exception:  # not a URL at all: opening it says why
        return False
