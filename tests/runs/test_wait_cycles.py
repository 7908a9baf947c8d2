"""Waits that could never end are refused when they are declared (issue 21, item 5): a wait on a
board issue, or on a child, that leads back through blockers, the agents at work on issues and
other waits to the waiter is `conflict`, naming each step of the cycle, and the run goes on to its
end. And nothing starts once the run has ended: no retry of an issue whose implementer ran out of
the run's time."""

from __future__ import annotations

from pathlib import Path

import pytest
from crew import line, profile, run_crew, subagents

from gg.sandbox.execution import Arm
from gg.telemetry.events import Event, EventType
from support.manual_clock import ManualClock

pytestmark = pytest.mark.arms("javascript")

BOARD = {"id": "project-management", "params": {"maxEpics": 5, "maxIssues": 10, "maxRetries": 1}}
IMPLEMENTS = [{"agent": "impl", "scopes": ["implementer"]}]

FILE_AND_WAIT = """import { board } from "gg";
const issue = board.createIssue({ title: "cut the boards", inScope: "cutting", outOfScope: "sanding",
  completionCriteria: "cut.txt exists", agent: "impl" });
issue.wait();
"""
FILE_BLOCKED_AND_WAIT = """import { board, session } from "gg";
const second = board.createIssue({ title: "sand the boards", inScope: "sanding", outOfScope: "cutting",
  completionCriteria: "sanded", agent: "impl", blockedBy: ["ISSUE-1"] });
try { board.waitForIssue(second.id); } catch (e) { console.log(`${e.code}: ${e.message}`); }
session.finish("cut, and ISSUE-2 filed");
"""
FINISH = 'import { session } from "gg";\nsession.finish("TEXT");\n'


def _finish(text: str) -> str:
    return FINISH.replace("TEXT", text)


def test_an_implementer_waiting_on_an_issue_blocked_by_its_own_is_refused_naming_the_cycle(
    tmp_path: Path, arm: Arm
) -> None:
    crew = run_crew(
        tmp_path,
        [
            profile("root", BOARD, roster=IMPLEMENTS),
            profile("impl", BOARD, roster=IMPLEMENTS),
        ],
        [
            line(FILE_AND_WAIT),
            line('import { board } from "gg";\nboard.waitForIssue("ISSUE-2");\n'),
            line(_finish("both issues done")),
            line(FILE_BLOCKED_AND_WAIT, agent="root.1"),
            line(_finish("sanded"), agent="root.1.1"),  # ISSUE-2's implementer, a child of its filer
        ],
        arm=arm,
    )
    assert crew.logs("root.1") == [
        "conflict: waiting on `ISSUE-2` would close a cycle that no wait in it could ever leave: "
        "`root.1` waits on `ISSUE-2`; `ISSUE-2` is blocked by `ISSUE-1`; "
        "`ISSUE-1` is being worked on by `root.1`"
    ]
    assert crew.result.status.value == "completed" and crew.finished["finalText"] == "both issues done"
    issues = [(i["id"], i["status"]) for i in crew.of("board_state")[-1]["issues"]]
    assert issues == [("ISSUE-1", "done"), ("ISSUE-2", "done")]


SPAWN_AND_WAIT = """import { delegation, session } from "gg";
const helper = delegation.spawnSubagent({ agent: "helper", prompt: "help with ISSUE-1" });
delegation.waitForSubagents([helper.id]);
session.finish("cut, with help");
"""
WAIT_ON_ANCESTORS_ISSUE = """import { board, session } from "gg";
try { board.waitForIssue("ISSUE-1"); } catch (e) { console.log(`${e.code}: ${e.message}`); }
session.finish("helped");
"""


def test_a_child_waiting_on_the_issue_its_waiting_parent_works_on_is_refused_naming_the_cycle(
    tmp_path: Path, arm: Arm
) -> None:
    """At one slot the child's turn comes only once its parent waits for it, so the parent's wait
    is declared first and the child's closes the cycle."""
    crew = run_crew(
        tmp_path,
        [
            profile("root", BOARD, roster=IMPLEMENTS),
            profile("impl", subagents(), roster=["helper"]),
            profile("helper", BOARD),
        ],
        [
            line(FILE_AND_WAIT),
            line(_finish("done")),
            line(SPAWN_AND_WAIT, agent="root.1"),
            line(WAIT_ON_ANCESTORS_ISSUE, agent="root.1.1"),
        ],
        arm=arm,
        limits={"maxParallel": 1},
    )
    assert crew.logs("root.1.1") == [
        "conflict: waiting on `ISSUE-1` would close a cycle that no wait in it could ever leave: "
        "`root.1.1` waits on `ISSUE-1`; `ISSUE-1` is being worked on by `root.1`; "
        "`root.1` waits on its child `root.1.1`"
    ]
    assert crew.result.status.value == "completed" and crew.finished["finalText"] == "done"


class _PassTheDeadline:
    """A sink that moves the run's clock past its deadline once `agent` asks for its first turn."""

    def __init__(self, clock: ManualClock, agent: str, secs: float) -> None:
        self._clock, self._agent, self._secs = clock, agent, secs

    def write(self, event: Event) -> None:
        if event.type is EventType.MODEL_REQUEST and event.agent_id == self._agent:
            self._clock.advance(self._secs)

    def close(self) -> None:
        pass


def test_no_retry_starts_once_the_runs_time_ran_out(tmp_path: Path, arm: Arm) -> None:
    clock = ManualClock()
    crew = run_crew(
        tmp_path,
        [profile("root", BOARD, roster=IMPLEMENTS), profile("impl")],
        [line(FILE_AND_WAIT), line('console.log("still cutting");\n', profile="impl")],
        arm=arm,
        limits={"maxRuntimeSecs": 60},
        clock=clock,
        sinks=[_PassTheDeadline(clock, "root.1", 61)],
    )
    assert crew.result.status.value == "timed_out"
    assert crew.agents == ["root", "root.1"]  # the implementer ran out of time; no retry followed
    (issue,) = crew.of("board_state")[-1]["issues"]
    assert issue["assignedAgentId"] == "root.1"
