"""The game store failing under the server: SQLite's write lock held by
another process, a database server gone, a file that refuses writes, SQLite's
index file cut by another program.

None of them may freeze the other players (the storing runs off the event
loop), none is a plain-text 500 (one handler answers a JSON 503 with
Retry-After and the rule), and a read-only database is refused at start.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine
from typer.testing import CliRunner

from spades.cli.app import app as cli
from spades.server.app import create_app
from spades.storage import StorageFault
from spades.storage.outages import REPEAT_SECONDS

from .conftest import QUICK, south_move, start_game
from .serving import serve_on_a_free_port


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def make_app(database: Path, storage_wait: float) -> FastAPI:
    return create_app(f"sqlite:///{database}", default_level="normal", storage_wait=storage_wait)


@pytest.fixture
def writer_elsewhere(database: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection to the file, as `sqlite3 games.db` would be:
    the test takes and releases the write lock with it."""
    connection = sqlite3.connect(database, isolation_level=None, timeout=0)
    yield connection
    connection.close()


def test_a_write_lock_held_elsewhere_freezes_no_other_player(
    database: Path, writer_elsewhere: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock is held until the other requests were answered: had the move's
    save waited on the event loop, they would have waited behind it (30 s)."""
    app = make_app(database, storage_wait=30)
    with TestClient(app) as player, TestClient(app) as other:
        game = start_game(player, seed=5, **QUICK)["game"]
        others_game = start_game(other, seed=6, **QUICK)["game"]
        saving = threading.Event()
        save = app.state.repository.save

        def noting_save(*args: Any) -> int:
            saving.set()
            version: int = save(*args)
            return version

        monkeypatch.setattr(app.state.repository, "save", noting_save)
        writer_elsewhere.execute("BEGIN IMMEDIATE")
        answers: list[int] = []
        mover = threading.Thread(
            target=lambda: answers.append(south_move(player, game).status_code)
        )
        mover.start()
        try:
            assert saving.wait(timeout=30)
            assert player.get("/api/levels").status_code == 200
            assert other.get(f"/api/games/{others_game['id']}").status_code == 200
            assert other.get("/api/games").status_code == 200
            assert answers == [], "the move is still waiting for the lock"
        finally:
            writer_elsewhere.execute("COMMIT")
            mover.join(timeout=30)
        assert answers == [200]
    app.state.repository.close()


def test_a_lock_not_had_in_time_is_a_json_503_to_retry(
    database: Path, writer_elsewhere: sqlite3.Connection
) -> None:
    app = make_app(database, storage_wait=0.2)
    with TestClient(app) as player:
        game = start_game(player, seed=5, **QUICK)["game"]
        writer_elsewhere.execute("BEGIN IMMEDIATE")
        try:
            refused = south_move(player, game)
            assert refused.status_code == 503, refused.text
            assert refused.json()["rule"] == "storage-busy"
            assert int(refused.headers["Retry-After"]) >= 1
            started = player.post("/api/games", json={"seed": 2, **QUICK})
            assert started.status_code == 503 and started.json()["rule"] == "storage-busy"
            assert player.get(f"/api/games/{game['id']}").status_code == 200  # reads go on
        finally:
            writer_elsewhere.execute("COMMIT")
        assert south_move(player, game).status_code == 200, "nothing half-done was kept"
    app.state.repository.close()


def test_a_database_server_gone_mid_service_answers_503_and_recovers(database: Path) -> None:
    """A database server stopped: connecting is refused. (The abuse suite,
    benchmarks/abuse.py, stops a real PostgreSQL under two workers.)"""
    app = make_app(database, storage_wait=2)
    repository = app.state.repository
    with TestClient(app) as player:
        game = start_game(player, seed=5, **QUICK)["game"]
        working = repository.engine
        repository.engine = create_engine("postgresql+psycopg://spades@127.0.0.1:9/gone")
        try:
            repository.played = type(repository.played)()  # nothing kept: every load asks
            for response in (
                player.get(f"/api/games/{game['id']}"),
                south_move(player, game),
                player.get(f"/api/games/{game['id']}/record"),
            ):
                assert response.status_code == 503, response.text
                assert response.headers["content-type"] == "application/json"
                assert response.json()["rule"] == "storage-unavailable"
                assert response.headers["Retry-After"] == "5"
        finally:
            repository.engine.dispose()
            repository.engine = working
        assert south_move(player, game).status_code == 200
    app.state.repository.close()


def read_only_url(database: Path) -> str:
    """The file opened read-only, as a read-only file or mount opens it (the
    tests run as root, for whom a file's mode is no obstacle)."""
    make_app(database, storage_wait=1).state.repository.close()  # it exists, with its tables
    return f"sqlite:///file:{database}?mode=ro&uri=true"


def test_a_read_only_database_is_refused_at_start(database: Path) -> None:
    url = read_only_url(database)
    with pytest.raises(StorageFault) as refused:
        create_app(url)
    assert refused.value.rule == "storage-read-only"
    result = CliRunner().invoke(cli, ["serve", "--db", url])
    assert result.exit_code == 2
    assert "refuses writes" in result.output and "Traceback" not in result.output


CUT_THE_INDEX = """
import os, sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("PRAGMA journal_mode=WAL")
connection.execute("CREATE TABLE t (x)")
connection.execute("INSERT INTO t VALUES (1)")
os.truncate(sys.argv[1] + "-shm", 0)
connection.execute("SELECT count(*) FROM t")
"""


CUT_DURING_A_STATEMENT = """
import os, sqlite3, sys
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from spades.storage.repository import database_engine
from spades.storage.wal_index import IndexCut

database = sys.argv[1]
index = database + "-shm"
# Another program's connection writes 200 rows of 3 kB into the log and stays
# open, so no checkpoint moves them into the file: a fresh connection reading
# them looks each page up in the mapped index.
writer = sqlite3.connect(database, isolation_level=None)
writer.execute("PRAGMA journal_mode=WAL")
writer.execute("PRAGMA wal_autocheckpoint=0")
writer.execute("CREATE TABLE t (x BLOB)")
writer.execute("BEGIN")
for _ in range(200):
    writer.execute("INSERT INTO t VALUES (randomblob(3000))")
writer.execute("COMMIT")

engine = database_engine(f"sqlite:///{database}")
with engine.connect() as connection:
    connection.execute(text("SELECT 1"))  # SQLAlchemy's connect hook, then this: held
    raw = connection.connection.driver_connection

    def cut(row):  # the cut lands during the statement, after its check
        if row == 1:
            os.truncate(index, 0)
        return row

    raw.create_function("cut", 1, cut)
    try:
        read = connection.execute(text("SELECT cut(rowid), length(x) FROM t")).fetchall()
        print("read", len(read))
    except DBAPIError as error:  # pages read from the file, not the log
        print("failed", type(error.orig).__name__)
    try:
        connection.execute(text("SELECT count(*) FROM t"))
        print("served after the cut")
    except DBAPIError as error:
        print("refused", isinstance(error.orig, IndexCut), error.orig.storage_rule)
from spades.storage import _sigbus
print("repaired", _sigbus.repair_count(os.path.realpath(index)))
engine.dispose()
writer.close()
again = sqlite3.connect(database)
print("kept", again.execute("SELECT count(*) FROM t").fetchone()[0],
      again.execute("PRAGMA integrity_check").fetchone()[0])
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the SIGBUS is Linux's answer")
def test_an_index_cut_during_a_statement_is_repaired_then_refused(database: Path) -> None:
    """The cut the watch cannot see coming: another program truncates the index
    while a statement, past its check, is reading the log through it. The SIGBUS
    it brings is repaired in the process (``_sigbus.c``): the statement ends
    (with its rows, or an error), the process lives, every statement after it is
    refused as a cut, and once every connection closed SQLite rebuilds the index
    from the log: every row is kept."""
    pytest.importorskip("spades.storage._sigbus", reason="the C guard is not built")
    done = subprocess.run(
        [sys.executable, "-c", CUT_DURING_A_STATEMENT, str(database)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, (done.returncode, done.stderr)
    lines = done.stdout.splitlines()
    assert lines[0] in ("read 200", "failed DatabaseError"), lines
    assert lines[1:] == ["refused True storage-index", "repaired 1", "kept 200 ok"], lines


def answer(url: str, method: str = "GET", cookie: str = "") -> tuple[int, dict[str, Any], Any]:
    """Status, headers and JSON body of a request a script (no browser) sends."""
    request = urllib.request.Request(
        url,
        method=method,
        data=b"{}" if method == "POST" else None,
        headers={"Content-Type": "application/json", "Cookie": cookie},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), json.loads(refused.read())


@pytest.mark.slow  # starts the server twice
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the SIGBUS is Linux's answer")
def test_an_index_cut_under_the_server_is_a_503_not_a_sigbus(database: Path) -> None:
    """Another program truncates SQLite's -shm index while the server has it
    mapped. Unwatched, the next statement is a SIGBUS that kills the process
    (shown first, in a process of its own); the server refuses every read and
    write with a JSON 503 instead, keeps serving what needs no store, stops
    cleanly, and started again finds every game it acknowledged. Before that,
    the index made immutable (as root) is refused as read-only while it lasts."""
    unwatched = subprocess.run(
        [sys.executable, "-c", CUT_THE_INDEX, str(database.with_name("plain.db"))], check=False
    )
    assert unwatched.returncode == -signal.SIGBUS

    arguments = ["--db", f"sqlite:///{database}", "--level", "random", "--limits", "off"]
    server, url = serve_on_a_free_port(arguments, patience=120)
    try:
        status, headers, body = answer(f"{url}/api/games", "POST")
        assert status == 201
        cookie = headers["set-cookie"].split(";")[0]
        game = body["game"]
        index = f"{database}-shm"
        if subprocess.run(["chattr", "+i", index], check=False).returncode == 0:  # root only
            try:  # a write to a mapped page of an immutable file is a SIGBUS too
                status, headers, body = answer(f"{url}/api/games", "POST", cookie)
                assert status == 503 and body["rule"] == "storage-read-only", body
            finally:
                subprocess.run(["chattr", "-i", index], check=True)
            assert answer(f"{url}/api/games", "POST", cookie)[0] == 201  # writable again
        os.truncate(index, 0)
        for method, path in (("GET", f"/api/games/{game['id']}"), ("POST", "/api/games")):
            status, headers, body = answer(url + path, method, cookie)
            assert status == 503, body
            assert body["rule"] == "storage-index"
            assert headers["retry-after"] == "60"
        assert answer(f"{url}/api/levels")[0] == 200
        assert server.process.poll() is None
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=60) == -signal.SIGTERM  # as uvicorn ends itself
    finally:
        server.stop()
    server, url = serve_on_a_free_port(arguments, patience=120)
    try:
        status, _headers, body = answer(f"{url}/api/games/{game['id']}", cookie=cookie)
        assert status == 200
        assert body["game"]["version"] == game["version"]
    finally:
        server.stop()


def test_the_refusals_of_a_lasting_fault_are_said_once_a_minute_with_their_count(
    database: Path, writer_elsewhere: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    """A crowd meeting a locked database must not fill the log a line a
    request: the first refusal is said, the next ones within REPEAT_SECONDS
    (on the app's clock) only counted, in the line said after."""
    now = [1_000.0]
    app = create_app(
        f"sqlite:///{database}", default_level="normal", storage_wait=0.05, clock=lambda: now[0]
    )
    with TestClient(app) as player:
        game = start_game(player, seed=5, **QUICK)["game"]
        writer_elsewhere.execute("BEGIN IMMEDIATE")
        try:
            with caplog.at_level(logging.WARNING, logger="spades.server.errors"):
                for _ in range(4):
                    assert south_move(player, game).status_code == 503
                now[0] += REPEAT_SECONDS
                assert south_move(player, game).status_code == 503
        finally:
            writer_elsewhere.execute("COMMIT")
    app.state.repository.close()
    said = [
        record.getMessage()
        for record in caplog.records
        if "storage fault on" in record.getMessage()
    ]
    assert len(said) == 2, said
    assert (
        said[0].startswith("storage fault on POST /api/games/") and "more requests" not in said[0]
    )
    assert "and 3 more requests refused for storage faults in the 60 s before" in said[1]
