"""A path must be well-formed Unicode, on every arm and for every operation that takes one: a lone
surrogate (which JavaScript hands over as it is, and the Python engine reads as U+FFFD) is refused
`invalid-argument`, naming where it stands, and nothing is written."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from gg.config.catalogue import Role
from gg.sandbox.execution import Arm
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.guest_attempts import JS_SEEN, PY_SEEN, js_attempt, py_attempt
from support.guest_world import CEILINGS, QuietLog

pytestmark = pytest.mark.arms("javascript", "python")

REPLACEMENT = (
    "holds U+FFFD at index {at}; gg takes no path holding U+FFFD, since it cannot tell a name that "
    "truly holds it from one whose bytes are not UTF-8 (which a listing shows with U+FFFD), and the "
    "Python engine reads a lone surrogate as U+FFFD too"
)

JS = (
    r"""import { files, views } from "gg";
const name = "a\uD800b.txt";
"""
    + JS_SEEN
    + js_attempt()
    + r"""attempt("write", () => files.writeFile(name, "x"));
attempt("nested", () => files.writeFile("dir/" + name, "x"));
attempt("read", () => files.readFile(name));
attempt("read-text", () => files.readTextFile(name));
attempt("edit", () => files.editFile(name, "x", "y"));
attempt("list", () => files.listDir(name));
attempt("open", () => views.openFile(name));
console.log(JSON.stringify(seen));
"""
)
PY = (
    r"""import gg
from gg import files, views
name = "a\ud800b.txt"
"""
    + PY_SEEN
    + py_attempt()
    + r"""attempt("write", lambda: files.write_file(name, "x"))
attempt("nested", lambda: files.write_file("dir/" + name, "x"))
attempt("read", lambda: files.read_file(name))
attempt("read-text", lambda: files.read_text_file(name))
attempt("edit", lambda: files.edit_file(name, old_string="x", new_string="y"))
attempt("list", lambda: files.list_dir(name))
attempt("open", lambda: views.open_file(name))
print(seen)
"""
)


def _seen(arm: Arm, root: Path, source: str) -> list[str]:
    """What the program `source` collected in `seen`, run on `arm` over the workspace `root`."""
    registry, language = default_registry(), arm.language
    scope = ProgramScope(
        "root",
        Role.STANDARD,
        frozenset(),
        Workspace(root),
        ViewSet(),
        1,
        spell=registry.spelling(language),
    )
    execution = arm.run(source, Membrane(registry, scope, QuietLog(), language), CEILINGS, ())
    assert execution.ok, execution.failure
    return ast.literal_eval(execution.logs[-1])


def test_a_path_holding_a_lone_surrogate_is_refused_by_every_file_operation_and_nothing_is_written(
    arm: Arm, tmp_path: Path
) -> None:
    language = arm.language
    seen = _seen(arm, tmp_path, JS if language == "javascript" else PY)
    if language == "javascript":  # the surrogate reaches gg as it is
        reason = "holds a lone surrogate (U+D800) at index {at}; a path must be well-formed Unicode"
        quoted, nested = "`a\\ud800b.txt`", "`dir/a\\ud800b.txt`"
    else:  # the engine reads "\ud800" as U+FFFD
        reason = REPLACEMENT
        quoted, nested = "`a\ufffdb.txt`", "`dir/a\ufffdb.txt`"
    said = f"invalid-argument: {quoted} {reason.format(at=1)}"
    assert seen == [
        f"write {said}",
        f"nested invalid-argument: {nested} {reason.format(at=5)}",
        f"read {said}",
        f"read-text {said}",
        f"edit {said}",
        f"list {said}",
        f"open {said}",
    ]
    assert os.listdir(tmp_path) == []  # nothing written, no directory made


def _program(language: str, names: str, calls: list[tuple[str, str]]) -> str:
    """A program that tries each (label, call) and collects what each answered in `seen`."""
    head = (JS if language == "javascript" else PY).split('attempt("write"')[0]
    head = head.replace('const name = "a\\uD800b.txt";\n', names).replace('name = "a\\ud800b.txt"\n', names)
    if language == "javascript":
        body = "".join(f"attempt({label!r}, () => {call});\n" for label, call in calls)
        return head + body + "console.log(JSON.stringify(seen));\n"
    return head + "".join(f"attempt({label!r}, lambda: {call})\n" for label, call in calls) + "print(seen)\n"


def test_a_name_holding_u_fffd_is_listed_but_refused_saying_gg_cannot_tell_it_from_bytes_not_utf8(
    arm: Arm, tmp_path: Path
) -> None:
    (tmp_path / "a\ufffdb.txt").write_text("x")
    js = arm.language == "javascript"
    names = "const name = files.listDir()[0].name;\n" if js else "name = files.list_dir()[0].name\n"
    calls = [("listed", "seen.push(name)" if js else "seen.append(name)")]
    calls += [("read", "files.readFile(name)")] if js else [("read", "files.read_file(name)")]
    assert _seen(arm, tmp_path, _program(arm.language, names, calls)) == [
        "a\ufffdb.txt",
        "listed ok",
        f"read invalid-argument: `a\ufffdb.txt` {REPLACEMENT.format(at=1)}",
    ]


def test_a_file_path_ending_in_a_slash_names_a_directory_and_is_refused_before_anything_is_made(
    arm: Arm, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("one\n")
    js = arm.language == "javascript"
    calls = {
        True: [
            ("write", 'files.writeFile("sub/y/", "x")'),
            ("write-dot", 'files.writeFile("sub/y/.", "x")'),
            ("read", 'files.readFile("notes.txt/")'),
            ("edit", 'files.editFile("notes.txt/", "one", "two")'),
            ("open", 'views.openFile("notes.txt/")'),
        ],
        False: [
            ("write", 'files.write_file("sub/y/", "x")'),
            ("write-dot", 'files.write_file("sub/y/.", "x")'),
            ("read", 'files.read_file("notes.txt/")'),
            ("edit", 'files.edit_file("notes.txt/", old_string="one", new_string="two")'),
            ("open", 'views.open_file("notes.txt/")'),
        ],
    }[js]
    reason = "so it names a directory; a file's path does not end in"
    assert _seen(arm, tmp_path, _program(arm.language, "", calls)) == [
        f"write invalid-argument: `sub/y/` ends in `/`, {reason} `/`",
        f"write-dot invalid-argument: `sub/y/.` ends in `/.`, {reason} `/.`",
        f"read invalid-argument: `notes.txt/` ends in `/`, {reason} `/`",
        f"edit invalid-argument: `notes.txt/` ends in `/`, {reason} `/`",
        f"open invalid-argument: `notes.txt/` ends in `/`, {reason} `/`",
    ]
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]  # no `sub`, no `sub/y`
    assert (tmp_path / "notes.txt").read_text() == "one\n"
