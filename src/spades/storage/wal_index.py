"""SQLite's WAL index, watched so that a file cut under the server is refused
with a 503 instead of killing the process.

In WAL mode SQLite keeps the log's index in ``<database>-shm`` and maps it
into memory (``mmap``) in every process that has the database open. If another
program truncates that file while it is mapped, the next read or write of a
page past its new end is a SIGBUS: the kernel stops the process, and no Python
code can catch it (``tests/server/test_storage_faults.py`` shows a plain
SQLite process killed so, then the server refusing instead).

SQLite offers one way not to map the index: exclusive locking (``PRAGMA
locking_mode=EXCLUSIVE`` before the first access, or the ``unix-excl`` VFS),
which keeps it in the process's own memory, and so locks every other process
out of the file for as long as the server runs. Several ``spades serve``
processes over one file, and ``spades challenge`` beside a server, are
supported uses of one SQLite file (docs/tables.md, docs/challenge.md), so the
server keeps the shared index and watches it instead:

- While a connection has the database open in WAL mode and has read it (its
  first statement), it keeps a shared lock on the file, and SQLite itself then
  never shrinks or replaces the index: only the last connection of all, closing,
  deletes it (it must take the exclusive lock), and only a process that finds
  itself the first to open the file starts a new one. So while a connection of
  this process *holds* the database so (``opened``: from its second statement
  on, SQLAlchemy's connect hook running the pragmas first), a smaller file is
  always another program's doing. (Another file at its name is not the one
  mapped here, and cannot fault.) While none does, the index may be SQLite's
  to delete and make anew at any moment (another process, or this one's last
  connection, closing as a new one opens), so what a look at the file sees
  then is learned from and judged by nothing: a new connection's first look,
  or one that a last connection's close overlapped, could otherwise take a
  new index for a cut one, or a file deleted between the look's ``stat`` and
  ``access`` for an unwritable one (a 503 ``storage-read-only`` while writers
  merely took turns: ``tests/server/test_wal_index.py`` makes that happen).
- Before each statement (SQLAlchemy starts every one with ``cursor()``, which
  a connection of ``WatchedConnection`` checks; sqlite3's own shortcut
  ``Connection.execute`` makes its cursor in C, past the check, and nothing
  here uses it), the index is compared with what
  this process last saw of it: a ``stat`` and an ``access``, a few
  microseconds. A cut index is refused (``IndexCut``, a storage fault of
  rule ``storage-index``: a JSON 503), and every statement after it too, so the mapping is never touched again; the operator restarts the
  server, and SQLite rebuilds the index from the log (every acknowledged move
  is in the log). An index made unwritable (``chattr +i``: a write to a
  mapped page of an immutable file is a SIGBUS too) is refused as read-only
  (``IndexUnwritable``, ``storage-read-only``) for as long as it stays so.
- Closing a connection makes SQLite read the index (a checkpoint): before a
  connection closes, a cut index is extended back to its size and its first
  region zeroed (an index SQLite then rebuilds from the log, as after a crash),
  so stopping the server is not a SIGBUS either.

- A cut that lands during a statement already past the check (a statement
  takes a fraction of a millisecond, but the table feed reads the database 20
  times a second, and a busy machine can pause a thread mid-statement): where
  the C guard is built (``_sigbus.c``), the SIGBUS it brings is answered in the
  process instead of ending it. The guard extends the file back to the end of
  the mapping that faulted and zeroes what is left of its first region, as
  ``closing`` does. That statement goes on, and may read a page of the
  database older than the log holds. The repair counts as a cut: every
  statement after it is refused, as above.

What this cannot catch: a server stopped while its index is still immutable
(closing writes to it); and, without the C guard (``SPADES_PURE_PYTHON``), a cut
during a statement. And the index must be
shared memory between the processes using the file, so the file must be on a
local disk, not a network one (SQLite's own rule for WAL; a file on a network
file system is refused before it is opened: ``file_systems.py``).

A full disk should be no SIGBUS: SQLite writes a byte to each page of the
index as it grows it, so that the space is taken then, and a disk with none
left fails that write, answered 503 ``storage-unavailable`` like any other
failed write.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

from .faults import INDEX_CUT, READ_ONLY

try:
    from . import _sigbus
except ImportError:  # not built (SPADES_PURE_PYTHON): a cut mid-statement is fatal
    _sigbus = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

SHM_SUFFIX: Final = "-shm"
FIRST_REGION: Final = 32768
"""The index's first region: its header, then the first of its hash tables."""
REPAIRED: Final = -1
"""The size a cut is said to have left when the SIGBUS guard found it (and
extended the file back) during a statement."""


