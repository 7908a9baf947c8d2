"""Whole sessions with task lists, on the JavaScript and the Python arm (seed 003, "tasks"): a fork's
copy gets an independent list (copied under a new id) and the same board (linked, `board-0`); an
exec carries the list to a profile with a tighter cap, which keeps every task and refuses the next
add, and the board to a profile without the capability, which holds it but makes no calls."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from crew import EXEC, FORK, line, profile, run_crew, subagents

from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript", "python")

BOARD = {"id": "project-management", "params": {"maxEpics": 5, "maxIssues": 10, "maxRetries": 0}}


def _tasks(cap: int) -> dict[str, Any]:
    return {"id": "tasks", "params": {"maxTasks": cap, "mode": "simple"}}


PROGRAMS = {
    "javascript": {
        "plan": """import { delegation, tasks } from "gg";
tasks.addTask({ id: "t1", title: ["weigh", "the", "crates"].join("-") });
tasks.addTask({ id: "t2", title: "stack them", blockedBy: ["t1"] });
delegation.fork("try the pallets instead");
console.log("planned");
""",
        "copy": """import { board, session, tasks } from "gg";
tasks.addTask({ id: "t9", title: "weigh the pallets" });
board.createEpic({ prefix: "plt", title: "Pallets", description: "the pallet work" });
session.finish("pallets planned");
""",
        "hand": """import { delegation, tasks } from "gg";
delegation.waitForSubagents();
tasks.addTask({ id: "t3", title: "label them" });
delegation.exec("worker", "finish the crates");
""",
        "work": """import { board, session, tasks } from "gg";
const seen = [];
const attempt = (label, f) => {
  try { const u = f(); seen.push(`${label} ok ${u.count}`); } catch (e) { seen.push(`${label} ${e.code}`); }
};
attempt("add", () => tasks.addTask({ id: "t4", title: "sweep" }));
attempt("remove", () => tasks.removeTask("t3"));
attempt("add-at-cap", () => tasks.addTask({ id: "t4", title: "sweep" }));
attempt("board", () => board.createEpic({ prefix: "abc", title: "t", description: "d" }));
console.log(JSON.stringify(seen));
session.finish("crates done");
""",
    },
    "python": {
        "plan": """from gg import delegation, tasks
tasks.add_task(id="t1", title="-".join(["weigh", "the", "crates"]))
tasks.add_task(id="t2", title="stack them", blocked_by=["t1"])
delegation.fork("try the pallets instead")
print("planned")
""",
        "copy": """from gg import board, session, tasks
tasks.add_task(id="t9", title="weigh the pallets")
board.create_epic(prefix="plt", title="Pallets", description="the pallet work")
session.finish("pallets planned")
""",
        "hand": """from gg import delegation, tasks
delegation.wait_for_subagents()
tasks.add_task(id="t3", title="label them")
delegation.exec("worker", "finish the crates")
""",
        "work": """import json
import gg
from gg import board, session, tasks
seen = []
def attempt(label, f):
    try:
        seen.append(f"{label} ok {f().count}")
    except gg.ApiError as e:
        seen.append(f"{label} {gg.core.details(e).code}")
