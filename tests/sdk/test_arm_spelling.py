"""Every refusal a program meets names the calls and arguments in it as the program's arm writes
them (`gg.files.editFile` and `oldString` in JavaScript, `gg.files.edit_file` and `old_string` in
Python): real programs on the real arms, the exact text each refusal reads. The arm's names are
`ARGUMENTS[arm.language][<snake_case name>]`, written out, never derived."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gg.config.catalogue import Role
from gg.config.modules import BoardCaps, TaskMode
from gg.sandbox.execution import Arm
from gg.sandbox.membrane import Membrane
from gg.sdk.catalogue import default_registry
from gg.sdk.scope import ProgramScope
from gg.state.board import Board, BoardHandle, IssuePolicy, NewIssue
from gg.state.tasks import ScopeEdit, TasksModule
from gg.state.window import ViewSet
from gg.state.workspace import Workspace
from support.guest_attempts import JS_SEEN, PY_SEEN, js_attempt, py_attempt
from support.guest_world import CEILINGS, QuietLog

pytestmark = pytest.mark.arms("javascript", "python")

JS_HEAD = (
    """import * as gg from "gg";
const { files, session } = gg;
"""
    + JS_SEEN
    + js_attempt()
    + js_attempt("operation", "operation")
    + """"""
)
PY_HEAD = (
    """import gg
from gg import files, session
"""
    + PY_SEEN
    + py_attempt()
    + py_attempt("operation", "operation")
    + """"""
)
SHOW = {"javascript": "console.log(JSON.stringify(seen));\n", "python": "print(seen)\n"}
ARGUMENTS = {
    "javascript": {
        "in_scope": "inScope",
        "out_of_scope": "outOfScope",
        "completion_criteria": "completionCriteria",
        "blocked_by": "blockedBy",
        "epic_id": "epicId",
    },
    "python": {
        "in_scope": "in_scope",
        "out_of_scope": "out_of_scope",
        "completion_criteria": "completion_criteria",
        "blocked_by": "blocked_by",
        "epic_id": "epic_id",
    },
}


@dataclass
class Agent:
    """One agent on `arm` over the workspace `root`, of `role`, holding `capabilities`."""

    arm: Arm
    root: Path
    role: Role = Role.STANDARD
    capabilities: frozenset[str] = field(default_factory=frozenset[str])
    extra: dict[str, Any] = field(default_factory=dict[str, Any])

    def attempts(self, calls: dict[str, list[tuple[str, str]]], show: str = "attempt") -> list[str]:
        """Run each (label, call) of the arm's list in one program; what each answered (`show`:
        `attempt` for a refusal's code and message, `operation` for its operation)."""
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
            f"{show}({label!r}, lambda: {call})" if python else f"{show}({label!r}, () => {call});"
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


def _board_agent(arm: Arm, root: Path) -> Agent:
    board = BoardHandle(Board(BoardCaps(5, 10, 0)), IssuePolicy(implementers=("impl",)))
    return Agent(arm, root, capabilities=frozenset({"project-management"}), extra={"board": board})


ISSUE = {
    "title": '"t"',
    "in_scope": '"i"',
    "out_of_scope": '"o"',
    "completion_criteria": '"c"',
    "agent": '"impl"',
}
TASK = {"id": '"a"', "title": '"t"', "in_scope": '"i"', "out_of_scope": '"o"', "completion_criteria": '"c"'}


def _written(language: str, call: str, fields: dict[str, str], **changed: str) -> str:
    """A call of `call` (`<family>.<name>`, as the arm writes it) whose options are `fields` (by
    snake_case name, as source literals) with `changed` replacing them ("" leaves one out)."""
    given = {name: value for name, value in (fields | changed).items() if value}
    if language == "python":
        return f"gg.{call}(" + ", ".join(f"{name}={value}" for name, value in given.items()) + ")"
    named = ARGUMENTS["javascript"]
    options = ", ".join(f"{named.get(name, name)}: {value}" for name, value in given.items())
    return f"gg.{call}({{ {options} }})"


