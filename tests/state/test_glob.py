"""Recursive listings by a glob pattern: what matches, in which order, and that the walk stays in."""

from __future__ import annotations

import os
from pathlib import Path

from gg.errors import ErrorCode
from gg.state.workspace import MAX_SCANNED_ENTRIES, EntryKind, Workspace
from gg.state.workspace.glob import GlobMatch, glob

from .workspace_calls import refusal_of

FILE, DIRECTORY, OTHER = EntryKind.FILE, EntryKind.DIRECTORY, EntryKind.OTHER


def paths(workspace: Workspace, pattern: str) -> list[str]:
    return [match.path for match in glob(workspace, pattern)]


def tree(root: Path, *files: str) -> None:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(name)


def test_a_double_star_matches_any_number_of_folders_none_included(workspace: Workspace, root: Path) -> None:
    tree(root, "src/app.py", "src/gg/cli.py", "src/gg/deep/er/x.py", "src/gg/notes.md", "top.py")
    assert paths(workspace, "src/**/*.py") == ["src/app.py", "src/gg/cli.py", "src/gg/deep/er/x.py"]
    assert paths(workspace, "**/*.py") == ["src/app.py", "src/gg/cli.py", "src/gg/deep/er/x.py", "top.py"]
    assert paths(workspace, "src/*/*.py") == ["src/gg/cli.py"]


def test_matches_carry_their_kind_in_walk_order_a_folder_before_what_it_holds(
    workspace: Workspace, root: Path
) -> None:
    assert glob(workspace, "**") == [
        GlobMatch("notes.txt", FILE),
        GlobMatch("sub", DIRECTORY),
        GlobMatch("sub/inner.txt", FILE),
    ]
    assert paths(workspace, "sub/**") == ["sub/inner.txt"]


def test_star_question_mark_and_sets_match_within_one_name_case_sensitively(
    workspace: Workspace, root: Path
) -> None:
    tree(root, "a1.txt", "a2.txt", "b1.txt", "A1.txt", ".hidden.txt", "a10.txt")
    assert paths(workspace, "a?.txt") == ["a1.txt", "a2.txt"]
    assert paths(workspace, "[ab]1.txt") == ["a1.txt", "b1.txt"]
    assert paths(workspace, "[!ab]1.txt") == ["A1.txt"]
    assert paths(workspace, "*.txt")[:2] == [".hidden.txt", "A1.txt"]
    assert "sub/inner.txt" not in paths(workspace, "*.txt")


def test_a_pattern_without_wildcards_matches_that_one_path_if_it_exists(workspace: Workspace) -> None:
    assert glob(workspace, "sub/inner.txt") == [GlobMatch("sub/inner.txt", FILE)]
    assert glob(workspace, "sub/absent.txt") == []
    assert paths(workspace, "/" + str(workspace.root).strip("/") + "/sub/*") == ["sub/inner.txt"]


def test_the_folder_a_walk_starts_in_must_exist_and_be_a_folder(workspace: Workspace) -> None:
    assert refusal_of(lambda: glob(workspace, "nope/**/*.py")).code is ErrorCode.NOT_FOUND
    refused = refusal_of(lambda: glob(workspace, "notes.txt/*"))
    assert (refused.code, refused.message) == (ErrorCode.INVALID_ARGUMENT, "`notes.txt/*` is not a directory")
    refused = refusal_of(lambda: glob(workspace, "."))
    assert refused.code is ErrorCode.INVALID_ARGUMENT and "workspace itself" in refused.message


def test_a_pattern_leading_outside_is_refused_like_any_path(workspace: Workspace, root: Path) -> None:
    for pattern in ("../*", "../outside/*", "sub/../../**", str(root.parent / "outside") + "/*"):
        refused = refusal_of(lambda pattern=pattern: glob(workspace, pattern))
        assert refused.message.endswith("is outside the workspace"), pattern


def test_links_are_matched_by_name_and_never_entered(workspace: Workspace, linked: Path) -> None:
    found = glob(workspace, "**")
    names = {match.path: match.kind for match in found}
    for link in ("etc", "out", "outabs", "proc", "sub/up", "loop", "subdir", "insideabs", "dangling"):
        assert names[link] is OTHER, link
    assert not any(
        path.startswith(("etc/", "out/", "outabs/", "proc/", "sub/up/", "subdir/")) for path in names
    )
    assert [match.path for match in glob(workspace, "**/secret.txt")] == []


def test_a_walk_may_start_in_a_folder_reached_through_a_link_that_stays_inside(
    workspace: Workspace, linked: Path
) -> None:
    assert paths(workspace, "subdir/*.txt") == ["subdir/inner.txt"]
    for pattern in ("out/*", "etc/**", "sub/up/*", "outabs/*"):
        refused = refusal_of(lambda pattern=pattern: glob(workspace, pattern))
        assert refused.message.endswith("is outside the workspace"), pattern


def test_a_walk_reads_at_most_its_budget_of_entries(workspace: Workspace, root: Path) -> None:
    assert MAX_SCANNED_ENTRIES == 100_000
    tree(root, *(f"many/{n:02}.txt" for n in range(20)))
    assert len(glob(workspace, "many/*", budget=20)) == 20
    refused = refusal_of(lambda: glob(workspace, "**/*.txt", budget=20))
    assert (refused.code, refused.message) == (
        ErrorCode.LIMIT_EXCEEDED,
        "`**/*.txt` reads more than 20 entries; narrow the pattern",
    )


def test_no_path_of_more_than_64_components_is_matched(workspace: Workspace, root: Path) -> None:
    deep = root.joinpath(*(["d"] * 70))
    deep.mkdir(parents=True)
    for level in (63, 64, 65):
        (root.joinpath(*(["d"] * (level - 1))) / "leaf").write_text(str(level))
    assert sorted(len(path.split("/")) for path in paths(workspace, "**/leaf")) == [63, 64]


def test_a_name_that_is_not_utf8_is_matched_with_a_replacement_character(
    workspace: Workspace, root: Path
) -> None:
    os.close(os.open(os.fsencode(root) + b"/sub/bad-\x80.txt", os.O_CREAT | os.O_WRONLY))
    assert "sub/bad-\ufffd.txt" in paths(workspace, "sub/*.txt")
