"""`spades serve`: its options, and a database it cannot open refused with a reason."""

from __future__ import annotations

from typer.testing import CliRunner

from spades.cli.app import app


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
