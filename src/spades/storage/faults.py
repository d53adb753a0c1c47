"""Storage faults as the server answers them: what failed, its rule, when to retry.

A database can be busy (another process holds SQLite's write lock past the
wait), unreachable (a database server stopped or restarting), read-only (a
file or a server that refuses writes), or its SQLite index cut by another
program (``wal_index``). None of these is a fault of the
request, and none loses an acknowledged move: the server answers 503 with
``Retry-After`` and the ``rule`` named here, and the next request tries again.
A database error that is none of these (a constraint broken, a bad query) is
a bug, and is left to surface as one.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import exc

BUSY: Final = "storage-busy"
UNAVAILABLE: Final = "storage-unavailable"
READ_ONLY: Final = "storage-read-only"
INDEX_CUT: Final = "storage-index"
RETRY_SECONDS: Final = {BUSY: 1, UNAVAILABLE: 5, READ_ONLY: 60, INDEX_CUT: 60}
DETAILS: Final = {
    BUSY: "The game store is busy (another process holds it): try again in a moment.",
    UNAVAILABLE: "The game store cannot be reached just now: try again in a few seconds.",
    READ_ONLY: "The game store refuses writes (its file or server is read-only): "
    "the server's operator must fix it.",
    INDEX_CUT: "The game store's files were changed under the server by another program: "
    "the server's operator must restart it (no acknowledged move is lost).",
}


class StorageFault(Exception):
    """The database could not serve a read or a write now; ``rule`` says why."""

    def __init__(self, rule: str, cause: str = "") -> None:
        super().__init__(f"{DETAILS[rule]} ({cause})" if cause else DETAILS[rule])
        self.rule = rule
        self.detail = DETAILS[rule]
        self.retry_after = RETRY_SECONDS[rule]


def storage_fault(error: BaseException) -> StorageFault | None:
    """``error`` as a ``StorageFault`` if it is one of the kinds above, else None."""
    if isinstance(error, StorageFault):
        return error
    if isinstance(error, exc.TimeoutError):  # no pooled connection came free in time
        return StorageFault(BUSY, str(error).splitlines()[0])
    if not isinstance(error, exc.OperationalError | exc.InterfaceError | exc.InternalError):
        return None
    orig = error.orig if isinstance(error, exc.DBAPIError) else error
    rule = getattr(orig, "storage_rule", None)  # a refusal of ours (wal_index.IndexCut)
    if rule in DETAILS:
        return StorageFault(rule, str(orig))
    text = str(orig).lower()
    cause = text.splitlines()[0][:120] if text else ""
    if "locked" in text or "busy" in text:
        return StorageFault(BUSY, cause)
    if "readonly" in text or "read-only" in text or "read only" in text:
        return StorageFault(READ_ONLY, cause)
    return StorageFault(UNAVAILABLE, cause)