class IndexCut(sqlite3.OperationalError):
    """A statement refused because the index was cut: a DBAPI
    error, so SQLAlchemy hands it on as one, and ``storage_fault`` reads its
    rule (``storage-index``)."""

    storage_rule: Final = INDEX_CUT


class IndexUnwritable(sqlite3.OperationalError):
    """A statement refused because the index, writable when this process
    first saw it, no longer is (``chattr +i``): a write to its mapped pages
    would be a SIGBUS. Refused as read-only, while it lasts."""

    storage_rule: Final = READ_ONLY


class WalIndexWatch:
    """What this process knows of one database's ``-shm`` file, and whether it
    has been cut under it."""

    def __init__(self, database: str) -> None:
        self.path = Path(database + SHM_SUFFIX)
        # As /proc/self/maps names the mapped file: what the SIGBUS guard compares.
        self._guarded = os.path.realpath(self.path)
        self.guarded = _sigbus is not None and _sigbus.guard(self._guarded)
        """Whether a cut during a statement is repaired here, not fatal."""
        self._repairs = _sigbus.repair_count(self._guarded) if self.guarded else 0
        self._lock = threading.Lock()
        self._open = 0
        """Connections of this process that hold the database (``opened``)."""
        self._held_since = 0
        """How many times the count of those fell to none: a look that began
        before the last fall may have seen a file SQLite has since replaced."""
        self._seen: tuple[int, int, int] | None = None
        """(device, inode, size) of the file at the last check by a holder."""
        self._writable = False
        """Whether that file could be written when first seen (a database
        opened read-only may have an index it only reads: never refused)."""
        self.cut: tuple[int, int] | None = None
        """The size it had and the size it was cut to, once found cut: from
        then on every statement is refused, until the process ends."""

    def opened(self) -> None:
        """A connection of this process holds the database now (it has read it
        in WAL mode): until it closes, SQLite will not replace the index."""
        with self._lock:
            self._open += 1

    def check(self, *, holding: bool = True) -> None:
        """Raise ``IndexCut`` if the index was cut since this process last
        looked (and ever after), ``IndexUnwritable`` while it is unwritable.
        ``holding``: whether the asking connection holds the database
        (``opened``); one that does not yet is judged only while another does,
        for the whole of its look, and is never learned from."""
        with self._lock:
            self._learn_of_repairs()
            if self.cut is not None:
                raise IndexCut(self._cut_reason(self.cut))
            held_since, seen_before = self._held_since, self._seen
        now, writable = self._look()
        with self._lock:
            if self.cut is not None:  # found by another connection meanwhile
                raise IndexCut(self._cut_reason(self.cut))
            steady = holding or (seen_before is not None and self._held_since == held_since)
            if not steady:
                return  # the index may have been SQLite's to replace during the look
            seen = self._seen
            if seen is not None and now is not None and now[:2] == seen[:2] and now[2] < seen[2]:
                self.cut = (seen[2], now[2])
                log.error(
                    "%s while the database was open: every read and write is refused until "
                    "the server is restarted (SQLite then rebuilds the index from its log)",
                    self._cut_reason(self.cut),
                )
                raise IndexCut(self._cut_reason(self.cut))
            if holding:
                # First seen, grown (SQLite's doing), or another file at the name: SQLite
                # makes one anew once every connection has closed, and a file this
                # process has not mapped cannot fault here.
                if now is None or seen is None or now[:2] != seen[:2]:
                    self._writable = writable
                self._seen = seen = now
            same_file = seen is not None and now is not None and now[:2] == seen[:2]
            if same_file and self._writable and not writable:
                raise IndexUnwritable(f"{self.path.name} was made unwritable by another program")

    def _learn_of_repairs(self) -> None:
        """A cut the SIGBUS guard repaired under a statement is a cut: the file
        is whole again, but what it held is gone (call with the lock held)."""
        if not self.guarded or self.cut is not None:
            return
        if _sigbus.repair_count(self._guarded) != self._repairs:
            size = 0 if self._seen is None else self._seen[2]
            self.cut = (size, REPAIRED)
            log.error(
                "%s during a statement (repaired in place): every read and write is "
                "refused until the server is restarted (SQLite then rebuilds the index)",
                self._cut_reason(self.cut),
            )

    def _look(self) -> tuple[tuple[int, int, int] | None, bool]:
        """(device, inode, size) of the file now, or None if there is none, and
        whether it can be written."""
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return None, False
        now = (stat.st_dev, stat.st_ino, stat.st_size)
        # An immutable file (chattr +i) is unwritable even to root: access(2) says so.
        if os.access(self.path, os.W_OK):
            return now, True
        # False for a file gone as well: one deleted since the stat is no file to judge.
        try:
            again = os.stat(self.path)
        except FileNotFoundError:
            return None, False
        if (again.st_dev, again.st_ino) != now[:2]:
            return (again.st_dev, again.st_ino, again.st_size), os.access(self.path, os.W_OK)
        return now, False

    def _cut_reason(self, cut: tuple[int, int]) -> str:
        if cut[1] == REPAIRED:
            return f"{self.path.name} was cut by another program during a statement"
        return f"{self.path.name} was cut from {cut[0]:,} to {cut[1]:,} bytes by another program"

    def closing(self, *, holding: bool = True) -> None:
        """A connection is about to close (``holding``: one counted by
        ``opened``), which makes SQLite read the index (a checkpoint). A cut
        index is extended back to the size it had first, so the read finds
        pages (zeros: an index SQLite rebuilds from the log), not a SIGBUS."""
        with self._lock:
            if holding:
                self._open -= 1
                if self._open == 0:
                    self._held_since += 1
                    if self.cut is None:
                        self._seen = None  # SQLite may now delete it: a new one is no fault
            seen, cut = self._seen, self.cut
        if cut is None or seen is None:
            return
        try:
            stat = os.stat(self.path)
            if (stat.st_dev, stat.st_ino) == seen[:2] and stat.st_size < cut[0]:
                os.truncate(self.path, cut[0])
                # A file cut short of its first region keeps a header that still
                # looks valid over hash tables now zero: zeroed too, SQLite takes the
                # index for one to rebuild from the log, instead of trusting it.
                descriptor = os.open(self.path, os.O_WRONLY)
                try:
                    os.pwrite(descriptor, bytes(min(cut[0], FIRST_REGION)), 0)
                finally:
                    os.close(descriptor)
        except OSError:
            log.exception("could not extend %s back before closing the database", self.path)


