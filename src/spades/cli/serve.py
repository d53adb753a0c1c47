"""``spades serve``: the web game, played in the browser as South.

One process by default. ``--workers N`` runs N server processes (uvicorn's
workers, restarted if one dies) over a database server: they share nothing
but the database, whose row versions make two processes acting on one game at
once refuse the later save instead of losing or repeating a move.

The command binds its listening sockets itself (one for each address the
host names), before it prints where it serves: ``--port 0`` takes a port the system picks, and the first line the
command prints names it (``ANNOUNCEMENT``), so a test or a benchmark starts a
server without first guessing a free port that another process may take.
"""

from __future__ import annotations

import contextlib
import errno
import inspect
import json
import os
import re
import socket
import sys
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

LIMITS_VARIABLE: Final = "SPADES_LIMITS"
SETTINGS_VARIABLE: Final = "SPADES_SERVE_SETTINGS"
"""How the command hands its settings to worker processes, which uvicorn
starts afresh: they build the app from this (see ``worker_app``)."""
ANNOUNCEMENT: Final = re.compile(r"Spades is at (http://\S+?:(\d+))\s")
"""The first line ``serve`` prints: the URL it serves, with the port it bound."""
BACKLOG: Final = 2048
"""Connections the system queues before the server accepts them (uvicorn's default)."""
SWITCH_INTERVAL: Final = 0.001
"""Seconds a thread of the web process may hold the GIL while another waits
for it (Python's default is 0.005). Every move hops between threads several
times: the event loop, the worker thread that loads it, waits for each bot's
answer and saves it. Each hop waited up to the interval for whichever thread
was computing, and a write to SQLite waited for the GIL while holding the
write lock every other move queued on. With 128 people playing
(benchmarks/crowd.py, docs/performance.md) the moves' p95 fell from about
1.1 s to 0.6 s on a loaded machine."""


