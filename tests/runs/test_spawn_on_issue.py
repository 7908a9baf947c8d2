"""`spawnSubagent({agent, issueId})` (issue 21, item 15), on the JavaScript and the Python arm: a
child is briefed with a board issue and put to work on it. The issue moves to `in_progress` naming
the child, the child is its parent's to wait on, and its end moves the issue as an implementer's
does. A brief is a prompt or an issue, never both; an issue held by an agent is `conflict`, one the
board does not hold `not-found`.

At one slot the root's program runs to its wait before any other agent takes a turn, so the issue
gg dispatched on its own (`ISSUE-1`) is still held by its implementer when the root asks for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import line, profile, run_crew, subagents

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

BOARD = {"id": "project-management", "params": {"maxEpics": 5, "maxIssues": 10, "maxRetries": 1}}
ROSTER = [{"agent": "impl", "scopes": ["implementer", "subagent"]}]

SPAWN = {
    "javascript": """import { board, delegation } from "gg";
const first = board.createIssue({ title: "cut the boards", inScope: "cutting", outOfScope: "sanding",
  completionCriteria: "cut", agent: "impl" });
const second = board.createIssue({ title: "sand the boards", inScope: "sanding", outOfScope: "cutting",
  completionCriteria: "sanded", agent: "impl", blockedBy: [first.id] });
const tried = (request) => {
  try { return delegation.spawnSubagent(request).id; } catch (e) { return `${e.code}: ${e.message}`; }
};
const child = tried({ agent: "impl", issueId: second.id });
console.log(JSON.stringify([
  child,
  tried({ agent: "impl", issueId: second.id }),
  tried({ agent: "impl", issueId: first.id }),
  tried({ agent: "impl", issueId: "ISSUE-9" }),
  tried({ agent: "impl", prompt: "sand them", issueId: second.id }),
]));
console.log(JSON.stringify(delegation.waitForSubagents([child]).map((r) => [r.id, r.status, r.summary])));
""",
    "python": """import json
from gg import board, core, delegation
first = board.create_issue(title="cut the boards", in_scope="cutting", out_of_scope="sanding",
    completion_criteria="cut", agent="impl")
second = board.create_issue(title="sand the boards", in_scope="sanding", out_of_scope="cutting",
    completion_criteria="sanded", agent="impl", blocked_by=[first.id])
requests = [
    {"issue_id": second.id}, {"issue_id": second.id}, {"issue_id": first.id}, {"issue_id": "ISSUE-9"},
    {"prompt": "sand them", "issue_id": second.id},
]
tried = []
for request in requests:
    try:
        tried.append(delegation.spawn_subagent(agent="impl", **request).id)
    except OSError as e:
        tried.append(core.details(e).code + ": " + core.details(e).message)
print(json.dumps(tried))
print(json.dumps([[r.id, r.status, r.summary] for r in delegation.wait_for_subagents([tried[0]])]))
""",
}


def _finish(language: str, text: str) -> str:
    if language == "javascript":
        return f'import {{ session }} from "gg";\nsession.finish("{text}");\n'
    return f'from gg import session\nsession.finish("{text}")\n'


def test_a_child_briefed_with_an_issue_is_put_to_work_on_it_and_its_end_moves_the_issue(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    argument = "issueId" if lang == "javascript" else "issue_id"
    crew = run_crew(
        tmp_path,
        [profile("root", BOARD, subagents(1), language=lang, roster=ROSTER), profile("impl", language=lang)],
        [
            line(SPAWN[lang]),
            line(_finish(lang, "cut and sanded")),
            line(_finish(lang, "cut"), agent="root.1"),
            line(_finish(lang, "sanded"), agent="root.2"),
        ],
        arm=arm,
        limits={"maxParallel": 1},
    )
    tried, collected = crew.logged_json("root")
    taken = "a child can be briefed only with an open issue no agent holds"
    assert tried == [
        "root.2",
        f"conflict: `ISSUE-2` is in_progress, held by `root.2`: {taken}",
        f"conflict: `ISSUE-1` is in_progress, held by `root.1`: {taken}",
        "not-found: there is no issue `ISSUE-9`",
        f"invalid-argument: a child's brief is exactly one of `prompt` or `{argument}`; this call gave both",
    ]
    assert collected == [["root.2", "completed", "sanded"]]
    spawned = crew.one("agent_spawned", "root.2")
    assert spawned["brief"].startswith("`root` started you to implement issue `ISSUE-2` of the run's board")
    assert "Done when: sanded" in spawned["brief"] and spawned["parentAgentId"] == "root"
    (arriving,) = [i for i in crew.of("board_state", "root.2")[0]["issues"] if i["id"] == "ISSUE-2"]
    assert (arriving["status"], arriving["assignedAgentId"]) == ("in_progress", "root.2")
    last = [(i["id"], i["status"], i["assignedAgentId"]) for i in crew.of("board_state")[-1]["issues"]]
    assert last == [("ISSUE-1", "done", "root.1"), ("ISSUE-2", "done", "root.2")]
    assert crew.agents == ["root", "root.1", "root.2"]  # gg dispatched no one else to ISSUE-2
    assert crew.finished["finalText"] == "cut and sanded"
