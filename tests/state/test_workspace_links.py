"""Path confinement on disk: links inside the workspace and what they may lead to."""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest

from gg.errors import ErrorCode
from gg.state.workspace import Workspace
from gg.state.workspace.paths import PathRefusal, quote_path
from support.wall_bounds import STOPPED_WITHIN_SECS

from .workspace_calls import read, refusal_of, write


@pytest.mark.parametrize(
    "path",
    [
        "etc/passwd",
        "out/secret.txt",
        "outabs/secret.txt",
        "key",
        "passwd",
        "proc/environ",
        "proc/cmdline",
        "proc/root/etc/passwd",
        "zero",
        "sub/up/outside/secret.txt",
        "sub/up",
        "sub/roundtrip",
    ],
)
def test_a_link_that_leads_outside_is_refused_for_reading(
    workspace: Workspace, linked: Path, path: str
) -> None:
    refusal = refusal_of(lambda: workspace.open_for_read(path))
    assert (refusal.code, refusal.message) == (
        ErrorCode.INVALID_ARGUMENT,
        f"{quote_path(path)} is outside the workspace",
    )


@pytest.mark.parametrize("path", ["etc", "out", "outabs", "proc", "proc/fd", "sub/up", "sub/up/outside"])
def test_a_link_that_leads_outside_is_refused_for_listing(
    workspace: Workspace, linked: Path, path: str
) -> None:
    assert refusal_of(lambda: workspace.list_dir(path)).message.endswith("is outside the workspace")


@pytest.mark.parametrize("path", ["loop", "ping", "loop/x"])
def test_a_link_loop_ends_promptly_with_a_refusal(workspace: Workspace, linked: Path, path: str) -> None:
    started = time.perf_counter()
    refusal = refusal_of(lambda: workspace.open_for_read(path))
    assert time.perf_counter() - started < STOPPED_WITHIN_SECS  # a loop followed never ends
    assert refusal.message == f"{quote_path(path)} passes through more than 40 links"


def test_a_link_that_stays_inside_is_followed(workspace: Workspace, linked: Path) -> None:
    assert read(workspace, "inside") == "inner file\n"
    assert read(workspace, "insideabs/inner.txt") == "inner file\n"
    assert read(workspace, "subdir/inner.txt") == "inner file\n"
    assert read(workspace, "sub/back") == "hello from the workspace\n"
    assert [e.name for e in workspace.list_dir("subdir")] == ["back", "inner.txt", "roundtrip", "up"]


@pytest.mark.parametrize(
    "path",
    ["out/pwned.txt", "out/../out/pwned2.txt", "key", "dangling", "danglingdir/x.txt", "outabs/new/deep.txt"],
)
def test_a_write_never_follows_a_link_out_even_a_dangling_one(
    workspace: Workspace, linked: Path, tmp_path: Path, path: str
) -> None:
    refusal = refusal_of(lambda: workspace.open_for_write(path))
    assert refusal.code is ErrorCode.INVALID_ARGUMENT
    assert sorted(os.listdir(tmp_path / "outside")) == ["secret.txt"]
    assert (tmp_path / "outside" / "secret.txt").read_text() == "CANARY-OUTSIDE\n"


def test_an_edit_never_opens_a_file_through_a_link_out(workspace: Workspace, linked: Path) -> None:
    assert refusal_of(lambda: workspace.open_for_update("key")).code is ErrorCode.INVALID_ARGUMENT


def test_a_write_through_a_dangling_link_inside_creates_its_target_inside(
    workspace: Workspace, root: Path
) -> None:
    (root / "later").symlink_to("made/later.txt")
    write(workspace, "later", "made")
    assert (root / "made" / "later.txt").read_text() == "made"


def test_a_refusal_through_a_link_reads_the_same_whether_the_outside_target_exists(
    workspace: Workspace, root: Path, tmp_path: Path
) -> None:
    (root / "present").symlink_to("../outside/secret.txt")
    (root / "absent").symlink_to("../outside/absent.txt")
    present = refusal_of(lambda: workspace.open_for_read("present"))
    absent = refusal_of(lambda: workspace.open_for_read("absent"))
    assert present.code == absent.code
    assert present.message.replace("present", "<P>") == absent.message.replace("absent", "<P>")


def test_a_link_put_in_place_of_the_workspace_root_is_not_followed(
    workspace: Workspace, root: Path, tmp_path: Path
) -> None:
    root.rename(tmp_path / "moved")
    root.symlink_to(tmp_path / "outside")
    assert refusal_of(lambda: workspace.open_for_read("secret.txt")).code is ErrorCode.NOT_FOUND
    assert refusal_of(lambda: workspace.list_dir()).code is ErrorCode.NOT_FOUND


def test_walks_release_every_descriptor_they_open(workspace: Workspace, linked: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(50):
        for path in ["sub/inner.txt", "out/secret.txt", "loop", "nope/x", "subdir/inner.txt"]:
            with contextlib.suppress(PathRefusal):
                workspace.open_for_read(path).close()
        workspace.list_dir("subdir")
    assert len(os.listdir("/proc/self/fd")) == before
