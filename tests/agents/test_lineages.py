"""The agents as their parents see them: slots, messages, and waits (named, every uncollected
child, a fork not yet started, an agent that is no child), ended by the run's deadline or its stop."""

from __future__ import annotations

import threading
import time

import pytest

from gg.agents.lineages import ChildResult, Lineages
from gg.errors import ErrorCode, OperationError
from gg.loop.status import AgentStatus
from support.manual_clock import ManualClock
from support.wall_bounds import STOPPED_WITHIN_SECS


def _family() -> Lineages:
    lineages = Lineages()
    lineages.open("root", None)
    for child in ("root.1", "root.2"):
        lineages.open(child, "root", lineages.reserve_slot("root"))
    return lineages


def _done(child: str, summary: str = "done") -> ChildResult:
    return ChildResult(child, AgentStatus.COMPLETED, summary)


def test_slots_count_a_parents_children_from_one() -> None:
    lineages = _family()
    assert lineages.reserve_slot("root") == 3 and lineages.reserve_slot("root.1") == 1


def test_a_wait_answers_in_the_order_named_once_every_child_has_ended() -> None:
    lineages = _family()
    clock = ManualClock()
    lineages.finish("root.2", _done("root.2", "second"))
    later = threading.Timer(0.05, lambda: lineages.finish("root.1", _done("root.1", "first")))
    later.start()
    results = lineages.wait("root", ["root.2", "root.1"], [], None, clock)
    assert [r.summary for r in results] == ["second", "first"]


def test_a_wait_naming_none_takes_every_child_not_yet_collected() -> None:
    lineages = _family()
    clock = ManualClock()
    lineages.finish("root.1", _done("root.1"))
    assert [r.id for r in lineages.wait("root", ["root.1"], [], None, clock)] == ["root.1"]
    lineages.finish("root.2", _done("root.2"))
    assert [r.id for r in lineages.wait("root", None, [], None, clock)] == ["root.2"]
    assert lineages.wait("root", None, [], None, clock) == []


def test_a_successors_id_names_its_lineage() -> None:
    lineages = _family()
    lineages.move("root.1", "root.1@2")
    lineages.finish("root.1", _done("root.1"))
    (result,) = lineages.wait("root", ["root.1@2"], [], None, ManualClock())
    assert result.id == "root.1"


def test_waiting_on_an_agent_that_is_no_child_is_not_found_naming_the_children() -> None:
    lineages = _family()
    with pytest.raises(OperationError) as refused:
        lineages.wait("root.1", ["root.2"], [], None, ManualClock())
    assert refused.value.code is ErrorCode.NOT_FOUND and "no children" in refused.value.message
    with pytest.raises(OperationError) as refused:
        lineages.wait("root", ["root.9"], [], None, ManualClock())
    assert "`root.1`, `root.2`" in refused.value.message


def test_a_fork_declared_this_turn_is_waited_for_on_a_later_one() -> None:
    with pytest.raises(OperationError) as refused:
        _family().wait("root", ["root.f1"], ["root.f1"], None, ManualClock())
    assert refused.value.code is ErrorCode.INVALID_ARGUMENT and "later turn" in refused.value.message


def test_the_runs_deadline_ends_a_wait_naming_who_had_not_ended() -> None:
    lineages = _family()
    clock = ManualClock(100.0)
    lineages.finish("root.1", _done("root.1"))
    threading.Timer(0.05, lambda: clock.advance(10)).start()
    with pytest.raises(OperationError) as refused:
        lineages.wait("root", None, [], 105.0, clock)
    assert refused.value.code is ErrorCode.LIMIT_EXCEEDED and "`root.2`" in refused.value.message
    assert "`root.1`" not in refused.value.message


def test_a_stopping_run_ends_every_wait_at_once() -> None:
    lineages = _family()
    threading.Timer(0.05, lineages.halt).start()
    started = time.monotonic()
    with pytest.raises(OperationError) as refused:
        lineages.wait("root", None, [], None, ManualClock())
    assert refused.value.code is ErrorCode.LIMIT_EXCEEDED and time.monotonic() - started < STOPPED_WITHIN_SECS


def test_a_message_waits_for_its_childs_next_turn_and_only_a_running_child_takes_one() -> None:
    lineages = _family()
    lineages.post("root", "root", "root.1", "first")
    lineages.post("root", "root", "root.1", "second")
    assert lineages.take_inbox("root.1") == [("root", "first"), ("root", "second")]
    assert lineages.take_inbox("root.1") == []
    with pytest.raises(OperationError) as stranger:
        lineages.post("root.1", "root.1", "root.2", "hi")
    assert stranger.value.code is ErrorCode.NOT_FOUND
    lineages.finish("root.2", _done("root.2"))
    with pytest.raises(OperationError) as ended:
        lineages.post("root", "root", "root.2", "too late")
    assert ended.value.code is ErrorCode.CONFLICT


def test_a_results_wire_carries_a_reviewers_verdict_only_when_it_has_one() -> None:
    plain = ChildResult("root.1", AgentStatus.EXHAUSTED, "stopped")
    review = ChildResult("root.2", AgentStatus.COMPLETED, "Changes requested", False, ("rename x",))
    assert plain.to_wire() == {"id": "root.1", "status": "exhausted", "summary": "stopped"}
    assert review.to_wire()["approved"] is False and review.to_wire()["changes"] == ["rename x"]
