"""The run's wait graph: `cycle_of` finds the cycle a wait would close (or none), and `Waits`
refuses such a wait `conflict`, naming every step, recording nothing for it."""

from __future__ import annotations

import pytest

from gg.agents.waits import Waits, agent_node, cycle_of, issue_node
from gg.errors import ErrorCode, OperationError

ROOT, IMPL, CHILD = agent_node("root"), agent_node("root.1"), agent_node("root.1.1")
FIRST, SECOND, THIRD = issue_node("ISSUE-1"), issue_node("ISSUE-2"), issue_node("ISSUE-3")


def test_a_wait_whose_target_leads_back_to_the_waiter_closes_that_cycle() -> None:
    edges = {SECOND: [FIRST], FIRST: [IMPL], ROOT: [FIRST]}
    assert cycle_of(edges, IMPL, [SECOND]) == (IMPL, SECOND, FIRST, IMPL)


def test_a_wait_whose_targets_can_all_end_without_the_waiter_closes_none() -> None:
    edges = {SECOND: [FIRST], FIRST: [IMPL], ROOT: [FIRST], THIRD: []}
    assert cycle_of(edges, ROOT, [SECOND, THIRD]) is None  # the root waits on its implementer's work
    assert cycle_of({}, ROOT, [FIRST]) is None


def test_a_cycle_through_a_child_names_the_child_edge() -> None:
    edges = {FIRST: [IMPL], IMPL: [CHILD]}
    assert cycle_of(edges, CHILD, [FIRST]) == (CHILD, FIRST, IMPL, CHILD)


def test_a_refused_wait_names_each_step_and_records_nothing() -> None:
    waits = Waits()
    waits.issue_edges = lambda: {SECOND: [FIRST], FIRST: [IMPL]}
    with pytest.raises(OperationError) as refused:
        waits.declare("wait_for_issue", "root.1", [SECOND])
    assert (refused.value.operation, refused.value.code) == ("wait_for_issue", ErrorCode.CONFLICT)
    assert refused.value.message == (
        "waiting on `ISSUE-2` would close a cycle that no wait in it could ever leave: "
        "`root.1` waits on `ISSUE-2`; `ISSUE-2` is blocked by `ISSUE-1`; `ISSUE-1` is being worked on by "
        "`root.1`"
    )
    waits.declare("wait_for_issue", "root", [FIRST])  # the root's wait leads to no cycle
    waits.check_blockers("set_issue_blocked_by", "ISSUE-3", ["ISSUE-1"])  # nothing waits on root.1


def test_the_second_half_of_a_cycle_is_refused_and_a_cleared_wait_closes_none() -> None:
    waits = Waits()
    waits.issue_edges = lambda: {FIRST: [IMPL]}
    waits.declare("wait_for_subagents", "root.1", [CHILD])
    with pytest.raises(OperationError) as refused:
        waits.declare("wait_for_issue", "root.1.1", [FIRST])
    assert refused.value.message.endswith(
        "`root.1.1` waits on `ISSUE-1`; `ISSUE-1` is being worked on by `root.1`; "
        "`root.1` waits on its child `root.1.1`"
    )
    waits.clear("root.1", [CHILD])
    waits.declare("wait_for_issue", "root.1.1", [FIRST])


def test_blocking_an_issue_is_refused_when_it_closes_a_cycle_through_a_wait() -> None:
    waits = Waits()
    waits.issue_edges = lambda: {FIRST: [IMPL], THIRD: []}
    waits.declare("wait_for_issue", "root.1", [THIRD])
    with pytest.raises(OperationError) as refused:
        waits.check_blockers("set_issue_blocked_by", "ISSUE-3", ["ISSUE-1"])
    assert refused.value.message == (
        "blocking `ISSUE-3` on `ISSUE-1` would close a cycle that no wait in it could ever leave: "
        "`ISSUE-3` is blocked by `ISSUE-1`; `ISSUE-1` is being worked on by `root.1`; "
        "`root.1` waits on `ISSUE-3`"
    )
