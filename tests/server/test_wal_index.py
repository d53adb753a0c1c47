"""The watch on SQLite's -shm index, path by path, on a plain file standing in
for the index (no mapping, so nothing here can fault): a cut is refused ever
after, growth and another file at the name are not, a forgotten index is
taken afresh, a connection closed twice is counted once, and closing after a
cut gives the index its size back with its first region zeroed. (A real cut
under a real server: ``test_storage_faults.py``.)"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from spades.storage.wal_index import (
    FIRST_REGION,
    IndexCut,
    WalIndexWatch,
    database_file,
    watched_connection_class,
)

SIZE = 2 * FIRST_REGION


@pytest.fixture
def index(tmp_path: Path) -> Path:
    path = tmp_path / "games.db-shm"
    path.write_bytes(b"\x01" * SIZE)
    return path


@pytest.fixture
def watch(index: Path) -> WalIndexWatch:
    watching = WalIndexWatch(str(index)[: -len("-shm")])
    watching.opened()
    watching.check()  # first seen
    return watching


def test_growing_is_sqlites_doing_and_passes(index: Path, watch: WalIndexWatch) -> None:
    os.truncate(index, 3 * SIZE)
    watch.check()
    watch.check()
    assert watch.cut is None


def test_a_cut_is_refused_ever_after_even_once_regrown(index: Path, watch: WalIndexWatch) -> None:
    os.truncate(index, 100)
    with pytest.raises(IndexCut) as refused:
        watch.check()
    assert "cut from 65,536 to 100 bytes" in str(refused.value)
    assert refused.value.storage_rule == "storage-index"  # what storage_fault reads
    os.truncate(index, SIZE)
    with pytest.raises(IndexCut):
        watch.check()


def test_another_file_at_the_name_is_the_index_from_then_on(
    index: Path, watch: WalIndexWatch
) -> None:
    replacement = index.with_name("new-shm")
    replacement.write_bytes(b"\x02" * 100)
    os.replace(replacement, index)  # smaller, but not the file this process mapped
    watch.check()
    os.truncate(index, 10)  # and now that one is cut
    with pytest.raises(IndexCut):
        watch.check()


def test_a_missing_index_then_a_new_one_passes(index: Path, watch: WalIndexWatch) -> None:
    index.unlink()
    watch.check()
    index.write_bytes(b"\x03" * 10)
    watch.check()
    assert watch.cut is None


def test_once_every_connection_closed_a_smaller_index_is_a_new_one(
    index: Path, watch: WalIndexWatch
) -> None:
    watch.closing()  # the last connection: SQLite may delete the index and make another
    os.truncate(index, 100)  # (a new file may even get the old one's inode number)
    watch.opened()
    watch.check()
    assert watch.cut is None


def test_a_first_look_with_nothing_holding_the_database_is_learned_from_by_nothing(
    index: Path,
) -> None:
    """No connection of the process holds the database yet: SQLite may delete the
    index and make another (with the old one's inode number, say) before the
    asking connection's first statement has read it."""
    watch = WalIndexWatch(str(index)[: -len("-shm")])
    watch.check(holding=False)  # a new connection's first look (its pragmas)
    os.truncate(index, 100)  # a new index, smaller than the one seen
    watch.opened()  # the connection has read the database: it holds it
    watch.check()  # the index it holds is the one seen now: no cut
    assert watch.cut is None
    os.truncate(index, 10)
    with pytest.raises(IndexCut):  # while it holds the database, a cut is one
        watch.check(holding=False)  # (even for another connection's first look)


def test_an_index_deleted_during_the_look_is_not_taken_for_an_unwritable_one(
    index: Path, watch: WalIndexWatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``access`` says False for a file that is gone as for one that is immutable:
    deleted between the look's ``stat`` and its ``access``, the file is gone."""
    access = os.access

    def deleted_first(path: Any, mode: int, **options: Any) -> bool:
        if Path(path) == index:
            index.unlink(missing_ok=True)
        return access(path, mode, **options)

    monkeypatch.setattr(os, "access", deleted_first)
    watch.check()  # not IndexUnwritable (read-only)
    index.write_bytes(b"\x04" * SIZE)  # and a new one after it is taken afresh
    watch.check()
    assert watch.cut is None


def test_the_last_connection_closing_during_a_new_ones_first_look_is_no_fault(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What six players at once met on one SQLite file once
    (``test_ownership_and_persistence.py::test_many_players_at_once``): a 503
    ``storage-read-only`` while nothing was read-only. Each player's test client
    stops the app when it is done, closing every idle connection, while another
    player's request opens a new one. Made to happen here on real connections:
    the last connection holding the database closes (SQLite deletes the index)
    between the ``stat`` and the ``access`` of the new connection's first look.
    The watch then took the deleted file for one made unwritable."""
    database = str(tmp_path / "games.db")
    index = Path(database + "-shm")
    watch = WalIndexWatch(database)
    connect = watched_connection_class(watch)
    last = sqlite3.connect(database, factory=connect)
    last.cursor().execute("PRAGMA journal_mode=WAL")
    last.cursor().execute("CREATE TABLE t (x)")  # its second statement: it holds the database
    last.cursor().execute("SELECT count(*) FROM t")  # and the watch has seen its index
    assert index.exists()
    new = sqlite3.connect(database, factory=connect)  # open, but it has read nothing
    access = os.access
    closed: list[bool] = []

    def last_closes_first(path: Any, mode: int, **options: Any) -> bool:
        if Path(path) == index and not closed:
            closed.append(True)
            last.close()  # nothing else holds the database: SQLite deletes the index
            assert not index.exists()
        return access(path, mode, **options)

    monkeypatch.setattr(os, "access", last_closes_first)
    new.cursor().execute("PRAGMA journal_mode=WAL")  # its first look, overlapped by the close
    assert closed, "the close did not overlap the look"
    new.cursor().execute("INSERT INTO t VALUES (1)")  # SQLite's new index, now held
    assert new.cursor().execute("SELECT x FROM t").fetchall() == [(1,)]
    assert index.exists() and watch.cut is None
    new.close()


def test_closing_after_a_cut_gives_the_index_its_size_back_first_region_zeroed(
    index: Path, watch: WalIndexWatch
) -> None:
    os.truncate(index, 100)
    with pytest.raises(IndexCut):
        watch.check()
    watch.opened()  # a second connection
    watch.closing()
    content = index.read_bytes()
    assert len(content) == SIZE  # every page SQLite reads on closing is there again
    assert content[:FIRST_REGION] == bytes(FIRST_REGION)  # taken for an index to rebuild
    watch.closing()  # the last: the same again, and still refused
    assert len(index.read_bytes()) == SIZE
    with pytest.raises(IndexCut):
        watch.check()


def test_a_connection_closed_twice_is_counted_once(index: Path) -> None:
    """Real connections, to a database in its default journal mode: SQLite
    never maps a file of that name, so the plain file stands in safely."""
    database = str(index)[: -len("-shm")]
    connect = watched_connection_class(WalIndexWatch(database))
    first = sqlite3.connect(database, factory=connect)
    second = sqlite3.connect(database, factory=connect)
    # Through cursor(), as SQLAlchemy runs every statement: sqlite3's own
    # Connection.execute makes its cursor in C, without the watched method. Each
    # connection's first statement stands for the pragmas of SQLAlchemy's connect
    # hook: from its second on, it holds the database.
    first.cursor().execute("CREATE TABLE t (x)")
    second.cursor().execute("SELECT 1")
    first.cursor().execute("INSERT INTO t VALUES (1)")
    second.cursor().execute("SELECT count(*) FROM t")
    first.close()
    first.close()  # harmless to SQLite: it must be to the count too
    # Counted twice, the watch took every connection for closed and forgot the
    # index: a cut now would be taken for a new file, and a real one mapped by
    # the open connection would be a SIGBUS at its next statement.
    os.truncate(index, 100)
    with pytest.raises(IndexCut):
        second.cursor().execute("SELECT x FROM t")
    second.close()
    assert index.stat().st_size == SIZE  # given back before the connection closed


def test_the_file_a_database_name_opens() -> None:
    assert database_file("games.db") == "games.db"
    assert database_file("file:/srv/my%20games.db?mode=ro") == "/srv/my games.db"
    assert database_file(":memory:") is None
    assert database_file("file:shared?mode=memory&cache=shared") is None
