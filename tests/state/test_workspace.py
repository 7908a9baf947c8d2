"""Path confinement by text: bounds, folding, absolute paths and plain characters."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from gg.errors import ErrorCode
from gg.state.workspace import Workspace
from gg.state.workspace.paths import MAX_PATH_BYTES, MAX_PATH_DEPTH, PathRefusal, quote_path
from support.wall_bounds import STOPPED_WITHIN_SECS

from .workspace_calls import read, refusal_of, write


def test_a_relative_path_starts_at_the_workspace_root(workspace: Workspace) -> None:
    assert read(workspace, "notes.txt") == "hello from the workspace\n"
    assert read(workspace, "sub/./inner.txt") == "inner file\n"
    assert read(workspace, "sub//../sub/inner.txt") == "inner file\n"


def test_an_absolute_path_inside_the_workspace_is_accepted(workspace: Workspace, root: Path) -> None:
    assert read(workspace, f"{root}/notes.txt") == "hello from the workspace\n"
    assert read(workspace, f"{root}/sub/../notes.txt") == "hello from the workspace\n"
    assert read(workspace, f"{root}/../ws/notes.txt") == "hello from the workspace\n"


def test_the_root_given_through_a_link_accepts_both_spellings(root: Path, tmp_path: Path) -> None:
    (tmp_path / "alias").symlink_to(root)
    workspace = Workspace(tmp_path / "alias")
    assert read(workspace, f"{tmp_path}/alias/notes.txt") == "hello from the workspace\n"
    assert read(workspace, f"{root}/notes.txt") == "hello from the workspace\n"


@pytest.mark.parametrize(
    "path",
    [
        "..",
        "../",
        "../outside/secret.txt",
        "./../outside/secret.txt",
        "sub/../../outside/secret.txt",
        "sub/./../.././outside/secret.txt",
        "sub//..//..//outside/secret.txt",
        "../../../../../../../../etc/passwd",
        "../outside/secret.txt/.",
        "/etc/passwd",
        "//etc/passwd",
        "/./etc/passwd",
        "/etc/../etc/passwd",
        "/proc/self/environ",
        "/proc/self/cwd/../outside/secret.txt",
        "/dev/stdin",
        "/dev/fd/0",
        "/",
    ],
)
def test_a_path_that_leaves_the_workspace_is_refused_as_outside(workspace: Workspace, path: str) -> None:
    refusal = refusal_of(lambda: workspace.open_for_read(path))
    assert (refusal.code, refusal.message) == (
        ErrorCode.INVALID_ARGUMENT,
        f"{quote_path(path)} is outside the workspace",
    )


def test_a_sibling_whose_name_starts_with_the_workspace_name_is_outside(
    workspace: Workspace, root: Path
) -> None:
    for path in [
        f"{root}-sibling/secret.txt",
        f"{root}/../ws-sibling/secret.txt",
        f"{root}/..",
        str(root.parent),
    ]:
        assert refusal_of(lambda p=path: workspace.open_for_read(p)).message.endswith(
            "is outside the workspace"
        )
    assert refusal_of(lambda: workspace.list_dir(f"{root}-sibling")).code is ErrorCode.INVALID_ARGUMENT
    assert (
        refusal_of(lambda: workspace.open_for_write(f"{root}-sibling/pwned.txt")).code
        is ErrorCode.INVALID_ARGUMENT
    )
    assert not (root.parent / "ws-sibling" / "pwned.txt").exists()


@pytest.mark.parametrize(
    "path",
    [
        "~/.ssh/id_ed25519",
        "$HOME/.ssh/id_ed25519",
        "${HOME}/x",
        "file:///etc/passwd",
        "..\\outside\\secret.txt",
        "%2e%2e/outside/secret.txt",
        "\uff0e\uff0e\uff0foutside\uff0fsecret.txt",
        "\u2025/outside/secret.txt",
        ".\u200b./outside/secret.txt",
        "\ufeff../outside/secret.txt",
        " ../outside/secret.txt",
    ],
)
def test_tildes_variables_urls_backslashes_and_look_alikes_are_plain_names(
    workspace: Workspace, path: str
) -> None:
    refusal = refusal_of(lambda: workspace.open_for_read(path))
    assert (refusal.code, refusal.message) == (ErrorCode.NOT_FOUND, f"{quote_path(path)} does not exist")


def test_a_look_alike_write_creates_a_file_under_its_literal_name_inside(
    workspace: Workspace, root: Path
) -> None:
    write(workspace, "\uff0e\uff0e\uff0foutside\uff0fpwned.txt", "x")
    assert (root / "\uff0e\uff0e\uff0foutside\uff0fpwned.txt").read_text() == "x"
    assert not (root.parent / "outside" / "pwned.txt").exists()


@pytest.mark.parametrize(
    "path",
    [
        "notes.txt\x00../../etc/passwd",
        "../outside/secret.txt\x00",
        "\x00/etc/passwd",
        "\x00",
        "a\nb",
        "a\u202eb",
    ],
)
def test_a_path_with_a_nul_or_control_character_is_refused_before_the_os_sees_it(
    workspace: Workspace, path: str
) -> None:
    refusal = refusal_of(lambda: workspace.open_for_read(path))
    assert refusal.code is ErrorCode.INVALID_ARGUMENT
    assert "a path may not hold control or bidi characters" in refusal.message
    assert "\x00" not in refusal.message and "\n" not in refusal.message


def test_a_path_with_a_lone_surrogate_is_refused_naming_where_it_stands(
    workspace: Workspace, root: Path
) -> None:
    refusal = refusal_of(lambda: workspace.open_for_write("name-\udc80.txt"))
    assert (refusal.code, refusal.message) == (
        ErrorCode.INVALID_ARGUMENT,
        "`name-\\udc80.txt` holds a lone surrogate (U+DC80) at index 5; a path must be well-formed Unicode",
    )
    assert sorted(os.listdir(root)) == ["notes.txt", "sub"]


def test_a_path_with_the_replacement_character_is_refused_saying_gg_cannot_tell_it_from_bytes_not_utf8(
    workspace: Workspace, root: Path
) -> None:
    (root / "sub" / b"caf\xe9.txt".decode("utf-8", "surrogateescape")).write_text("latin-1 name")
    [listed] = [entry.name for entry in workspace.list_dir("sub") if entry.name.startswith("caf")]
    assert listed == "caf\ufffd.txt"  # a name that is not UTF-8, as a listing shows it
    for attempt in (
        lambda: workspace.open_for_read(f"sub/{listed}"),
        lambda: workspace.open_for_write("a\ufffd"),
    ):
        refusal = refusal_of(attempt)
        assert refusal.code is ErrorCode.INVALID_ARGUMENT
        assert refusal.message.endswith(
            "; gg takes no path holding U+FFFD, since it cannot tell a name that truly holds it from "
            "one whose bytes are not UTF-8 (which a listing shows with U+FFFD), and the Python engine "
            "reads a lone surrogate as U+FFFD too"
        )
    assert refusal_of(lambda: workspace.open_for_write("a\ufffd")).message.startswith(
        "`a\ufffd` holds U+FFFD at index 1"
    )
    assert sorted(os.listdir(root)) == ["notes.txt", "sub"]


def test_an_empty_path_is_an_invalid_argument(workspace: Workspace) -> None:
    refusal = refusal_of(lambda: workspace.open_for_read(""))
    assert (refusal.code, refusal.message) == (ErrorCode.INVALID_ARGUMENT, "`path` is empty")


@pytest.mark.parametrize(
    "path",
    [
        "a/" * (512 * 1024) + "x",
        "z" * (10 * 1024 * 1024),
        "../" * 1000 + "etc/passwd",
        "a/" * 3000 + "../" * 3001 + "outside/secret.txt",
        "y" * 5000 + ".txt",
        "é" * 2049,
    ],
)
def test_an_oversized_path_is_refused_in_bounded_time_before_it_is_resolved(
    workspace: Workspace, path: str
) -> None:
    started = time.perf_counter()
    refusal = refusal_of(lambda: workspace.open_for_read(path))
    assert time.perf_counter() - started < STOPPED_WITHIN_SECS
    assert refusal.code is ErrorCode.INVALID_ARGUMENT
    assert len(refusal.message) < 400


def test_path_bounds_are_4096_bytes_64_components_and_255_bytes_a_component(workspace: Workspace) -> None:
    assert MAX_PATH_BYTES == 4096 and MAX_PATH_DEPTH == 64
    assert refusal_of(lambda: workspace.open_for_read("x" * 256)).message.endswith("longer than 255 bytes")
    assert refusal_of(lambda: workspace.open_for_read("x" * 255)).code is ErrorCode.NOT_FOUND
    assert refusal_of(lambda: workspace.open_for_read("d/" * 65)).message.endswith("more than 64 levels deep")
    assert refusal_of(lambda: workspace.open_for_read("d/" * 63 + "d")).code is ErrorCode.NOT_FOUND


def test_a_write_64_levels_deep_succeeds_and_2000_levels_deep_is_refused_creating_nothing(
    workspace: Workspace, root: Path
) -> None:
    write(workspace, "e/" * 63 + "f.txt", "x")
    assert (root / ("e/" * 63 + "f.txt")).read_text() == "x"
    refusal = refusal_of(lambda: workspace.open_for_write("d/" * 2000 + "f.txt"))
    assert refusal.code is ErrorCode.INVALID_ARGUMENT
    assert not (root / "d").exists()


def test_a_refusal_quotes_at_most_200_characters_of_the_path(workspace: Workspace) -> None:
    message = refusal_of(lambda: workspace.open_for_read("q" * 100000)).message
    assert message == f"`{'q' * 200}` (and 99800 more characters) is longer than 4096 bytes"


def test_no_refusal_names_the_host_path_of_the_workspace(workspace: Workspace, root: Path) -> None:
    (root / "out").symlink_to("../outside")
    for path in ["../outside/secret.txt", "out/secret.txt", "missing.txt", "sub", "notes.txt/x", "a\x00"]:
        with pytest.raises(PathRefusal) as caught:
            workspace.open_for_read(path)
        assert str(root.parent) not in caught.value.message


def test_relative_spells_a_path_from_the_root_without_touching_the_disk(
    workspace: Workspace, root: Path
) -> None:
    assert workspace.relative("./a/../b//c.md") == "b/c.md"
    assert workspace.relative(f"{root}/x.md") == "x.md"
    assert workspace.relative(".") == "."
    assert refusal_of(lambda: workspace.relative("../x")).code is ErrorCode.INVALID_ARGUMENT
