"""``spades serve``: the web game, played in the browser as South."""

from __future__ import annotations

from typing import Annotated

import typer


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
) -> None:
    """Start the web game: open http://HOST:PORT in a browser and play as South."""
    import uvicorn  # imported here: the other commands do not need a web server
    from sqlalchemy.engine import make_url

    from spades.bots import BOT_LEVELS
    from spades.server import create_app
    from spades.storage import default_database_url

    if level is not None and level not in BOT_LEVELS:
        raise typer.BadParameter(
            f"unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})", param_hint="--level"
        )
    url = db or default_database_url()
    try:
        app = create_app(url, default_level=level, review_deals=review_deals)
    except Exception as error:  # a bad URL or a database that cannot be reached
        where = url.split("@")[-1]  # never echo a password
        raise typer.BadParameter(
            f"cannot open the database {where!r}: {error}", param_hint="--db"
        ) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = make_url(url).render_as_string(hide_password=True)
    typer.echo(f"Spades is at http://{shown}:{port}  (games stored in {where}; Ctrl-C to stop)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
