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
from gg.sandbox.jail.command import Pipes, spawn
from gg.sandbox.jail.leftovers import orphaned_jails, sweep
from gg.sandbox.jail.pids import find_pids_hierarchy


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


def test_the_etc_copies_of_gone_ggs_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    gone = tmp_path / f"gg-jail-etc-{_dead_pid()}-abc"
    alive = tmp_path / f"gg-jail-etc-{os.getpid()}-def"
    foreign = tmp_path / "gg-jail-etc-notapid"
    for folder in (gone, alive, foreign):
        (folder / "ssl").mkdir(parents=True)
    sweep(None, tmp_path)
    assert not gone.exists() and alive.exists() and foreign.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes pids cgroups")
def test_the_pids_groups_of_gone_ggs_are_removed() -> None:
    hierarchy = find_pids_hierarchy()
    gone = hierarchy.root / f"gg-shell-{_dead_pid()}-0a0a0a0a"
    gone.mkdir()
    mine = hierarchy.group(5)
    try:
        sweep(hierarchy, Path("/nonexistent"))
        assert not gone.exists() and mine.path.exists()
    finally:
        mine.remove()


def test_a_jail_whose_bubblewrap_died_during_setup_is_killed(tmp_path: Path) -> None:
    jail = jail_over(workspace_in(tmp_path))
    pipes = Pipes.holding(jail_arguments(jail.policy, jail.layout))
    process = spawn(jail.bwrap, pipes, command_arguments("touch ran"))
    time.sleep(0.2)  # bubblewrap waits on the block pipe, its pid 1 set up
    os.kill(process.pid, signal.SIGKILL)  # what a gg's death does to it (--die-with-parent)
    process.wait()
    assert process.stdout is not None
    process.stdout.close()
    try:
        deadline = time.monotonic() + 5.0
        while not orphaned_jails() and time.monotonic() < deadline:
            time.sleep(0.02)
        left = orphaned_jails()
        assert left, "bubblewrap left no pid 1 behind"
        sweep(None, tmp_path)
        time.sleep(0.2)
        assert all(_gone(pid) for pid in left)
        assert orphaned_jails() == []
    finally:
        pipes.close()
    assert not (tmp_path / "ws" / "ran").exists()
