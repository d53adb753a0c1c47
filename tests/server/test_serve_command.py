"""`spades serve`: its options, a database it cannot open or a port it cannot
take refused with a reason, and the port it binds named in its first line."""

from __future__ import annotations

import json
import signal
import socket
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spades.cli.app import app
from spades.cli.serve import ANNOUNCEMENT, bind_sockets

from ..output import said
from .serving import ServeProcess, serve_on_a_free_port


def test_serve_is_a_command_with_host_port_and_db() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--level"):
        assert option in result.output


def test_a_database_it_cannot_open_is_refused_without_echoing_a_password() -> None:
    result = CliRunner().invoke(app, ["serve", "--db", "nosuchdb://user:secret@localhost/x"])
    assert result.exit_code == 2
    assert "cannot open the database" in result.output
    assert "secret" not in result.output


def test_an_unknown_default_level_is_refused() -> None:
    result = CliRunner().invoke(app, ["serve", "--level", "grandmaster"])
    assert result.exit_code == 2
    assert "unknown bot level 'grandmaster'" in result.output


def test_a_port_in_use_is_refused_with_a_reason(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:  # held by the test: surely in use
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            app, ["serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'games.db'}"]
        )
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in said(result.output)


def test_a_file_descriptor_that_is_no_socket_is_refused(tmp_path: Path) -> None:
    with (tmp_path / "not-a-socket").open("w") as file:
        result = CliRunner().invoke(
            app,
            ["serve", "--fd", str(file.fileno()), "--db", f"sqlite:///{tmp_path / 'games.db'}"],
        )
    assert result.exit_code == 2
    assert "is not a socket" in said(result.output)


@pytest.mark.slow  # starts the server, three times
def test_port_0_serves_on_the_port_its_first_line_names(tmp_path: Path) -> None:
    server, url = serve_on_a_free_port(
        ["--db", f"sqlite:///{tmp_path / 'games.db'}", "--level", "random"], patience=120
    )
    try:
        port = int(url.rsplit(":", 1)[1])
        assert port > 0
        assert urllib.request.urlopen(f"{url}/api/levels", timeout=30).status == 200
    finally:
        server.stop()


@pytest.mark.slow
def test_an_inherited_socket_keeps_its_port_across_a_restart(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as held:
        held.set_inheritable(True)
        url = f"http://127.0.0.1:{held.getsockname()[1]}"
        arguments = ["--fd", str(held.fileno()), "--db", f"sqlite:///{tmp_path / 'games.db'}"]
        for _ in range(2):  # stopped and started again: the same port, held all along
            server = ServeProcess([*arguments, "--level", "random"], pass_fds=[held.fileno()])
            try:
                server.wait_until_it_answers(url, patience=120)
                announced = ANNOUNCEMENT.search(server.output().splitlines()[0])
                assert announced is not None and announced[1] == url
            finally:
                server.stop()


@pytest.mark.slow
def test_stopped_by_sigterm_after_hints_it_leaves_no_semaphore_behind(tmp_path: Path) -> None:
    """A hint's search runs in the server's pool of bot processes; uvicorn,
    stopped by SIGTERM, ends the process by SIGTERM once it has shut down, so
    what the server started must be shut down by then, or multiprocessing's
    resource tracker reports its semaphores leaked."""
    server, url = serve_on_a_free_port(
        ["--db", f"sqlite:///{tmp_path / 'games.db'}", "--level", "random"], patience=120
    )
    try:
        request = urllib.request.Request(
            f"{url}/api/games", data=b"{}", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:
            cookie = answer.headers["Set-Cookie"].split(";")[0]
            game_id = json.loads(answer.read())["game"]["id"]
        hint = urllib.request.Request(f"{url}/api/games/{game_id}/hint", headers={"Cookie": cookie})
        with urllib.request.urlopen(hint, timeout=120) as answer:
            assert answer.status == 200
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=60) == -signal.SIGTERM  # as uvicorn ends itself
        output = server.output_to_the_end(timeout=60)
    finally:
        server.stop()
    assert "leaked" not in output, output


def binds_ipv6_loopback() -> bool:
    """Whether this machine has ::1 (IPv6 may be turned off)."""
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


def test_localhost_is_bound_on_both_loopback_addresses_on_one_port() -> None:
    """Whatever the resolver lists for the name (here /etc/hosts may give
    127.0.0.1 only): a browser takes localhost for both."""
    bound = bind_sockets("localhost", 0)
    try:
        addresses = {listening.getsockname()[0] for listening in bound}
        ports = {listening.getsockname()[1] for listening in bound}
        expected = {"127.0.0.1", "::1"} if binds_ipv6_loopback() else {"127.0.0.1"}
        assert addresses == expected
        assert len(ports) == 1 and ports != {0}
    finally:
        for listening in bound:
            listening.close()


def test_every_address_a_name_resolves_to_is_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    if not binds_ipv6_loopback():
        pytest.skip("this machine has no ::1")
    both = [
        (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", 0, 0, 0)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 0)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", 0)),  # listed twice: once
    ]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *_args, **_kwargs: both)
    bound = bind_sockets("my-host.example", 0)
    try:
        assert [listening.getsockname()[0] for listening in bound] == ["::1", "127.0.0.1"]
    finally:
        for listening in bound:
            listening.close()


@pytest.mark.slow
def test_serve_on_localhost_answers_on_each_loopback_address(tmp_path: Path) -> None:
    server, url = serve_on_a_free_port(
        ["--host", "localhost", "--db", f"sqlite:///{tmp_path / 'games.db'}", "--level", "random"],
        patience=120,
    )
    try:
        port = int(url.rsplit(":", 1)[1])
        first_line = server.output().splitlines()[0]
        addresses = ["127.0.0.1", "[::1]"] if binds_ipv6_loopback() else ["127.0.0.1"]
        for address in addresses:
            served = f"http://{address}:{port}"
            assert served in first_line
            assert urllib.request.urlopen(f"{served}/api/levels", timeout=30).status == 200
    finally:
        server.stop()
