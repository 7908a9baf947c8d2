"""The `tasks` family through the membrane, on both arms: the DAG's refusals as a program sees them
(fidelity case 088), caps tightened forward on a carried list (case 099's tasks half), and the
snapshots the calls leave to report."""

from __future__ import annotations

from pathlib import Path

import pytest

from gg.config.modules import TaskMode
from gg.sandbox.execution import Arm
from gg.state.tasks import TasksModule

from .moduleworld import module_agent

pytestmark = pytest.mark.arms("javascript", "python")

JS_ATTEMPT = """import { tasks } from "gg";
const seen = [];
const attempt = (label, f) => {
  try {
    const u = f();
    seen.push(u && u.count !== undefined ? `${label} ok ${u.count}` : `${label} ok`);
  } catch (e) {
    seen.push(`${label} ${e.code} ${e.operation}`);
  }
};
"""
PY_ATTEMPT = """import gg
import json
seen = []
def attempt(label, f):
    try:
        u = f()
        seen.append(label + " ok" + ("" if u is None else " " + str(u.count)))
    except gg.ApiError as e:
        d = gg.core.details(e)
        seen.append(label + " " + d.code + " " + d.operation)
"""

DAG = {
    "javascript": JS_ATTEMPT
    + """attempt("add-a", () => tasks.addTask({ id: "a", title: "measure" }));
attempt("add-b", () => tasks.addTask({ id: "b", title: "cut", blockedBy: ["a"] }));
attempt("add-c", () => tasks.addTask({ id: "c", title: "sand" }));
attempt("c-after-b", () => tasks.setBlockedBy("c", ["b"]));
attempt("close-the-loop", () => tasks.setBlockedBy("a", ["c"]));
attempt("self", () => tasks.setBlockedBy("a", ["a"]));
attempt("two-cycle", () => tasks.setBlockedBy("b", ["c"]));
attempt("ghost-blocker", () => tasks.setBlockedBy("a", ["ghost"]));
attempt("duplicate-id", () => tasks.addTask({ id: "a", title: "again" }));
attempt("add-on-a-ghost", () => tasks.addTask({ id: "d", title: "oil", blockedBy: ["ghost"] }));
attempt("update-missing", () => tasks.updateTask("zz", { title: "x" }));
attempt("update-nothing", () => tasks.updateTask("a", {}));
attempt("blank-id", () => tasks.addTask({ id: "", title: "x" }));
console.log(JSON.stringify(seen));
""",
    "python": PY_ATTEMPT
    + """attempt("add-a", lambda: gg.tasks.add_task(id="a", title="measure"))
attempt("add-b", lambda: gg.tasks.add_task(id="b", title="cut", blocked_by=["a"]))
attempt("add-c", lambda: gg.tasks.add_task(id="c", title="sand"))
attempt("c-after-b", lambda: gg.tasks.set_blocked_by("c", ["b"]))
attempt("close-the-loop", lambda: gg.tasks.set_blocked_by("a", ["c"]))
attempt("self", lambda: gg.tasks.set_blocked_by("a", ["a"]))
attempt("two-cycle", lambda: gg.tasks.set_blocked_by("b", ["c"]))
attempt("ghost-blocker", lambda: gg.tasks.set_blocked_by("a", ["ghost"]))
attempt("duplicate-id", lambda: gg.tasks.add_task(id="a", title="again"))
attempt("add-on-a-ghost", lambda: gg.tasks.add_task(id="d", title="oil", blocked_by=["ghost"]))
attempt("update-missing", lambda: gg.tasks.update_task("zz", title="x"))
attempt("update-nothing", lambda: gg.tasks.update_task("a"))
attempt("blank-id", lambda: gg.tasks.add_task(id="", title="x"))
print(json.dumps(seen))
""",
}