def watched_connection_class(watch: WalIndexWatch) -> type[sqlite3.Connection]:
    """A ``sqlite3.Connection`` that asks ``watch`` before each statement and
    tells it when it comes to hold the database and when it closes
    (``sqlite3.connect(factory=...)``)."""

    class WatchedConnection(sqlite3.Connection):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._asked = False
            """Whether a statement was let through: from the next one on, it has
            read the database (SQLAlchemy's connect hook runs the pragmas first)."""
            self._holding = False
            self._closed = False

        def cursor(self, *args: Any, **kwargs: Any) -> Any:
            if self._asked and not self._holding and not self._closed:
                self._holding = True
                watch.opened()
            watch.check(holding=self._holding)
            self._asked = True
            return super().cursor(*args, **kwargs)

        def close(self) -> None:
            # Told once: a connection closed twice (closing is idempotent) counted
            # twice would have the watch forget the index while others still map it.
            if not self._closed:
                self._closed = True
                watch.closing(holding=self._holding)
            super().close()

    return WatchedConnection


def database_file(database: str) -> str | None:
    """The file an SQLite database name opens: itself, or a ``file:`` URI's
    path; None for a database in memory.

    >>> database_file("file:/srv/games.db?mode=ro&uri=true")
    '/srv/games.db'
    >>> database_file("file::memory:?cache=shared") is None
    True
    """
    if not database or database == ":memory:":
        return None
    if database.startswith("file:"):
        uri = urlsplit(database)
        path = unquote(uri.path)
        in_memory = path == ":memory:" or "mode=memory" in uri.query.split("&")
        return None if in_memory or not path else path
    return database
