"""The SIGBUS guard of ``_sigbus.c`` (see ``wal_index.py``)."""

def guard(path: str, /) -> bool:
    """Repair a SIGBUS from a mapping of this file (named as /proc/self/maps
    names it) instead of ending the process; False when too many are guarded."""

def repair_count(path: str, /) -> int:
    """How many SIGBUS faults of this guarded file were repaired here."""
