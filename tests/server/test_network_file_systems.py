"""An SQLite file on a network file system is refused before it is opened:
WAL mode needs memory and locks shared between the processes using the file,
which NFS, SMB, 9p or sshfs do not give, and over one the file can be
corrupted. The mounts are a fake ``/proc/self/mountinfo`` the test writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from spades.cli.app import app as cli
from spades.server.app import create_app
from spades.storage import GameRepository, NetworkDatabaseFile, file_systems
from spades.storage.file_systems import Mount, mount_of, network_mount, parse_mountinfo

from ..output import said

LOCAL_ROOT = "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The test's folder, its links resolved, as mountinfo names mount points."""
    return tmp_path.resolve()


def mountinfo(folder: Path, *lines: str) -> Path:
    written = folder / "mountinfo"
    written.write_text("\n".join([LOCAL_ROOT, *lines]) + "\n")
    return written


def mounted_at(point: Path, file_system: str, source: str, mount_id: int = 90) -> str:
    escaped = str(point).replace("\\", "\\134").replace(" ", "\\040")
    return f"{mount_id} 27 0:77 / {escaped} rw,relatime shared:5 - {file_system} {source} rw"


@pytest.mark.parametrize(
    ("file_system", "source"),
    [
        ("nfs", "files:/export"),
        ("nfs4", "files:/export"),
        ("cifs", "//files/share"),
        ("smb3", "//files/share"),
        ("9p", "drvfs"),
        ("fuse.sshfs", "me@files:/srv"),
    ],
)
def test_a_file_on_a_network_file_system_is_found_so(
    folder: Path, file_system: str, source: str
) -> None:
    info = mountinfo(folder, mounted_at(folder / "shared", file_system, source))
    mount = network_mount(str(folder / "shared" / "spades" / "games.db"), info)
    assert mount == Mount(str(folder / "shared"), file_system, source)
    assert network_mount(str(folder / "sharedx" / "games.db"), info) is None  # a sibling


def test_the_innermost_mount_and_the_last_mounted_decide(folder: Path) -> None:
    local = folder / "shared" / "local disk"  # a space, as mountinfo escapes it
    info = mountinfo(
        folder,
        mounted_at(folder / "shared", "nfs4", "files:/export", 90),
        mounted_at(local, "ext4", "/dev/vdb", 91),
        mounted_at(folder / "over", "nfs", "files:/old", 92),
        mounted_at(folder / "over", "tmpfs", "tmpfs", 93),  # mounted over the NFS one
    )
    assert network_mount(str(local / "games.db"), info) is None
    assert network_mount(str(folder / "shared" / "games.db"), info) is not None
    assert network_mount(str(folder / "over" / "games.db"), info) is None
    assert mount_of(str(local / "games.db"), parse_mountinfo(info.read_text())) == Mount(
        str(local), "ext4", "/dev/vdb"
    )


def test_a_link_to_a_network_file_system_is_followed(folder: Path) -> None:
    (folder / "shared").mkdir()
    (folder / "link").symlink_to(folder / "shared")
    info = mountinfo(folder, mounted_at(folder / "shared", "nfs4", "files:/export"))
    assert network_mount(str(folder / "link" / "games.db"), info) is not None


def test_no_mountinfo_to_read_checks_nothing(folder: Path) -> None:
    assert network_mount(str(folder / "games.db"), folder / "no-such-mountinfo") is None
    assert parse_mountinfo("not a mount line\n\n") == []


def test_the_server_and_the_repository_refuse_such_a_file(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = folder / "shared"
    info = mountinfo(folder, mounted_at(shared, "nfs4", "files:/export"))
    monkeypatch.setattr(file_systems, "MOUNTINFO", info)
    url = f"sqlite:///{shared / 'games.db'}"
    with pytest.raises(NetworkDatabaseFile) as refused:
        GameRepository(url)
    assert "network file system (nfs4 from files:/export" in str(refused.value)
    with pytest.raises(NetworkDatabaseFile):
        create_app(url)
    assert not (shared / "games.db").exists(), "refused before SQLite made the file"

    result = CliRunner().invoke(cli, ["serve", "--db", url])
    assert result.exit_code == 2
    output = said(result.output)
    assert "is on a network file system" in output and "use PostgreSQL" in output
    assert "Traceback" not in result.output

    # The same file on a local disk is served.
    GameRepository(f"sqlite:///{folder / 'local' / 'games.db'}").close()
