"""The console's folds read the real events of a run of many agents: its agent tree (who made whom,
by which succession, with which end) and its module index (each store, its holders, and what the
fork and the exec did to it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import EXEC, FORK, line, profile, run_crew, subagents

from console.conftest import console_client
from gg.console.distribution import Badge, profile_rows
from gg.console.modules import fold_modules
from gg.console.vocabulary import ModuleKind
from gg.record.agents import fold_agents
from gg.record.store import RunStore
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript")

ROOT_1 = """import { delegation } from "gg";
const child = delegation.spawnSubagent({ agent: "worker", prompt: "count the bolts" });
delegation.fork("count the washers");
delegation.waitForSubagents([child.id]);
"""
ROOT_2 = """import { delegation } from "gg";
delegation.waitForSubagents();
delegation.exec("closer", "wrap it up");
"""
DONE = 'import { session } from "gg";\nsession.finish("{text}");\n'


def test_the_consoles_tree_and_module_index_read_a_real_run_of_many_agents(tmp_path: Path, arm: Arm) -> None:
    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(1), EXEC, FORK, roster=["worker", "closer"]),
            profile("worker"),
            profile("closer"),
        ],
        [
            line(ROOT_1),
            line(ROOT_2),
            line(DONE.replace("{text}", "41 washers"), agent="root.f1"),
            line(DONE.replace("{text}", "17 bolts"), profile="worker"),
            line(DONE.replace("{text}", "wrapped"), profile="closer"),
        ],
        arm=arm,
    )
    tree = fold_agents(crew.events, crew.finished["status"])
    relations = {i.id: (i.parent, i.relation, i.profile, i.status) for i in tree.instances.values()}
    assert relations == {
        "root": (None, "root", "root", "handed over"),
        "root.1": ("root", "subagent", "worker", "completed"),
        "root.f1": ("root", "fork", "root", "completed"),
        "root@2": ("root", "exec", "closer", "completed"),
    }
    assert [i.id for i in tree.ordered()] == ["root", "root@2", "root.1", "root.f1"]
    index = fold_modules(crew.events, [i.id for i in tree.ordered()])
    windows = {store.id: [h.agent_id for h in store.holders] for store in index.by_kind()[ModuleKind.HISTORY]}
    assert windows == {"history-0": ["root", "root@2"], "history-1": ["root.1"], "history-2": ["root.f1"]}
    assert not index.stores["history-0"].shared  # handed on by the exec, held by one at a time
    assert [event.what for event in index.stores["history-2"].lifetime][:1] == ["copied"]


def _memories(scope: str) -> dict[str, object]:
    caps = {"maxCount": 20, "maxLenPerMemory": 2000, "maxTotalLen": 8000, "maxLenIndex": 2000}
    params = {"scope": scope, **caps, "maxLenDescription": 200, "maxResults": 0}
    return {"id": "memories", "implementation": "markdown", "params": params}


HELP_AND_FILE = """import { board, delegation } from "gg";
const child = delegation.spawnSubagent({ agent: "helper", prompt: "note the bolts" });
const issue = board.createIssue({ title: "count the nuts", inScope: "the nut bin", outOfScope: "the bolts",
  completionCriteria: "a count", agent: "helper" });
delegation.waitForSubagents([child.id]);
issue.wait();
"""


def test_a_profile_whose_instances_hold_several_stores_one_shared_reads_split_on_the_agents_tab(
    tmp_path: Path, arm: Arm
) -> None:
    """`scope: inherited`: the helper root spawns binds root's store beside root (one store, two
    holders at once); the helper gg dispatches for an issue is offered none and gets its own."""
    board = {"id": "project-management", "params": {"maxEpics": 1, "maxIssues": 2, "maxRetries": 0}}
    roster = [{"agent": "helper", "scopes": ["subagent", "implementer"]}]
    store = RunStore(tmp_path / "runs.db")
    crew = run_crew(
        tmp_path,
        [
            profile("root", subagents(1), board, _memories("isolated"), roster=roster),
            profile("helper", _memories("inherited")),
        ],
        [
            line(HELP_AND_FILE),
            line(DONE.replace("{text}", "counted")),
            line(DONE.replace("{text}", "done"), profile="helper"),
        ],
        arm=arm,
        sinks=[store],
    )
    assert crew.result.status.value == "completed"
    rosters = {e["agentId"]: e["modules"][1] for e in crew.of("agent_modules")}
    assert {a: (m["moduleId"], m["origin"]) for a, m in rosters.items()} == {
        "root": ("memories-0", "created"),
        "root.1": ("memories-0", "inherited"),
        "root.2": ("memories-1", "created"),
    }
    tree = fold_agents(crew.events, crew.finished["status"])
    index = fold_modules(crew.events, [i.id for i in tree.ordered()])
    profile_of = {a: i.profile for a, i in tree.instances.items()}
    helpers = [i.id for i in tree.profiles()["helper"]]
    rows = {row.kind: row for row in profile_rows(index, helpers, profile_of)}
    memories = rows[ModuleKind.MEMORIES]
    assert memories.badge is Badge.SPLIT and memories.notes == ()
    assert [(s.id, s.shared) for s in memories.stores] == [("memories-0", True), ("memories-1", False)]
    page = console_client(tmp_path / "runs.db").get(f"/runs/{crew.result.run_id}/agents")
    assert page.status_code == 200
    split = '<span class="badge distribution badge-split">split</span>'
    assert page.text.count(split) == 1  # the helper's memories row, and no other
    assert page.text.index(split) > page.text.index("helper")
