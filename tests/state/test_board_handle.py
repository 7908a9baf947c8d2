"""One holder's handle on the run's board: the board always links, each holder reports its own writes
and re-states the board when it moved under it, and the per-agent rules on filing and waiting."""

from __future__ import annotations

import pytest

from gg.config.modules import BoardCaps
from gg.errors import ErrorCode
from gg.state.board import Board, BoardHandle, IssueEvent, IssuePolicy, NewIssue
from gg.state.refusal import Refusal
from gg.telemetry.module_events import BoardState

POLICY = IssuePolicy(implementers=("impl",), reviewers=("rev",))


def _new(agent: str = "impl", **fields: object) -> NewIssue:
    base: dict[str, object] = {
        "title": "count",
        "in_scope": "bolts",
        "out_of_scope": "nuts",
        "completion_criteria": "a number",
        "agent": agent,
    }
    return NewIssue(**(base | fields))  # type: ignore[arg-type]


def _issue_ids(payload: object) -> list[str]:
    assert isinstance(payload, BoardState) and payload.module_id == "board-0"
    return [issue["id"] for issue in payload.issues]


def test_a_fork_links_the_board_and_both_hand_out_numbers_from_its_one_counter() -> None:
    root = BoardHandle(Board(BoardCaps(5, 10, 0)), POLICY)
    assert root.links_on_fork()
    root.create_epic("abc", "Parts", "the parts work")
    first = root.create_issue(_new(epic_id="ABC"))
    copy = root.copy()
    second = copy.create_issue(_new(epic_id="ABC"))
    third = root.create_issue(_new(epic_id="ABC"))
    assert [first["id"], second["id"], third["id"]] == ["ABC-1", "ABC-2", "ABC-3"]
    assert copy.board is root.board
    assert third["board"] == {"epics": 1, "maxEpics": 5, "issues": 3, "maxIssues": 10}


def test_each_holder_reports_its_own_writes_and_re_states_the_board_once_it_moved_under_it() -> None:
    root = BoardHandle(Board(BoardCaps(5, 10, 0)), POLICY)
    root.create_issue(_new())
    copy = root.share()
    assert copy.drain("board-0") == []  # a new holder starts at the board's head: no backlog
    copy.create_issue(_new())
    copy.create_issue(_new())
    assert [_issue_ids(p) for p in copy.drain("board-0")] == [
        ["ISSUE-1", "ISSUE-2"],
        ["ISSUE-1", "ISSUE-2", "ISSUE-3"],
    ]
    assert [_issue_ids(p) for p in root.drain("board-0")] == [["ISSUE-1"], ["ISSUE-1", "ISSUE-2", "ISSUE-3"]]
    assert root.drain("board-0") == [] and copy.drain("board-0") == []
    root.board.move("ISSUE-1", IssueEvent.DISPATCHED, agent_id="ISSUE-1.0i")  # gg moves an issue
    assert [_issue_ids(p) for p in root.drain("board-0")] == [["ISSUE-1", "ISSUE-2", "ISSUE-3"]]
    assert len(copy.drain("board-0")) == 1


def test_it_re_states_the_board_as_it_arrives_with_a_holder() -> None:
    board = Board(BoardCaps(5, 10, 0))
    assert BoardHandle(board).restate("board-0") == [BoardState(module_id="board-0", epics=[], issues=[])]
    BoardHandle(board, POLICY).create_issue(_new())
    successor = BoardHandle(board, POLICY).adopt(IssuePolicy(), assigned_issue="ISSUE-1")
    assert [_issue_ids(p) for p in successor.restate("board-0")] == [["ISSUE-1"]]
    assert successor.drain("board-0") == []


def test_an_issue_goes_only_to_an_implementer_and_reviewers_of_the_filers_roster() -> None:
    handle = BoardHandle(Board(BoardCaps(5, 10, 0)), POLICY)
    with pytest.raises(Refusal, match="`agent` must be one of `impl`; `rev` is not") as refused:
        handle.create_issue(_new("rev"))
    assert refused.value.code is ErrorCode.INVALID_ARGUMENT
    with pytest.raises(Refusal, match="`reviewers` must name one of `rev`; `impl` is not"):
        handle.create_issue(_new(reviewers=("impl",)))
    with pytest.raises(Refusal, match="offers none"):
        BoardHandle(handle.board).create_issue(_new())
    strict = BoardHandle(handle.board, IssuePolicy(("impl",), ("rev",), require_reviewers=True))
    with pytest.raises(Refusal, match="at least one reviewer"):
        strict.create_issue(_new())
    assert strict.create_issue(_new(reviewers=("rev",)))["id"] == "ISSUE-1"
    assert handle.board.version == 1


def test_waiting_on_ones_own_issue_is_invalid_and_on_a_missing_one_not_found() -> None:
    board = Board(BoardCaps(5, 10, 0))
    BoardHandle(board, POLICY).create_issue(_new())
    implementer = BoardHandle(board, assigned_issue="ISSUE-1")
    with pytest.raises(Refusal) as own:
        implementer.check_wait("ISSUE-1")
    assert own.value.code is ErrorCode.INVALID_ARGUMENT
    with pytest.raises(Refusal) as missing:
        implementer.check_wait("ISSUE-2")
    assert missing.value.code is ErrorCode.NOT_FOUND
    BoardHandle(board).check_wait("ISSUE-1")
