"""Every refusal a program meets names the calls and arguments in it as the program's arm writes
them (`gg.files.editFile` and `oldString` in JavaScript, `gg.files.edit_file` and `old_string` in
Python): real programs on the real arms, the exact text each refusal reads."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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

JS_HEAD = """import * as gg from "gg";
const { files, session } = gg;
const seen = [];
const attempt = (label, f) => {
  try { f(); seen.push(`${label} ok`); } catch (e) { seen.push(`${label} ${e.code}: ${e.message}`); }
};
"""
PY_HEAD = """import gg
from gg import files, session
seen = []
def attempt(label, f):
    try:
        f()
        seen.append(label + " ok")
    except gg.ApiError as e:
        d = gg.core.details(e)
        seen.append(label + " " + d.code + ": " + d.message)
"""
SHOW = {"javascript": "console.log(JSON.stringify(seen));\n", "python": "print(seen)\n"}


@dataclass
class Agent:
    """One agent on `arm` over the workspace `root`, of `role`, holding `capabilities`."""

    arm: Arm
    root: Path
    role: Role = Role.STANDARD
    capabilities: frozenset[str] = field(default_factory=frozenset[str])
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    def attempts(self, calls: dict[str, list[tuple[str, str]]]) -> list[str]:
        """Run each (label, call) of the arm's list in one program; what each answered."""
        registry, language = default_registry(), self.arm.language
        scope = ProgramScope(
            "root",
            self.role,
            self.capabilities,
            Workspace(self.root),
            ViewSet(),
            1,
            spell=registry.spelling(language),
            **self.extra,
        )
        python = language == "python"
        lines = [
            f"attempt({label!r}, lambda: {call})" if python else f"attempt({label!r}, () => {call});"
            for label, call in calls[language]
        ]
        source = (PY_HEAD if python else JS_HEAD) + "\n".join(lines) + "\n" + SHOW[language]
        execution = self.arm.run(source, Membrane(registry, scope, QuietLog(), language), CEILINGS, ())
        assert execution.ok, execution.failure
        return ast.literal_eval(execution.logs[-1])


def test_an_edits_refusals_name_its_arguments_as_the_programs_arm_writes_them(
    arm: Arm, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("one two two\n")
    calls = {
        "javascript": [
            ("empty", 'files.editFile("notes.txt", "", "x")'),
            ("absent", 'files.editFile("notes.txt", "three", "x")'),
            ("several", 'files.editFile("notes.txt", "two", "x")'),
            ("old-too-large", 'files.editFile("notes.txt", "a".repeat(8 * 1024 * 1024 + 1), "x")'),
            ("new-too-large", 'files.editFile("notes.txt", "one", "é".repeat(4 * 1024 * 1024 + 1))'),
        ],
        "python": [
            ("empty", 'files.edit_file("notes.txt", old_string="", new_string="x")'),
            ("absent", 'files.edit_file("notes.txt", old_string="three", new_string="x")'),
            ("several", 'files.edit_file("notes.txt", old_string="two", new_string="x")'),
            (
                "old-too-large",
                'files.edit_file("notes.txt", old_string="a" * (8 * 1024 * 1024 + 1), new_string="x")',
            ),
            (
                "new-too-large",
                'files.edit_file("notes.txt", old_string="one", new_string="é" * (4 * 1024 * 1024 + 1))',
            ),
        ],
    }
    old, new = {"javascript": ("oldString", "newString"), "python": ("old_string", "new_string")}[
        arm.language
    ]
    assert Agent(arm, tmp_path).attempts(calls) == [
        f"empty invalid-argument: `{old}` is empty",
        f"absent not-found: `{old}` does not occur in `notes.txt`",
        f"several conflict: `{old}` occurs 2 times in `notes.txt`",
        f"old-too-large limit-exceeded: `{old}` is 8388609 bytes, over the 8388608-byte cap",
        f"new-too-large limit-exceeded: `{new}` is 8388610 bytes, over the 8388608-byte cap",
    ]
    assert (tmp_path / "notes.txt").read_text() == "one two two\n"  # nothing was changed


def test_a_change_list_with_no_change_names_the_approval_as_the_programs_arm_writes_it(
    arm: Arm, tmp_path: Path
) -> None:
    calls = {
        "javascript": [("blank", 'session.requestChanges([" ", ""])')],
        "python": [("blank", 'session.request_changes([" ", ""])')],
    }
    reviewer = Agent(arm, tmp_path, Role.REVIEW)
    assert reviewer.attempts(calls) == [
        "blank invalid-argument: `items` holds no change once blank items are dropped; "
        "an approval is `gg.session.approve`"  # one word: both arms write it so
    ]
