"""Where a root-opened jail makes its pids cgroup, read from the host's mount table."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gg.sandbox.jail.pids import PidsUnavailable, find_pids_hierarchy

V1 = (
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "38 31 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
)


def test_the_cgroup_v1_pids_mount_is_the_hierarchy() -> None:
    assert find_pids_hierarchy(V1).root == Path("/sys/fs/cgroup/pids")


def test_a_cgroup_v2_mount_is_used_only_when_it_hands_pids_to_its_children(tmp_path: Path) -> None:
    (tmp_path / "cgroup.subtree_control").write_text("cpu memory pids\n")
    line = f"29 23 0:26 / {tmp_path} rw,nosuid - cgroup2 cgroup2 rw\n"
    assert find_pids_hierarchy(line).root == tmp_path
    (tmp_path / "cgroup.subtree_control").write_text("cpu memory\n")
    with pytest.raises(PidsUnavailable, match="no cgroup hierarchy with the pids controller"):
        find_pids_hierarchy(line)


def test_a_host_without_a_pids_hierarchy_has_none() -> None:
    with pytest.raises(PidsUnavailable):
        find_pids_hierarchy(V1.splitlines()[0] + "\n")


@pytest.mark.skipif(os.geteuid() != 0, reason="only root makes pids cgroups")
def test_a_group_caps_its_tasks_and_is_removed_when_empty() -> None:
    group = find_pids_hierarchy().group(7)
    try:
        assert (group.path / "pids.max").read_text().strip() == "7"
    finally:
        group.remove()
    assert not group.path.exists()