def test_an_issues_refusals_name_its_arguments_as_the_programs_arm_writes_them(
    arm: Arm, tmp_path: Path
) -> None:
    language = arm.language
    create = {"javascript": "board.createIssue", "python": "board.create_issue"}[language]

    def issue(**changed: str) -> str:
        return _written(language, create, ISSUE, **changed)

    calls = [
        ("missing", issue(in_scope="")),
        ("blank", issue(out_of_scope='" "')),
        ("long", issue(completion_criteria='"' + "x" * 8193 + '"')),
        ("epic", issue(epic_id='"NOPE"')),
        ("blocker", issue(blocked_by='["ISSUE-9"]')),
    ]
    calls += {
        "javascript": [
            ("update", 'gg.board.updateIssue("ISSUE-1", { epicId: "NOPE" })'),
            ("update-blank", 'gg.board.updateIssue("ISSUE-1", { inScope: " " })'),
        ],
        "python": [
            ("update", 'gg.board.update_issue("ISSUE-1", epic_id="NOPE")'),
            ("update-blank", 'gg.board.update_issue("ISSUE-1", in_scope=" ")'),
        ],
    }[language]
    agent = _board_agent(arm, tmp_path)
    board: Board = agent.extra["board"].board
    board.create_issue(NewIssue("first", "i", "o", "c", "impl", filed_by="root"))
    named = ARGUMENTS[language]
    assert agent.attempts({language: calls}) == [
        f"missing invalid-argument: `{named['in_scope']}` is required",
        f"blank invalid-argument: `{named['out_of_scope']}` must not be blank",
        f"long limit-exceeded: `{named['completion_criteria']}` is 8193 characters, "
        "over the 8192-character cap",
        f"epic not-found: `{named['epic_id']}` names `NOPE`, and there is no such epic",
        f"blocker not-found: `{named['blocked_by']}` names `ISSUE-9`, and there is no such issue",
        f"update not-found: `{named['epic_id']}` names `NOPE`, and there is no such epic",
        f"update-blank invalid-argument: `{named['in_scope']}` must not be blank",
    ]
    assert [(issue["id"], issue["inScope"]) for issue in board.snapshot().issues] == [("ISSUE-1", "i")]


def test_a_task_lists_refusals_name_its_arguments_as_the_programs_arm_writes_them(
    arm: Arm, tmp_path: Path
) -> None:
    language = arm.language
    add = {"javascript": "tasks.addTask", "python": "tasks.add_task"}[language]

    def task(**changed: str) -> str:
        return _written(language, add, TASK, **changed)

    calls = [
        ("issues-mode", task(out_of_scope="")),
        ("blank", task(completion_criteria='"\\n"')),
        ("blocker", task(blocked_by='["zz"]')),
    ]
    calls += {
        "javascript": [
            ("blank-blocker", 'gg.tasks.setBlockedBy("first", [" "])'),
            ("unsafe-blocker", 'gg.tasks.setBlockedBy("first", ["a b"])'),
            ("update", 'gg.tasks.updateTask("first", { outOfScope: " " })'),
        ],
        "python": [
            ("blank-blocker", 'gg.tasks.set_blocked_by("first", [" "])'),
            ("unsafe-blocker", 'gg.tasks.set_blocked_by("first", ["a b"])'),
            ("update", 'gg.tasks.update_task("first", out_of_scope=" ")'),
        ],
    }[language]
    tasks = TasksModule.fresh(10, TaskMode.ISSUES)
    tasks.write(lambda held: held.add("first", "t", scope=ScopeEdit("i", "o", "c")))
    agent = Agent(arm, tmp_path, capabilities=frozenset({"tasks"}), extra={"tasks": tasks})
    named = ARGUMENTS[language]
    assert agent.attempts({language: calls}) == [
        f"issues-mode invalid-argument: `{named['out_of_scope']}` is required: "
        "this task list is in issues mode",
        f"blank invalid-argument: `{named['completion_criteria']}` must not be blank",
        f"blocker not-found: `{named['blocked_by']}` names `zz`, and there is no such task",
        f"blank-blocker invalid-argument: `{named['blocked_by']}` must not be blank",
        f"unsafe-blocker invalid-argument: `{named['blocked_by']}` "
        "must hold no whitespace or control characters",
        f"update invalid-argument: `{named['out_of_scope']}` must not be blank",
    ]
    assert [(task.id, task.blocked_by) for task in tasks.tasks.tasks] == [("first", ())]  # nothing changed


def test_a_simple_task_list_refuses_a_section_naming_it_as_the_programs_arm_writes_it(
    arm: Arm, tmp_path: Path
) -> None:
    calls = {
        "javascript": [("simple", 'gg.tasks.addTask({ id: "a", title: "t", completionCriteria: "c" })')],
        "python": [("simple", 'gg.tasks.add_task(id="a", title="t", completion_criteria="c")')],
    }
    tasks = TasksModule.fresh(10, TaskMode.SIMPLE)
    agent = Agent(arm, tmp_path, capabilities=frozenset({"tasks"}), extra={"tasks": tasks})
    criteria = ARGUMENTS[arm.language]["completion_criteria"]
    assert agent.attempts(calls) == [
        f"simple invalid-argument: this task list is in simple mode: a task carries no `{criteria}`"
    ]


