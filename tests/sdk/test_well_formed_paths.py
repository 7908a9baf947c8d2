"""A path must be well-formed Unicode, on every arm and for every operation that takes one: a lone
surrogate (which JavaScript hands over as it is, and the Python engine reads as U+FFFD) is refused
`invalid-argument`, naming where it stands, and nothing is written."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from gg.sandbox.execution import Arm
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.registry import Role
from gg.sdk.scope import ProgramScope
from gg.state.views import ViewSet
from gg.state.workspace import Workspace
from guest_world import CEILINGS, QuietLog

pytestmark = pytest.mark.arms("javascript", "python")

JS = r"""import { files, views } from "gg";
const name = "a\uD800b.txt";
const seen = [];
const attempt = (label, f) => {
  try { f(); seen.push(`${label} ok`); } catch (e) { seen.push(`${label} ${e.code}: ${e.message}`); }
};
attempt("write", () => files.writeFile(name, "x"));
attempt("nested", () => files.writeFile("dir/" + name, "x"));
attempt("read", () => files.readFile(name));
attempt("read-text", () => files.readTextFile(name));
attempt("edit", () => files.editFile(name, "x", "y"));
attempt("list", () => files.listDir(name));
attempt("open", () => views.openFile(name));
console.log(JSON.stringify(seen));
"""
PY = r"""import gg
from gg import files, views
name = "a\ud800b.txt"
seen = []
def attempt(label, f):
    try:
        f()
        seen.append(label + " ok")
    except gg.ApiError as e:
        d = gg.core.details(e)
        seen.append(label + " " + d.code + ": " + d.message)
attempt("write", lambda: files.write_file(name, "x"))
attempt("nested", lambda: files.write_file("dir/" + name, "x"))
attempt("read", lambda: files.read_file(name))
attempt("read-text", lambda: files.read_text_file(name))
attempt("edit", lambda: files.edit_file(name, old_string="x", new_string="y"))
attempt("list", lambda: files.list_dir(name))
attempt("open", lambda: views.open_file(name))
print(seen)
"""


def test_a_path_holding_a_lone_surrogate_is_refused_by_every_file_operation_and_nothing_is_written(
    arm: Arm, tmp_path: Path
) -> None:
    registry, language = default_registry(), arm.language
    scope = ProgramScope(
        "root",
        Role.STANDARD,
        frozenset(),
        Workspace(tmp_path),
        ViewSet(),
        1,
        spell=registry.spelling(language),
    )
    execution = arm.run(
        JS if language == "javascript" else PY, Membrane(registry, scope, QuietLog(), language), CEILINGS, ()
    )
    assert execution.ok, execution.failure
    if language == "javascript":  # the surrogate reaches gg as it is
        reason = "holds a lone surrogate (U+D800) at index {at}; a path must be well-formed Unicode"
        quoted, nested = "`a\\ud800b.txt`", "`dir/a\\ud800b.txt`"
    else:  # the engine reads "\ud800" as U+FFFD
        reason = (
            "holds U+FFFD at index {at}, the character that stands for one that was not well-formed "
            "(a lone surrogate, or bytes that are not UTF-8); a path must be well-formed Unicode"
        )
        quoted, nested = "`a\ufffdb.txt`", "`dir/a\ufffdb.txt`"
    said = f"invalid-argument: {quoted} {reason.format(at=1)}"
    assert ast.literal_eval(execution.logs[-1]) == [
        f"write {said}",
        f"nested invalid-argument: {nested} {reason.format(at=5)}",
        f"read {said}",
        f"read-text {said}",
        f"edit {said}",
        f"list {said}",
        f"open {said}",
    ]
    assert os.listdir(tmp_path) == []  # nothing written, no directory made