attempt("add", lambda: tasks.add_task(id="t4", title="sweep"))
attempt("remove", lambda: tasks.remove_task("t3"))
attempt("add-at-cap", lambda: tasks.add_task(id="t4", title="sweep"))
attempt("board", lambda: board.create_epic(prefix="abc", title="t", description="d"))
print(json.dumps(seen))
session.finish("crates done")
""",
    },
}


def _ids(event: dict[str, Any]) -> list[str]:
    return [task["id"] for task in event["tasks"]]


def test_a_fork_copies_the_list_and_links_the_board_and_an_exec_tightens_the_cap_forward(
    tmp_path: Path, arm: Arm
) -> None:
    lang, programs = arm.language, PROGRAMS[arm.language]
    crew = run_crew(
        tmp_path,
        [
            profile("root", _tasks(10), BOARD, subagents(1), FORK, EXEC, language=lang, roster=["worker"]),
            profile("worker", _tasks(2), language=lang),
        ],
        [
            line(programs["plan"]),
            line(programs["hand"]),
            line(programs["copy"], agent="root.f1"),
            line(programs["work"], profile="worker"),
        ],
        arm=arm,
    )
    assert crew.result.status.value == "completed" and crew.finished["finalText"] == "crates done"
    fork, exec_ = crew.of("agent_transition", "root")
    assert [r for r in fork["modules"] if r["kind"] in ("tasks", "board")] == [
        {"kind": "tasks", "disposition": "copied", "from": "tasks-0", "to": "tasks-1"},
        {"kind": "board", "disposition": "linked", "from": "board-0", "to": "board-0"},
    ]
    assert _ids(crew.of("tasks_state", "root.f1")[0]) == ["t1", "t2"]  # re-stated as it opened
    assert _ids(crew.of("tasks_state", "root.f1")[-1]) == ["t1", "t2", "t9"]
    assert {e["moduleId"] for e in crew.of("tasks_state", "root.f1")} == {"tasks-1"}
    assert _ids(crew.of("tasks_state", "root")[-1]) == ["t1", "t2", "t3"]  # the copy's t9 never reached it
    assert [e["epics"] for e in crew.of("board_state", "root")][-1][0]["id"] == "PLT"  # the one board
    assert [r for r in exec_["modules"] if r["kind"] in ("tasks", "board")] == [
        {"kind": "tasks", "disposition": "carried", "from": "tasks-0", "to": "tasks-0"},
        {"kind": "board", "disposition": "carried", "from": "board-0", "to": "board-0"},
    ]
    worker = exec_["toAgentId"]
    rows = {r["kind"]: r for r in crew.one("agent_modules", worker)["modules"]}
    assert (rows["tasks"]["origin"], rows["board"]["origin"], rows["board"]["enabled"]) == (
        "transferred",
        "run",
        True,
    )
    assert _ids(crew.of("tasks_state", worker)[0]) == ["t1", "t2", "t3"]  # kept over the cap of 2
    assert crew.logged_json(worker) == [
        ["add limit-exceeded", "remove ok 2", "add-at-cap limit-exceeded", "board unavailable"]
    ]
    first_request = crew.prompt(worker, 0)
    assert "weigh-the-crates" in first_request and "`t3`: label them" in first_request


def test_an_exec_to_a_profile_without_tasks_drops_the_list_and_its_pinned_block(
    tmp_path: Path, arm: Arm
) -> None:
    lang = arm.language
    if lang == "javascript":
        add = (
            'import { tasks } from "gg";\n'
            'tasks.addTask({ id: "t3", title: "label them" });\nconsole.log("added");\n'
        )
        hand = 'import { delegation } from "gg";\ndelegation.exec("worker", "finish the crates");\n'
        finish = 'import { session } from "gg";\nsession.finish("handed on");\n'
    else:
        add = 'from gg import tasks\ntasks.add_task(id="t3", title="label them")\nprint("added")\n'
        hand = 'from gg import delegation\ndelegation.exec("worker", "finish the crates")\n'
        finish = 'from gg import session\nsession.finish("handed on")\n'
    crew = run_crew(
        tmp_path,
        [
            profile("root", _tasks(10), EXEC, language=lang, roster=["worker"]),
            profile("worker", language=lang),
        ],
        [line(add), line(hand), line(finish, profile="worker")],
        arm=arm,
    )
    assert crew.finished["finalText"] == "handed on"
    (exec_,) = crew.of("agent_transition", "root")
    assert {"kind": "tasks", "disposition": "dropped", "from": "tasks-0"} in exec_["modules"]
    assert "`t3`: label them" in crew.prompt("root", 1)  # pinned at the root's second turn
    worker = exec_["toAgentId"]
    assert "`t3`: label them" not in crew.prompt(worker, 0)  # the block left with the store
    assert crew.of("tasks_state", worker) == []
