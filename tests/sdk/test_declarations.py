"""Deferred declarations merge across a turn: the last compaction stands, the first succession
stands, forks and issue waits accumulate (seed 001)."""

from __future__ import annotations

import pytest

from gg.config.modules import BoardCaps
from gg.errors import ErrorCode, OperationError
from gg.sdk.scope import (
    Compaction,
    Declarations,
    DeclaredEnding,
    DeferredDeclarations,
    ForkDeclaration,
    Succession,
)


def test_the_last_compaction_stands() -> None:
    deferred = DeferredDeclarations()
    deferred.compact(Compaction("first"))
    deferred.compact(Compaction("second", ("main.js",)))
    assert deferred.compaction == Compaction("second", ("main.js",))


def test_the_first_succession_stands_and_a_second_is_refused() -> None:
    deferred = DeferredDeclarations()
    deferred.succeed(Succession("exec", "worker", "carry on"), "exec")
    with pytest.raises(OperationError) as refused:
        deferred.succeed(Succession("transition", "review"), "transition_state")
    assert refused.value.code is ErrorCode.REFUSED and refused.value.operation == "transition_state"
    assert deferred.succession == Succession("exec", "worker", "carry on")


def test_forks_accumulate_and_waits_accumulate_once_each() -> None:
    deferred = DeferredDeclarations()
    forks = [ForkDeclaration("root.f1", "a", 1), ForkDeclaration("root.f2", "b", 2)]
    for fork in forks:
        deferred.fork(fork)
    for issue in ("ABC-1", "ABC-2", "ABC-1"):
        deferred.wait_for(issue)
    assert deferred.forks == forks and deferred.waits == ["ABC-1", "ABC-2"]


def test_the_first_hand_over_of_a_program_stands() -> None:
    declarations = Declarations()
    declarations.hand_over("first")
    with pytest.raises(OperationError) as refused:
        declarations.hand_over("second")
    assert refused.value.code is ErrorCode.REFUSED and refused.value.operation == "rerun"
    assert declarations.handover == "first"


def test_the_last_ending_wins_and_replacements_are_counted() -> None:
    declarations = Declarations()
    for text in ("a", "b", "c"):
        declarations.declare_ending(DeclaredEnding("finish", text))
    assert declarations.ending == DeclaredEnding("finish", "c") and declarations.endings_replaced == 2


def test_waits_and_delegation_calls_answer_unavailable_without_their_capability() -> None:
    from gg.config.catalogue import Role
    from gg.sandbox.membrane import Membrane
    from gg.sdk.catalogue import default_registry
    from gg.sdk.scope import ProgramScope

    class Quiet:
        def call_started(self, operation: str, ordinal: int) -> None: ...
        def call_ended(self, operation: str, ordinal: int, failure: OperationError | None) -> None: ...

    def scope(capabilities: frozenset[str]) -> ProgramScope:
        return ProgramScope("root", Role.STANDARD, capabilities, workspace=None, views=None, turn=1)  # type: ignore[arg-type]

    closed = scope(frozenset())
    for operation, args in [
        ("board.wait_for_issue", {"id": "ABC-1"}),
        ("delegation.exec", {"agent": "worker"}),
        ("delegation.fork", {"prompt": "copy"}),
        ("delegation.spawn_subagent", {"agent": "worker", "prompt": "go"}),
        ("delegation.wait_for_subagents", {}),
        ("delegation.send_message", {"agentId": "root.1", "message": "hi"}),
        ("delegation.transition_state", {"state": "build"}),
    ]:
        with pytest.raises(OperationError) as refused:
            Membrane(default_registry(), closed, Quiet(), "javascript")(operation, args)
        assert refused.value.code is ErrorCode.UNAVAILABLE
    from gg.state.board import Board, BoardHandle, NewIssue

    opened = scope(frozenset({"project-management"}))
    opened.board = BoardHandle(Board(BoardCaps(1, 5, 0)))
    opened.board.board.create_epic("abc", "Parts", "the parts")
    for _ in range(2):
        opened.board.board.create_issue(NewIssue("t", "in", "out", "done", "impl", epic_id="ABC"))
    membrane = Membrane(default_registry(), opened, Quiet(), "javascript")
    for issue in ("ABC-1", "ABC-2", "ABC-1"):
        membrane("board.wait_for_issue", {"id": issue})
    assert opened.deferred.waits == ["ABC-1", "ABC-2"]
