"""What a gg that died left of its jails is swept by the next jail opened: `/etc` copies, pids
groups, and a jail's pid 1 left waiting forever by a gg killed while the jail was set up."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from jailworld import jail_over, workspace_in

from gg.sandbox.jail.arguments import command_arguments, jail_arguments
from gg.sandbox.jail.claims import CLAIM_GRACE_SECS, claim, is_abandoned
from gg.sandbox.jail.command import Pipes, spawn
from gg.sandbox.jail.leftovers import orphaned_jails, sweep
from gg.sandbox.jail.pids import find_pids_hierarchy
from support.waiting import wait_until
from support.wall_bounds import STOPPED_WITHIN_SECS


def _dead_pid() -> int:
    probe = subprocess.Popen(["true"])
    probe.wait()
    return probe.pid


def _gone(pid: int) -> bool:
    """Whether `pid` has exited (a zombie nobody reaps has too)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def _aged(folder: Path) -> Path:
    """`folder`, dated past the grace a fresh folder is given before it is judged."""
    old = time.time() - CLAIM_GRACE_SECS - 1
    os.utime(folder, (old, old))
    return folder


def test_the_claim_grace_is_a_minute() -> None:
    assert CLAIM_GRACE_SECS == 60.0


def test_an_unclaimed_etc_copy_is_removed_and_a_claimed_or_fresh_one_kept(tmp_path: Path) -> None:
    folders = {name: tmp_path / f"gg-jail-etc-{os.getpid()}-{name}" for name in ("left", "held", "fresh")}
    for folder in folders.values():
        (folder / "ssl").mkdir(parents=True)
    held = claim(_aged(folders["held"]))
    _aged(folders["left"])
    try:
        sweep(None, tmp_path)
        assert not folders["left"].exists() and folders["held"].exists() and folders["fresh"].exists()
    finally:
        os.close(held)


def test_a_claim_held_in_another_pid_namespace_keeps_the_folder(tmp_path: Path) -> None:
    """The pid in a folder's name is not read: a gg whose pid this namespace cannot see still
    holds its folder."""
    folder = tmp_path / f"gg-jail-etc-{_dead_pid()}-abc"
    folder.mkdir()
    _aged(folder)
    holder = subprocess.Popen(
        ["unshare", "--pid", "--fork", "--kill-child", "--mount-proc", "flock", str(folder), "sleep", "30"]
    )
    try:
        wait_until(lambda: _locked(folder), "the holder's lock", STOPPED_WITHIN_SECS)
        sweep(None, tmp_path)
        assert folder.exists()
    finally:
        holder.kill()  # and with it (--kill-child) the namespace's flock, soon after
        holder.wait()
    wait_until(lambda: not _locked(folder), "the lock to go with its holder", STOPPED_WITHIN_SECS)
    sweep(None, tmp_path)
    assert not folder.exists()


def _locked(folder: Path) -> bool:
    return not is_abandoned(folder)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes pids cgroups")
def test_an_unclaimed_pids_group_is_removed_and_a_claimed_one_kept() -> None:
    hierarchy = find_pids_hierarchy()
    left = _aged(hierarchy.group(5).path)
    mine = hierarchy.group(5)
    held = claim(_aged(mine.path))
    try:
        sweep(hierarchy, Path("/nonexistent"))
        assert not left.exists() and mine.path.exists()
    finally:
        os.close(held)
        mine.remove()


def test_a_jail_whose_bubblewrap_died_during_setup_is_killed(tmp_path: Path) -> None:
    jail = jail_over(workspace_in(tmp_path))
    pipes = Pipes.holding(jail_arguments(jail.policy, jail.layout))
    process = spawn(jail.bwrap, pipes, command_arguments("touch ran"))
    wait_until(lambda: bool(_children(process.pid)), "bubblewrap's pid 1", STOPPED_WITHIN_SECS)
    os.kill(process.pid, signal.SIGKILL)  # what a gg's death does to it (--die-with-parent)
    process.wait()
    assert process.stdout is not None
    process.stdout.close()
    try:
        wait_until(lambda: bool(orphaned_jails()), "bubblewrap's pid 1 left behind", STOPPED_WITHIN_SECS)
        left = orphaned_jails()
        sweep(None, tmp_path)
        wait_until(lambda: all(_gone(pid) for pid in left), "the swept jails to die", STOPPED_WITHIN_SECS)
        assert orphaned_jails() == []
    finally:
        pipes.close()
    assert not (tmp_path / "ws" / "ran").exists()


def _children(pid: int) -> list[int]:
    """The processes `pid` started that are alive (bubblewrap's pid 1 once it is set up)."""
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