CARRIED = {
    "javascript": JS_ATTEMPT
    + """attempt("add", () => tasks.addTask({ id: "t7", title: "step 7" }));
attempt("remove", () => tasks.removeTask("t1"));
attempt("add-at-cap", () => tasks.addTask({ id: "t7", title: "step 7" }));
attempt("remove-again", () => tasks.removeTask("t2"));
attempt("add-under-cap", () => tasks.addTask({ id: "t7", title: "step 7" }));
attempt("done", () => tasks.completeTask("t3"));
attempt("clear", () => tasks.updateTask("t4", { description: null, status: "in_progress" }));
attempt("bad-status", () => tasks.updateTask("t4", { status: "finished" }));
console.log(JSON.stringify(seen));
""",
    "python": PY_ATTEMPT
    + """attempt("add", lambda: gg.tasks.add_task(id="t7", title="step 7"))
attempt("remove", lambda: gg.tasks.remove_task("t1"))
attempt("add-at-cap", lambda: gg.tasks.add_task(id="t7", title="step 7"))
attempt("remove-again", lambda: gg.tasks.remove_task("t2"))
attempt("add-under-cap", lambda: gg.tasks.add_task(id="t7", title="step 7"))
attempt("done", lambda: gg.tasks.complete_task("t3"))
attempt("clear", lambda: gg.tasks.update_task("t4", description="", status="in_progress"))
attempt("bad-status", lambda: gg.tasks.update_task("t4", status="finished"))
print(json.dumps(seen))
""",
}


def test_the_dag_refuses_cycles_ghosts_and_duplicates_and_a_refused_call_changes_nothing(
    arm: Arm, tmp_path: Path
) -> None:
    agent = module_agent(arm, tmp_path)
    [seen] = agent.logged(DAG[arm.language])
    assert seen == [
        "add-a ok 1",
        "add-b ok 2",
        "add-c ok 3",
        "c-after-b ok",
        "close-the-loop conflict set_blocked_by",
        "self conflict set_blocked_by",
        "two-cycle conflict set_blocked_by",
        "ghost-blocker not-found set_blocked_by",
        "duplicate-id conflict add_task",
        "add-on-a-ghost not-found add_task",
        "update-missing not-found update_task",
        "update-nothing invalid-argument update_task",
        "blank-id invalid-argument add_task",
    ]
    tasks = agent.scope.tasks
    assert tasks is not None
    [*_, last] = tasks.drain("tasks-0")
    assert last.to_wire()["tasks"] == [
        {"id": "a", "title": "measure", "status": "pending", "blockedBy": []},
        {"id": "b", "title": "cut", "status": "pending", "blockedBy": ["a"]},
        {"id": "c", "title": "sand", "status": "pending", "blockedBy": ["b"]},
    ]


def test_a_list_carried_over_its_new_cap_is_kept_and_the_next_add_is_refused(
    arm: Arm, tmp_path: Path
) -> None:
    carried = TasksModule.fresh(10, TaskMode.SIMPLE)
    for n in range(1, 7):
        carried.write(lambda t, n=n: t.add(f"t{n}", f"step {n}", description="note"))
    carried.drain("tasks-0")
    agent = module_agent(arm, tmp_path, tasks=carried.adopt(5, TaskMode.SIMPLE))
    [arrived] = carried.restate("tasks-0")  # what the successor states as the list arrives
    assert len(arrived.to_wire()["tasks"]) == 6
    [seen] = agent.logged(CARRIED[arm.language])
    assert seen == [
        "add limit-exceeded add_task",
        "remove ok 5",
        "add-at-cap limit-exceeded add_task",
        "remove-again ok 4",
        "add-under-cap ok 5",
        "done ok",
        "clear ok",
        "bad-status invalid-argument update_task",
    ]
    [t4] = [task for task in carried.tasks.tasks if task.id == "t4"]
    assert t4.description is None and t4.status.value == "in_progress"
    assert len(carried.drain("tasks-0")) == 5  # one snapshot per successful call


def test_the_task_calls_are_unavailable_without_the_capability(arm: Arm, tmp_path: Path) -> None:
    agent = module_agent(arm, tmp_path, frozenset())
    js_add = 'attempt("add", () => tasks.addTask({ id: "a", title: "x" }));\n'
    source = (
        JS_ATTEMPT + js_add + "console.log(JSON.stringify(seen));\n"
        if arm.language == "javascript"
        else PY_ATTEMPT
        + 'attempt("add", lambda: gg.tasks.add_task(id="a", title="x"))\nprint(json.dumps(seen))\n'
    )
    assert agent.logged(source) == [["add unavailable add_task"]]
