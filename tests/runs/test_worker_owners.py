"""The loop runs an agent's JavaScript programs as that agent incarnation's own: its programs in a
row share one Worker (each in a fresh realm), and another agent's never do. A program walks from a
web API to the Worker's own realm to count the programs that reached it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from crew import line, profile, run_crew, subagents

from gg.loop.agent import Incarnation
from gg.sandbox.execution import Arm

pytestmark = pytest.mark.arms("javascript")

COUNT = (
    'import { delegation, session } from "gg";\n'
    'const W = URL.constructor("return globalThis")();\n'
    "W.seen = (W.seen ?? 0) + 1;\n"
    "console.log(W.seen);\n"
)
SPAWN_AND_WAIT = (
    'const helper = delegation.spawnSubagent({ agent: "helper", prompt: "count" });\n'
    "delegation.waitForSubagents([helper.id]);\n"
)


def test_an_agents_programs_share_its_worker_and_its_subagents_programs_do_not(
    tmp_path: Path, arm: Arm
) -> None:
    crew = run_crew(
        tmp_path,
        [profile("root", subagents(), roster=["helper"]), profile("helper")],
        [
            line(COUNT),
            line(COUNT + SPAWN_AND_WAIT),
            line(COUNT + 'session.finish("counted");\n'),
            line(COUNT + 'session.finish("helped");\n', agent="root.1"),
        ],
        arm=arm,
    )
    assert crew.result.status.value == "completed", crew.result
    assert [crew.logs("root", n) for n in range(3)] == [["1"], ["2"], ["3"]]
    assert crew.logs("root.1") == ["1"]


def test_every_incarnation_is_its_own_owner_even_one_built_where_a_freed_one_stood() -> None:
    owners = set()
    for _ in range(100):  # CPython builds each where the one freed before it stood
        agent = Incarnation(
            setup=SimpleNamespace(slug="root"),  # type: ignore[arg-type]
            holdings=None,  # type: ignore[arg-type]
            client=None,  # type: ignore[arg-type]
            stream=SimpleNamespace(agent_id="root"),  # type: ignore[arg-type]
            node=None,  # type: ignore[arg-type]
        )
        owners.add(agent.owner)
        del agent
    assert len(owners) == 100
