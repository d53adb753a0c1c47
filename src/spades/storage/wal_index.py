"""SQLite's WAL index, watched so that a file cut under the server is refused
with a 503 instead of killing the process.

In WAL mode SQLite keeps the log's index in ``<database>-shm`` and maps it
into memory (``mmap``) in every process that has the database open. If another
program truncates that file while it is mapped, the next read or write of a
page past its new end is a SIGBUS: the kernel stops the process, and no Python
code can catch it (tried: ``benchmarks/abuse.py``; ``truncate -s 0 db-shm``
under a running server killed it at the next move).

SQLite offers one way not to map the index: exclusive locking (``PRAGMA
locking_mode=EXCLUSIVE`` before the first access, or the ``unix-excl`` VFS),
which keeps it in the process's own memory, and so locks every other process
out of the file for as long as the server runs. Several ``spades serve``
processes over one file, and ``spades challenge`` beside a server, are
supported uses of one SQLite file (docs/tables.md, docs/challenge.md), so the
server keeps the shared index and watches it instead:

- While a process has the database open, SQLite itself never shrinks or
  replaces the index (only a process that finds itself the first to open the
  file starts it afresh, and the others' locks forbid that). So a smaller file,
  or another file at its name, is always another program's doing.
- Before each statement (every one starts with ``cursor()``, which a
  connection of ``WatchedConnection`` checks), the index is compared with what
  this process last saw of it: one ``stat``, a few microseconds. A cut or
  replaced index is refused (``IndexCut``, a storage fault of rule
  ``storage-index``: a JSON 503), and every statement after it too, so the mapping is never touched
  again; the operator restarts the server, and SQLite rebuilds the index from
  the log (every acknowledged move is in the log).
- Closing a connection makes SQLite read the index (a checkpoint): before the
  last one closes, a cut index is extended back to its size (zeros, which
  SQLite reads as an index to rebuild from the log), so stopping the server
  is not a SIGBUS either.

What this cannot catch: a cut that lands during a statement already past the
check (a statement takes a fraction of a millisecond). And the index must be
shared memory between the processes using the file, so the file must be on a
local disk, not a network one (SQLite's own rule for WAL).

A full disk is no SIGBUS: SQLite writes every page of the index as it grows it,
so the space is taken then, and a disk with none left fails that write, which
is answered 503 ``storage-unavailable`` like any other failed write.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

from .faults import INDEX_CUT

log = logging.getLogger(__name__)

SHM_SUFFIX: Final = "-shm"


class IndexCut(sqlite3.OperationalError):
    """A statement refused because the index was cut or replaced: a DBAPI
    error, so SQLAlchemy hands it on as one, and ``storage_fault`` reads its
    rule (``storage-index``)."""

    storage_rule: Final = INDEX_CUT


class WalIndexWatch:
    """What this process knows of one database's ``-shm`` file, and whether it
    has been cut or replaced under it."""

    def __init__(self, database: str) -> None:
        self.path = Path(database + SHM_SUFFIX)
        self._lock = threading.Lock()
        self._open = 0
        self._seen: tuple[int, int, int] | None = None
        """(device, inode, size) at the last check, while a connection is open."""
        self.broken: str | None = None
        """Why the index is no longer used, once it was found cut or replaced."""

    def opened(self) -> None:
        with self._lock:
            self._open += 1

    def check(self) -> None:
        """Raise ``IndexCut`` if the index was cut or replaced since this
        process last looked, and ever after."""
        if self.broken is not None:
            raise IndexCut(self.broken)
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            now = None
        else:
            now = (stat.st_dev, stat.st_ino, stat.st_size)
        with self._lock:
            seen = self._seen
            if seen is None or (now is not None and now[:2] == seen[:2] and now[2] >= seen[2]):
                self._seen = now  # first seen, or grown: SQLite's own doing
                return
            if now is None or now[:2] != seen[:2]:
                self.broken = f"{self.path.name} was deleted or replaced by another program"
            else:
                self.broken = (
                    f"{self.path.name} was cut from {seen[2]:,} to {now[2]:,} bytes by another "
                    "program"
                )
            log.error(
                "%s while the database was open: every read and write is refused until the "
                "server is restarted (SQLite then rebuilds the index from its log)",
                self.broken,
            )
        raise IndexCut(self.broken)

    def closing(self) -> None:
        """A connection is about to close. Before the last one does (SQLite then
        reads the index to checkpoint the log), a cut index is extended back to
        the size it had, so the read finds pages, not a SIGBUS."""
        with self._lock:
            self._open -= 1
            last = self._open == 0
            seen = self._seen
            if last:
                self._seen = None  # SQLite may now delete it: a new one is no fault
        if not last or seen is None or self.broken is None:
            return
        try:
            stat = os.stat(self.path)
            if (stat.st_dev, stat.st_ino) == seen[:2] and stat.st_size < seen[2]:
                os.truncate(self.path, seen[2])
        except OSError:
            log.exception("could not extend %s back before closing the database", self.path)
        self.broken = None  # the next connection opens the file afresh


def watched_connection_class(watch: WalIndexWatch) -> type[sqlite3.Connection]:
    """A ``sqlite3.Connection`` that asks ``watch`` before each statement and
    tells it when it opens and closes (``sqlite3.connect(factory=...)``)."""

    class WatchedConnection(sqlite3.Connection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            watch.opened()

        def cursor(self, *args: Any, **kwargs: Any) -> Any:
            watch.check()
            return super().cursor(*args, **kwargs)

        def close(self) -> None:
            watch.closing()
            super().close()

    return WatchedConnection


def database_file(database: str) -> str | None:
    """The file an SQLite database name opens: itself, or a ``file:`` URI's
    path; None for a database in memory."""
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        path = unquote(urlsplit(database).path)
        return path or None
    return database
