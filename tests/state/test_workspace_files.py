"""Kinds of file a workspace call acts on, and directory listings."""

from __future__ import annotations

import os
import time
from pathlib import Path

from gg.errors import ErrorCode
from gg.state.workspace.confinement import MAX_SCANNED_ENTRIES, DirEntry, EntryKind, Workspace, scan
from support.wall_bounds import STOPPED_WITHIN_SECS

from .workspace_calls import refusal_of, write


def test_a_fifo_is_refused_at_once_for_reading_and_writing(workspace: Workspace, root: Path) -> None:
    os.mkfifo(root / "pipe")
    started = time.perf_counter()
    assert refusal_of(lambda: workspace.open_for_read("pipe")).message == "`pipe` is not a regular file"
    assert refusal_of(lambda: workspace.open_for_write("pipe")).message == "`pipe` is not a regular file"
    assert refusal_of(lambda: workspace.open_for_update("pipe")).message == "`pipe` is not a regular file"
    assert time.perf_counter() - started < STOPPED_WITHIN_SECS  # a FIFO opened waits forever


def test_a_directory_is_not_a_file_to_read_orwrite(workspace: Workspace) -> None:
    for action in (
        lambda: workspace.open_for_read("sub"),
        lambda: workspace.open_for_write("sub"),
        lambda: workspace.open_for_read("."),
        lambda: workspace.open_for_write("."),
    ):
        refusal = refusal_of(action)
        assert refusal.code is ErrorCode.INVALID_ARGUMENT and refusal.message.endswith("is a directory")


def test_a_missing_file_is_not_found(workspace: Workspace) -> None:
    assert refusal_of(lambda: workspace.open_for_read("nope.txt")).message == "`nope.txt` does not exist"
    assert refusal_of(lambda: workspace.open_for_read("nope/x.txt")).code is ErrorCode.NOT_FOUND
    assert refusal_of(lambda: workspace.open_for_read("notes.txt/x")).code is ErrorCode.NOT_FOUND
    assert refusal_of(lambda: workspace.open_for_update("nope.txt")).code is ErrorCode.NOT_FOUND


def test_a_write_creates_missing_parents_inside_and_empties_an_existing_file(
    workspace: Workspace, root: Path
) -> None:
    write(workspace, "new/deeper/file.txt", "abc")
    assert (root / "new" / "deeper" / "file.txt").read_text() == "abc"
    write(workspace, "notes.txt", "x")
    assert (root / "notes.txt").read_text() == "x"


def test_a_write_through_a_file_as_a_parent_is_refused(workspace: Workspace) -> None:
    refusal = refusal_of(lambda: workspace.open_for_write("notes.txt/child.txt"))
    assert refusal.message == "`notes.txt/child.txt` runs through a file that is not a directory"


def test_a_listing_is_sorted_by_name_and_never_follows_links(workspace: Workspace, root: Path) -> None:
    (root / "b-link").symlink_to("notes.txt")
    os.mkfifo(root / "a-pipe")
    assert workspace.list_dir() == [
        DirEntry("a-pipe", EntryKind.OTHER),
        DirEntry("b-link", EntryKind.OTHER),
        DirEntry("notes.txt", EntryKind.FILE),
        DirEntry("sub", EntryKind.DIRECTORY),
    ]
    assert workspace.list_dir(".") == workspace.list_dir()
    assert workspace.list_dir("sub") == [DirEntry("inner.txt", EntryKind.FILE)]


def test_listing_a_file_or_a_missing_directory_is_refused(workspace: Workspace) -> None:
    assert refusal_of(lambda: workspace.list_dir("notes.txt")).message == "`notes.txt` is not a directory"
    assert refusal_of(lambda: workspace.list_dir("nope")).code is ErrorCode.NOT_FOUND
    assert refusal_of(lambda: workspace.list_dir("")).code is ErrorCode.INVALID_ARGUMENT


def test_a_name_that_is_not_utf8_is_listed_with_a_replacement_character(
    workspace: Workspace, root: Path
) -> None:
    os.close(os.open(os.fsencode(root) + b"/bad-\x80.txt", os.O_CREAT | os.O_WRONLY))
    assert DirEntry("bad-\ufffd.txt", EntryKind.FILE) in workspace.list_dir()


def test_a_directory_is_read_up_to_its_budget_of_entries_and_refused_past_it(
    workspace: Workspace, root: Path
) -> None:
    assert MAX_SCANNED_ENTRIES == 100_000
    big = root / "big"
    big.mkdir()
    for index in range(10_001):
        (big / f"{index:05}").touch()
    assert len(workspace.list_dir("big")) == 10_001  # more than a page: the SDK pages it
    with workspace.directory("big") as fd:
        assert len(scan(fd, "big", budget=10_001)) == 10_001
        refusal = refusal_of(lambda: scan(fd, "big", budget=10_000))
    assert (refusal.code, refusal.message) == (
        ErrorCode.LIMIT_EXCEEDED,
        "`big` holds more than 100000 entries, more than a listing reads",
    )