def test_the_membranes_gate_and_deadline_name_the_calls_as_the_programs_arm_writes_them(
    arm: Arm, tmp_path: Path
) -> None:
    calls = {
        "javascript": [
            ("capability", 'gg.tasks.addTask({ id: "a", title: "t" })'),
            ("ending", 'session.finish("done")'),
        ],
        "python": [
            ("capability", 'gg.tasks.add_task(id="a", title="t")'),
            ("ending", 'session.finish("done")'),
        ],
    }
    add_task, request_changes = {
        "javascript": ("gg.tasks.addTask", "gg.session.requestChanges"),
        "python": ("gg.tasks.add_task", "gg.session.request_changes"),
    }[arm.language]
    assert Agent(arm, tmp_path, Role.REVIEW).attempts(calls) == [
        f"capability unavailable: `{add_task}` is not available: "
        "this agent's profile does not enable `tasks`",
        "ending unavailable: `gg.session.finish` is not available to this agent; it ends with "
        f"`gg.session.approve` or `{request_changes}`",
    ]
    late = Agent(arm, tmp_path, extra={"deadline": 0.0})  # the monotonic clock is long past 0
    assert late.attempts(
        {"javascript": [("late", 'files.readFile("x")')], "python": [("late", 'files.read_file("x")')]}
    ) == ["late limit-exceeded: the run's time is spent; the call was not made"]


def test_every_refusal_names_its_operation_by_the_functions_key_whether_the_guest_or_the_host_made_it(
    arm: Arm, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("one\n")
    calls = {
        "javascript": [
            ("guest-u32", 'files.readFile("notes.txt", { offset: -1 })'),
            ("guest-options", 'files.readFile("notes.txt", 7)'),
            ("guest-unknown", 'files.readFile("notes.txt", { nope: 1 })'),
            ("guest-list", 'gg.board.createIssue({ title: "t", blockedBy: "x" })'),
            ("host", 'files.editFile("notes.txt", "", "x")'),
            ("host-board", 'gg.board.createIssue({ title: "t" })'),
        ],
        "python": [
            ("guest-u32", 'files.read_file("notes.txt", offset=-1)'),
            ("guest-options", 'files.read_file("notes.txt", offset="x")'),
            ("guest-unknown", 'files.read_file("notes.txt", offset=2**40)'),
            ("guest-list", 'gg.board.create_issue(title="t", blocked_by="x")'),
            ("host", 'files.edit_file("notes.txt", old_string="", new_string="x")'),
            ("host-board", 'gg.board.create_issue(title="t")'),
        ],
    }
    read, issue = "read_file", "create_issue"
    assert _board_agent(arm, tmp_path).attempts(calls, show="operation") == [
        f"guest-u32 {read}",
        f"guest-options {read}",
        f"guest-unknown {read}",
        f"guest-list {issue}",
        "host edit_file",
        f"host-board {issue}",
    ]


def test_a_lines_limit_is_refused_stating_the_range_it_is_checked_against_on_every_call_that_takes_it(
    arm: Arm, tmp_path: Path
) -> None:
    (tmp_path / "notes.txt").write_text("one\n")
    calls = {
        "javascript": [
            ("read-0", 'files.readFile("notes.txt", { limit: 0 })'),
            ("text-0", 'files.readTextFile("notes.txt", { limit: 0 })'),
            ("open-0", 'gg.views.openFile("notes.txt", { limit: 0 })'),
            ("open-minus", 'gg.views.openFile("notes.txt", { limit: -1 })'),
            ("read-1", 'files.readFile("notes.txt", { limit: 1 })'),
        ],
        "python": [
            ("read-0", 'files.read_file("notes.txt", limit=0)'),
            ("text-0", 'files.read_text_file("notes.txt", limit=0)'),
            ("open-0", 'gg.views.open_file("notes.txt", limit=0)'),
            ("open-minus", 'gg.views.open_file("notes.txt", limit=-1)'),
            ("read-1", 'files.read_file("notes.txt", limit=1)'),
        ],
    }
    said = "invalid-argument: `limit` must be a whole number from 1 to 4294967295, got"
    assert Agent(arm, tmp_path).attempts(calls) == [
        f"read-0 {said} 0",
        f"text-0 {said} 0",
        f"open-0 {said} 0",
        f"open-minus {said} -1",
        "read-1 ok",
    ]
