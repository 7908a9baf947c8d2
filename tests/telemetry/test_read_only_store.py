"""A run store nobody may write beside is still read: on a read-only mount (a real tmpfs remounted
`ro`) and as another user allowed only to read it, `gg runs`, `gg show`, the console and
`gg.open_store` read every run, and never write; a `--store` naming no store is refused."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import gg
from console.conftest import console_client
from gg.cli import main
from support.mounts import remount, tmpfs

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "spec-audit"
GG = Path(sys.executable).parent / "gg"


def _recorded(folder: Path) -> str:
    """Run the spec-audit example (a copy beside `folder`) with `folder` as the working
    directory, so its store is `folder/.gg/runs.db`; the run's id."""
    example = folder.parent / f"{folder.name}-example"
    shutil.copytree(EXAMPLE, example, ignore=shutil.ignore_patterns("report.md"))
    ran = subprocess.run(
        [str(GG), "run", str(example)], cwd=folder, capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stderr
    (run,) = (folder / ".gg" / "runs").iterdir()  # nothing has read the store yet
    return run.name


def _reads_every_view(folder: Path, run_id: str, as_user: list[str] | None = None) -> None:
    """`gg runs`, `gg show` (text and JSON) read the run, as `as_user` when given."""
    for arguments in (["runs"], ["runs", "--json"], ["show", run_id], ["show", "latest", "--json"]):
        read = subprocess.run(
            [*(as_user or []), str(GG), *arguments], cwd=folder, capture_output=True, text=True, timeout=120
        )
        assert read.returncode == 0, f"gg {' '.join(arguments)}: {read.stderr}"
        assert run_id in read.stdout and "completed" in read.stdout


def _reads_in_python(folder: Path, run_id: str) -> None:
    with gg.open_store(folder) as store:
        (run,) = store.runs()
        assert (run.id, run.status) == (run_id, "completed")
        assert run.events()[0].type.value == "run_started" and run.transcript().turns
    page = console_client(folder / ".gg" / "runs.db").get("/")
    assert page.status_code == 200 and run_id in page.text


def test_a_store_on_a_read_only_mount_is_read_by_every_reader(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "16m") as folder:
        run_id = _recorded(folder)
        remount(folder, "ro")
        _reads_every_view(folder, run_id)
        _reads_in_python(folder, run_id)
        assert sorted(p.name for p in (folder / ".gg").iterdir()) == ["runs", "runs.db"]


def test_a_store_whose_writer_was_killed_is_read_with_its_wal_on_a_read_only_mount(tmp_path: Path) -> None:
    """A process killed with its commits only in the WAL: the read-only readers still see them."""
    with tmpfs(tmp_path / "data", "16m") as folder:
        run_id = _recorded(folder)
        writer = (
            "import os, signal, sqlite3, sys\n"
            "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
            "db.execute('PRAGMA wal_autocheckpoint = 0')\n"
            "db.execute(\"UPDATE runs SET name = 'renamed in the wal'\")\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n"
        )
        killed = subprocess.run([sys.executable, "-c", writer, str(folder / ".gg" / "runs.db")], check=False)
        assert killed.returncode == -signal.SIGKILL and (folder / ".gg" / "runs.db-wal").exists()
        remount(folder, "ro")
        _reads_every_view(folder, run_id)
        with gg.open_store(folder) as store:
            assert store.run(run_id).name == "renamed in the wal"


# A user other than the store's owner, with no privilege: root stripped of every capability (and
# unable to regain one by exec), so the permissions of "other" are all it has, wherever the
# checkout lives; `nobody` could not reach a checkout under a folder private to its owner.
UNPRIVILEGED = [
    "setpriv", "--securebits=+noroot,+noroot_locked", "--bounding-set=-all", "--inh-caps=-all",
]  # fmt: skip


def _give_to_nobody(folder: Path) -> None:
    """Make `folder` and everything in it `nobody`'s, readable by others and writable by none."""
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, pwd.getpwnam("nobody").pw_uid, grp.getgrnam("nogroup").gr_gid)
        path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_store_is_read_by_another_user_who_may_only_read_it(tmp_path: Path) -> None:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("switching to another user needs root and setpriv")
    data = tmp_path / "data"
    data.mkdir()
    run_id = _recorded(data)
    _give_to_nobody(data)
    probe = subprocess.run([*UNPRIVILEGED, "touch", str(data / ".gg" / "probe")], capture_output=True)
    assert probe.returncode != 0, "the reader may write beside the store: the test would prove nothing"
    _reads_every_view(data, run_id, as_user=UNPRIVILEGED)
    assert sorted(p.name for p in (data / ".gg").iterdir()) == ["runs", "runs.db"]


def test_a_store_flag_naming_no_store_is_refused_by_the_console(tmp_path: Path) -> None:
    refused = CliRunner().invoke(main, ["console", "--store", str(tmp_path / "missing.db")])
    assert refused.exit_code == 2
    assert f"there is no run store at {tmp_path / 'missing.db'}" in refused.output


def test_gg_open_store_naming_no_store_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no run store at"):
        gg.open_store(tmp_path / "missing.db")
    assert list(tmp_path.iterdir()) == []
