"""The `board` family through the membrane, on both arms: ids numbered by the run's one counter per
prefix across a fork's linked handle (fidelity case 091), the per-agent rules on filing and waiting,
and `IssueCreated.wait()` registering a wait served between turns."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.config.modules import BoardCaps
from gg.sandbox.execution import Arm
from gg.state.board import Board, BoardHandle, IssuePolicy, NewIssue
from support.guest_attempts import JS_SEEN, PY_SEEN, js_attempt, py_attempt

from .moduleworld import module_agent

pytestmark = pytest.mark.arms("javascript", "python")

FIRST = {
    "javascript": """import { board } from "gg";
const epic = board.createEpic({ prefix: "abc", title: "Parts", description: "the parts work" });
const first = board.createIssue({ title: "count the bolts", inScope: "bolts", outOfScope: "nuts",
  completionCriteria: "a number", epicId: epic.id, agent: "impl" });
console.log(JSON.stringify([epic.id, first.id, first.board]));
""",
    "python": """import gg
import json
epic = gg.board.create_epic(prefix="abc", title="Parts", description="the parts work")
first = gg.board.create_issue(title="count the bolts", in_scope="bolts", out_of_scope="nuts",
    completion_criteria="a number", epic_id=epic.id, agent="impl")
b = first.board
print(json.dumps([epic.id, first.id, {"epics": b.epics, "maxEpics": b.max_epics, "issues": b.issues,
    "maxIssues": b.max_issues}]))
""",
}
FILE_AND_WAIT = {
    "javascript": """import { board } from "gg";
const issue = board.createIssue({ title: "count the nuts", inScope: "nuts", outOfScope: "bolts",
  completionCriteria: "a number", epicId: "ABC", agent: "impl" });
const ack = issue.wait();
board.waitForIssue("ABC-1");
console.log(JSON.stringify([issue.id, ack]));
""",
    "python": """import gg
import json
issue = gg.board.create_issue(title="count the nuts", in_scope="nuts", out_of_scope="bolts",
    completion_criteria="a number", epic_id="ABC", agent="impl")
ack = issue.wait()
gg.board.wait_for_issue("ABC-1")
print(json.dumps([issue.id, ack]))
""",
}
REFUSALS = {
    "javascript": """import { board } from "gg";
"""
    + JS_SEEN
    + js_attempt("code-operation")
    + """const base = { title: "t", inScope: "i", outOfScope: "o", completionCriteria: "c" };
attempt("not-an-implementer", () => board.createIssue({ ...base, agent: "rev" }));
attempt("no-agent", () => board.createIssue(base));
attempt("short-prefix", () => board.createEpic({ prefix: "ab", title: "t", description: "d" }));
attempt("ghost-epic", () => board.createIssue({ ...base, agent: "impl", epicId: "NOPE" }));
attempt("second", () => board.createIssue({ ...base, agent: "impl", blockedBy: ["ABC-1"] }));
attempt("cycle", () => board.setIssueBlockedBy("ABC-1", ["ISSUE-1"]));
attempt("clear", () => board.updateIssue("ABC-1", { description: null, epicId: null, status: "done" }));
attempt("gg-status", () => board.updateIssue("ABC-1", { status: "failed" }));
attempt("wait-own", () => board.waitForIssue("ISSUE-1"));
attempt("wait-ghost", () => board.waitForIssue("ABC-9"));
const left = board.removeEpic("ABC");
console.log(JSON.stringify([seen, left]));
""",
    "python": """import gg
import json
"""
    + PY_SEEN
    + py_attempt("code-operation")
    + """def issue(**more):
    return gg.board.create_issue(title="t", in_scope="i", out_of_scope="o", completion_criteria="c", **more)
attempt("not-an-implementer", lambda: issue(agent="rev"))
attempt("no-agent", lambda: issue())
attempt("short-prefix", lambda: gg.board.create_epic(prefix="ab", title="t", description="d"))
attempt("ghost-epic", lambda: issue(agent="impl", epic_id="NOPE"))
attempt("second", lambda: issue(agent="impl", blocked_by=["ABC-1"]))
attempt("cycle", lambda: gg.board.set_issue_blocked_by("ABC-1", ["ISSUE-1"]))
attempt("clear", lambda: gg.board.update_issue("ABC-1", description="", status="done"))
attempt("gg-status", lambda: gg.board.update_issue("ABC-1", status="failed"))
attempt("wait-own", lambda: gg.board.wait_for_issue("ISSUE-1"))
attempt("wait-ghost", lambda: gg.board.wait_for_issue("ABC-9"))
u = gg.board.remove_epic("ABC")
left = {"epics": u.epics, "maxEpics": u.max_epics, "issues": u.issues, "maxIssues": u.max_issues}
print(json.dumps([seen, left]))
""",
}


def test_a_fork_files_on_the_forkers_board_and_every_number_comes_from_one_counter(
    arm: Arm, tmp_path: Path
) -> None:
    handle = BoardHandle(Board(BoardCaps(5, 10, 0)), IssuePolicy(implementers=("impl",)))
    root = module_agent(arm, tmp_path, board=handle)
    assert root.logged(FIRST[arm.language]) == [
        ["ABC", "ABC-1", {"epics": 1, "maxEpics": 5, "issues": 1, "maxIssues": 10}]
    ]
    copy = module_agent(arm, tmp_path, board=handle.copy())
    assert copy.logged(FILE_AND_WAIT[arm.language]) == [["ABC-2", "ABC-2"]]
    assert copy.scope.deferred.waits == ["ABC-2", "ABC-1"]  # served between turns
    again = module_agent(arm, tmp_path, board=handle)
    assert again.logged(FILE_AND_WAIT[arm.language])[0][0] == "ABC-3"
    assert [issue["id"] for issue in handle.board.snapshot().issues] == ["ABC-1", "ABC-2", "ABC-3"]


def test_the_per_agent_rules_and_the_boards_refusals_reach_the_program(arm: Arm, tmp_path: Path) -> None:
    board = Board(BoardCaps(5, 10, 0))
    filer = BoardHandle(board, IssuePolicy(implementers=("impl",)))
    filer.create_epic("abc", "Parts", "the parts")
    filer.create_issue(NewIssue("t", "i", "o", "c", "impl", description="first", epic_id="ABC"))
    agent = module_agent(arm, tmp_path, board=BoardHandle(board, filer.policy, assigned_issue="ISSUE-1"))
    [[seen, left]] = agent.logged(REFUSALS[arm.language])
    assert seen == [
        "not-an-implementer invalid-argument create_issue",
        "no-agent invalid-argument create_issue",
        "short-prefix invalid-argument create_epic",
        "ghost-epic not-found create_issue",
        "second ok",
        "cycle conflict set_issue_blocked_by",
        "clear ok",
        "gg-status invalid-argument update_issue",
        "wait-own invalid-argument wait_for_issue",
        "wait-ghost not-found wait_for_issue",
    ]
    assert left == {"epics": 0, "maxEpics": 5, "issues": 2, "maxIssues": 10}
    first = board.snapshot().issues[0]
    assert first["status"] == "done" and "description" not in first
    assert agent.scope.deferred.waits == []


def test_the_board_calls_are_unavailable_without_the_capability(arm: Arm, tmp_path: Path) -> None:
    agent = module_agent(arm, tmp_path, frozenset())
    execution = agent.run(FIRST[arm.language])
    assert execution.failure is not None and "unavailable" in execution.failure.text