def serve(
    host: Annotated[
        str,
        typer.Option(
            help="Address or name to listen on; a name is every address it resolves to "
            "(localhost: 127.0.0.1 and ::1).",
        ),
    ] = "127.0.0.1",
    port: Annotated[
        int,
        typer.Option(
            min=0,
            max=65535,
            help="Port to listen on; 0 takes a free one, named in the first line printed.",
        ),
    ] = 8000,
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
    fd: Annotated[
        int | None,
        typer.Option(
            min=0,
            metavar="N",
            help="Serve on a socket this command inherits, bound, as file descriptor N "
            "(from a supervisor, or a test that keeps its port across restarts), "
            "instead of binding --host and --port.",
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
    listening = bind_sockets(host, port) if fd is None else [_inherited(fd)]
    where = make_url(url).render_as_string(hide_password=True)
    processes = f"; {workers} processes" if workers > 1 else ""
    thinking = app.state.service.decider.describe()
    also = "".join(f", also {_shown_url(more)}" for more in listening[1:])
    typer.echo(  # click flushes it: a program reading the port gets it now
        f"Spades is at {_shown_url(listening[0])}  ({also[2:] + '; ' if also else ''}"
        f"games stored in {where}{processes}; {thinking}; Ctrl-C to stop)"
    )
    if workers == 1:
        try:
            app.state.service.decider.start()  # a cluster that cannot be reached: say so now
        except RuntimeError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
        _run_one(uvicorn.Config(app, log_level="warning", backlog=BACKLOG), listening)
        return
    app.state.repository.close()  # each worker opens its own
    os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
    config = uvicorn.Config(
        f"{__name__}:worker_app",
        factory=True,
        workers=workers,
        log_level="warning",
        backlog=BACKLOG,
    )
    _run_workers(config, listening)


def bind_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address ``host`` names, on ``port`` (0: a free
    port the system picks, the same for all of them), as uvicorn would bind
    them; uvicorn listens on them once the app has started.

    ``localhost`` (and any name under it, RFC 6761) is both loopback
    addresses, 127.0.0.1 and ::1, whatever the resolver lists: a browser
    treats the name so, and a server on one of them only is refused by a
    client that tries the other. An address this machine does not have (IPv6
    turned off) is skipped as long as another one is bound."""
    try:
        addresses = _addresses(host, port)
    except OSError as error:
        raise typer.BadParameter(
            f"cannot listen on {host!r}: {error}", param_hint="--host"
        ) from None
    for _attempt in range(PORT_ATTEMPTS):
        try:
            return _bind_all(addresses, port)
        except _PortTakenOnAnother:  # port 0: the port the system gave one family is
            continue  # taken in the other; ask for another
    raise typer.BadParameter(
        f"cannot find a port free on every address of {host}", param_hint="--port"
    )


PORT_ATTEMPTS: Final = 20
LOOPBACK: Final = ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1"))


def _addresses(host: str, port: int) -> list[tuple[socket.AddressFamily, Any]]:
    """The distinct (family, socket address) pairs ``host`` names, in the
    resolver's order."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return [(family, (address, port)) for family, address in LOOPBACK]
    found: list[tuple[socket.AddressFamily, Any]] = []
    for family, _kind, _protocol, _name, address in socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    ):
        if (family, address) not in found:
            found.append((family, address))
    return found


class _PortTakenOnAnother(Exception):
    """The port the system picked for one address is in use on another."""


NOT_ON_THIS_MACHINE: Final = (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EPROTONOSUPPORT)


def _bind_all(addresses: list[tuple[socket.AddressFamily, Any]], port: int) -> list[socket.socket]:
    bound: list[socket.socket] = []
    missing: list[str] = []
    try:
        for family, address in addresses:
            if bound and port == 0:  # every address on the port the first was given
                address = (address[0], bound[0].getsockname()[1], *address[2:])
            try:
                listening = socket.socket(family, socket.SOCK_STREAM)
            except OSError as error:  # no IPv6 in this system at all
                missing.append(f"{address[0]}: {error.strerror or error}")
                continue
            try:
                listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6 and len(addresses) > 1:
                    # IPv6 only: an IPv6 wildcard would otherwise take the IPv4
                    # port too, and the IPv4 socket could not be bound beside it.
                    listening.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                listening.bind(address)
            except OSError as error:
                listening.close()
                if error.errno in NOT_ON_THIS_MACHINE:
                    missing.append(f"{address[0]}: {error.strerror or error}")
                    continue
                if error.errno == errno.EADDRINUSE and bound and port == 0:
                    raise _PortTakenOnAnother from None
                raise typer.BadParameter(
                    f"cannot listen on {address[0]} port {port}: {error.strerror or error}",
                    param_hint="--port",
                ) from None
            listening.set_inheritable(True)  # worker processes serve on it too
            bound.append(listening)
    except BaseException:
        for listening in bound:
            listening.close()
        raise
    if not bound:
        raise typer.BadParameter(
            f"cannot listen on any address: {'; '.join(missing)}", param_hint="--host"
        )
    return bound


def _inherited(fd: int) -> socket.socket:
    """The bound TCP socket at file descriptor ``fd``: its family read from it,
    so the connections it accepts are treated as TCP (no Nagle delay)."""
    try:
        inherited = socket.socket(fileno=fd)
    except OSError as error:
        raise typer.BadParameter(
            f"file descriptor {fd} is not a socket: {error.strerror or error}", param_hint="--fd"
        ) from None
    if inherited.family not in (socket.AF_INET, socket.AF_INET6) or (
        inherited.type != socket.SOCK_STREAM
    ):
        inherited.detach()  # not ours to close
        raise typer.BadParameter(f"file descriptor {fd} is not a TCP socket", param_hint="--fd")
    inherited.set_inheritable(True)
    return inherited


def _shown_url(listening: socket.socket) -> str:
    """The URL a browser on this machine opens: the address the socket is bound
    to, a wildcard one as the loopback address, IPv6 in brackets."""
    address, port = listening.getsockname()[:2]
    shown = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(address, address)
    return f"http://[{shown}]:{port}" if ":" in shown else f"http://{shown}:{port}"


def _run_one(config: uvicorn.Config, listening: list[socket.socket]) -> None:
    """What ``uvicorn.run`` does with one process, on the sockets bound here."""
    import uvicorn

    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn raises it again once stopped
        server.run(sockets=listening)
    if not server.started:  # the app's start-up failed: uvicorn has said why
        raise typer.Exit(3)


def _run_workers(config: uvicorn.Config, listening: list[socket.socket]) -> None:
    """What ``uvicorn.run`` does with several worker processes, on the sockets
    bound here. Older versions of uvicorn's supervisor are handed the function
    each worker runs, newer ones build it themselves: each is called its way."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    parameters = inspect.signature(Multiprocess.__init__).parameters
    supervisor: Any
    if "target" in parameters:
        supervisor = Multiprocess(  # type: ignore[call-arg]
            config, target=uvicorn.Server(config).run, sockets=listening
        )
    else:
        supervisor = Multiprocess(config, sockets=listening)
    with contextlib.suppress(KeyboardInterrupt):
        supervisor.run()


def worker_app() -> FastAPI:
    """The app of one worker process, made from the settings ``serve`` left."""

    settings = json.loads(os.environ[SETTINGS_VARIABLE])
    return _create(settings)


def _create(settings: dict[str, Any]) -> FastAPI:
    """The app of a web server process (the one, or each worker)."""
    from spades.server.app import create_app
    from spades.server.http.rates import Limits

    sys.setswitchinterval(SWITCH_INTERVAL)
    return create_app(
        settings["db"],
        default_level=settings["level"],
        review_deals=settings["review_deals"],
        limits=Limits.parse(settings["limits"]),
        allowed_origins=settings["allowed_origins"],
        bots=settings["bots"],
        owns_process=True,
    )


def _cores() -> int:
    from spades.bots.search.helpers import usable_cores

    return usable_cores()


def _open_app(settings: dict[str, Any], db: str | None) -> FastAPI:
    from .db import database_refusal

    try:
        return _create(settings)
    except Exception as error:  # read-only, another schema, a bad URL, unreachable
        raise database_refusal(error, settings["db"], db) from None


def _is_sqlite(url: str) -> bool:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).get_backend_name() == "sqlite"
    except Exception:  # not a URL at all: opening it says why
        return False
