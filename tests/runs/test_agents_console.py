"""The console's folds read the real events of a run of many agents: its agent tree (who made whom,
by which succession, with which end) and its module index (each store, its holders, and what the
fork and the exec did to it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import EXEC, FORK, line, profile, run_crew, subagents

from gg.console.agents import fold_agents
from gg.console.modules import fold_modules
from gg.console.vocabulary import ModuleKind
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
