"""Whether an SQLite file is on a local disk: on a network file system it is refused.

In WAL mode (which the server uses: readers never wait for the writer) SQLite
keeps the log's index in ``<database>-shm``, mapped into the memory of every
process that has the file open, and it relies on the file system's locks to
keep a second process from starting that index afresh. A network file system
(NFS, SMB, 9p, sshfs...) shares neither memory pages nor, reliably, those
locks between machines, nor always within one: SQLite's own documentation
says WAL does not work over one, and the file can be corrupted there. So a
database file on one is refused before it is opened, saying where it is and
what to do instead (a local disk, or PostgreSQL for a store on another machine).

The file system is read from ``/proc/self/mountinfo`` (Linux): the mount
whose mount point is the longest over the file's real path, and that mount's
type. Where it cannot be read (another system), nothing is checked.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

MOUNTINFO: Final = Path("/proc/self/mountinfo")
NETWORK_FILE_SYSTEMS: Final = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "9p",  # WSL's Windows drives, some containers' shared folders
        "afs",
        "ceph",
        "glusterfs",
        "lustre",
        "gpfs",
        "fuse.sshfs",
        "fuse.glusterfs",
        "fuse.ceph-fuse",
        "fuse.s3fs",
        "fuse.rclone",
        "fuse.gcsfuse",
    }
)
"""File system types (as mountinfo names them) that are another machine's disk."""


@dataclass(frozen=True, slots=True)
class Mount:
    """One line of mountinfo: where a file system is mounted, its type and source."""

    point: str
    file_system: str
    source: str


class NetworkDatabaseFile(Exception):
    """The SQLite file is on a network file system, where WAL mode can corrupt it."""

    def __init__(self, database: str, mount: Mount) -> None:
        super().__init__(
            f"the SQLite file {database} is on a network file system ({mount.file_system} "
            f"from {mount.source}, mounted at {mount.point}): SQLite's WAL mode needs memory "
            "and locks shared between the processes using the file, which such a file "
            "system does not give, and over one the file can be corrupted. Put the "
            "database on a local disk, or use PostgreSQL for a store on another machine"
        )
        self.database = database
        self.mount = mount


_ESCAPE: Final = re.compile(r"\\([0-7]{3})")


def _unescape(field: str) -> str:
    r"""A mountinfo path as it is: the kernel writes a space, a tab, a newline
    and a backslash as octal escapes.

    >>> _unescape(r"/mnt/my\040games")
    '/mnt/my games'
    """
    return _ESCAPE.sub(lambda match: chr(int(match[1], 8)), field)


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of a mountinfo text, in its order (a later one over an earlier).

    A line is ``id parent major:minor root point options [optional...] - type
    source super-options``; a line not of that shape is skipped.
    """
    mounts = []
    for line in text.splitlines():
        fields = line.split(" ")
        if "-" not in fields[6:]:
            continue
        dash = fields.index("-", 6)
        if len(fields) < dash + 3:
            continue
        mounts.append(Mount(_unescape(fields[4]), fields[dash + 1], _unescape(fields[dash + 2])))
    return mounts


def mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    """The mount that holds ``path`` (absolute, its links resolved): the one
    with the longest mount point over it, the last mounted of equal ones.

    >>> mounts = [Mount("/", "ext4", "/dev/vda"), Mount("/srv", "nfs4", "files:/srv")]
    >>> mount_of("/srv/spades/games.db", mounts).file_system
    'nfs4'
    >>> mount_of("/srvx/games.db", mounts).file_system
    'ext4'
    """
    found: Mount | None = None
    for mount in mounts:
        point = mount.point.rstrip("/")
        if (path == mount.point or path.startswith(point + "/")) and (
            found is None or len(point) >= len(found.point.rstrip("/"))
        ):
            found = mount
    return found


def network_mount(database: str, mountinfo: Path | None = None) -> Mount | None:
    """The network file system the file ``database`` is on, if it is on one
    (None on a local disk, and where ``mountinfo`` cannot be read)."""
    try:
        text = (mountinfo or MOUNTINFO).read_text()
    except OSError:
        return None
    mount = mount_of(os.path.realpath(database), parse_mountinfo(text))
    return mount if mount is not None and mount.file_system in NETWORK_FILE_SYSTEMS else None


def refuse_network_file(database: str, mountinfo: Path | None = None) -> None:
    """Raise ``NetworkDatabaseFile`` if the file ``database`` is on a network file system."""
    mount = network_mount(database, mountinfo)
    if mount is not None:
        raise NetworkDatabaseFile(database, mount)
