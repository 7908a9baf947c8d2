"""The run's board (seed 003, "board"): epics, issues numbered by one counter per prefix, the shared
DAG rules, gg's moves and the dispatch hooks, and many agents writing at once."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from gg.config.modules import BoardCaps
from gg.errors import ErrorCode
from gg.state.board import Action, Board, IssueEvent, IssuePatch, IssueStatus, NewIssue
from gg.state.refusal import Refusal

CAPS = BoardCaps(max_epics=5, max_issues=10, max_retries=1)


def _issue(title: str = "count the bolts", **fields: object) -> NewIssue:
    base: dict[str, object] = {
        "title": title,
        "in_scope": "bolts",
        "out_of_scope": "nuts",
        "completion_criteria": "a number",
        "agent": "impl",
    }
    return NewIssue(**(base | fields))  # type: ignore[arg-type]


def _code(write: Callable[[], object]) -> str:
    try:
        write()
    except Refusal as refusal:
        return refusal.code.value
    return "ok"


class Heard:
    """The dispatcher's side: what the board told it, in order."""

    def __init__(self) -> None:
        self.told: list[tuple[str, ...]] = []

    def issue_filed(self, issue_id: str) -> None:
        self.told.append(("filed", issue_id))

    def issue_settled(self, issue_id: str, status: IssueStatus) -> None:
        self.told.append(("settled", issue_id, status.value))


def test_an_epic_is_its_prefix_upper_cased_and_its_issues_are_numbered_under_it() -> None:
    board = Board(CAPS)
    epic = board.create_epic("abc", "Parts", "the parts work")
    assert epic.value[0] == "ABC" and epic.value[1].to_wire() == {
        "epics": 1,
        "maxEpics": 5,
        "issues": 0,
        "maxIssues": 10,
    }
    assert board.create_issue(_issue(epic_id="ABC")).value[0] == "ABC-1"
    assert board.create_issue(_issue(epic_id="ABC")).value[0] == "ABC-2"
    assert board.create_issue(_issue()).value[0] == "ISSUE-1"


def test_a_number_is_never_handed_out_twice_even_after_its_issue_is_removed() -> None:
    board = Board(CAPS)
    board.create_epic("AUTH", "Auth", "logins")
    for _ in range(4):
        board.create_issue(_issue(epic_id="AUTH"))
    board.remove_issue("AUTH-4")
    board.remove_issue("AUTH-3")
    assert board.create_issue(_issue(epic_id="AUTH")).value[0] == "AUTH-5"
    assert _code(lambda: board.create_issue(_issue(title=" ", epic_id="AUTH"))) == "invalid-argument"
    assert board.create_issue(_issue(epic_id="AUTH")).value[0] == "AUTH-6"  # a refused one burns none


def test_a_prefix_must_be_three_to_six_letters_and_is_taken_once() -> None:
    board = Board(CAPS)
    for bad in ("ab", "abcdefg", "ab1", "a-b", " abc"):
        assert _code(lambda bad=bad: board.create_epic(bad, "t", "d")) == "invalid-argument"
    board.create_epic("Ship", "t", "d")
    assert _code(lambda: board.create_epic("SHIP", "t", "d")) == "conflict"
    assert _code(lambda: board.create_epic("web", "t", " ")) == "invalid-argument"


def test_caps_refuse_the_next_epic_or_issue() -> None:
    board = Board(BoardCaps(max_epics=1, max_issues=2, max_retries=0))
    board.create_epic("one", "t", "d")
    with pytest.raises(Refusal, match="maximum of 1 epics") as refused:
        board.create_epic("two", "t", "d")
    assert refused.value.code is ErrorCode.LIMIT_EXCEEDED
    board.create_issue(_issue())
    board.create_issue(_issue())
    assert _code(lambda: board.create_issue(_issue())) == "limit-exceeded"


def test_issues_share_the_task_lists_dag_rules() -> None:
    board = Board(CAPS)
    for _ in range(3):
        board.create_issue(_issue())
    board.set_issue_blocked_by("ISSUE-2", ["ISSUE-1"])
    board.set_issue_blocked_by("ISSUE-3", ["ISSUE-2"])
    assert _code(lambda: board.set_issue_blocked_by("ISSUE-1", ["ISSUE-3"])) == "conflict"
    assert _code(lambda: board.set_issue_blocked_by("ISSUE-1", ["ISSUE-1"])) == "conflict"
    assert _code(lambda: board.set_issue_blocked_by("ISSUE-1", ["ISSUE-9"])) == "not-found"
    assert _code(lambda: board.create_issue(_issue(blocked_by=("ISSUE-9",)))) == "not-found"
    assert _code(lambda: board.create_issue(_issue(epic_id="NOPE"))) == "not-found"
    assert _code(lambda: board.set_issue_blocked_by("ISSUE-9", [])) == "not-found"
    board.remove_issue("ISSUE-2")
    assert board.snapshot().issues[1]["blockedBy"] == []


def test_an_update_changes_what_it_names_and_clears_description_and_epic_with_none() -> None:
    board = Board(CAPS)
    board.create_epic("abc", "t", "d")
    board.create_issue(_issue(epic_id="ABC", description="first"))
    assert _code(lambda: board.update_issue("ABC-1", IssuePatch())) == "invalid-argument"
    assert _code(lambda: board.update_issue("ABC-9", IssuePatch(title="x"))) == "not-found"
    assert (
        _code(lambda: board.update_issue("ABC-1", IssuePatch(status=IssueStatus.FAILED)))
        == "invalid-argument"
    )
    board.update_issue("ABC-1", IssuePatch(in_scope="washers", description=None, epic_id=None))
    [issue] = board.snapshot().issues
    assert issue["inScope"] == "washers" and "description" not in issue and "epicId" not in issue
    board.update_issue("ABC-1", IssuePatch(epic_id="ABC"))
    board.remove_epic("ABC")
    assert "epicId" not in board.snapshot().issues[0]
    assert _code(lambda: board.remove_epic("ABC")) == "not-found"


def test_a_snapshot_carries_every_issue_field_the_wire_names() -> None:
    board = Board(CAPS)
    board.create_issue(_issue(reviewers=("rev",), description="why"))
    board.move("ISSUE-1", IssueEvent.DISPATCHED, agent_id="ISSUE-1.0i")
    assert board.snapshot().issues == (
        {
            "id": "ISSUE-1",
            "title": "count the bolts",
            "description": "why",
            "inScope": "bolts",
            "outOfScope": "nuts",
            "completionCriteria": "a number",
            "status": "in_progress",
            "blockedBy": [],
            "agent": "impl",
            "reviewers": ["rev"],
            "assignedAgentId": "ISSUE-1.0i",
            "retries": 0,
        },
    )


def test_the_dispatcher_hears_each_filed_issue_and_each_that_settles_however_it_settled() -> None:
    heard = Heard()
    board = Board(CAPS, heard)
    board.create_issue(_issue())
    board.create_issue(_issue(blocked_by=("ISSUE-1",)))
    assert board.dispatchable() == ["ISSUE-1"]
    dispatched = board.move("ISSUE-1", IssueEvent.DISPATCHED, agent_id="a1")
    assert dispatched.value is not None and dispatched.value.action is Action.WAIT
    assert board.dispatchable() == []
    finished = board.move("ISSUE-1", IssueEvent.FINISHED)
    assert finished.value is not None and finished.value.action is Action.SETTLE
    assert board.dispatchable() == ["ISSUE-2"]
    board.update_issue("ISSUE-2", IssuePatch(status=IssueStatus.DONE))  # a program settles it
    board.update_issue("ISSUE-2", IssuePatch(status=IssueStatus.DONE))
    assert heard.told == [
        ("filed", "ISSUE-1"),
        ("filed", "ISSUE-2"),
        ("settled", "ISSUE-1", "done"),
        ("settled", "ISSUE-2", "done"),
    ]
    assert board.move("ISSUE-2", IssueEvent.FINISHED).value is None  # settled meanwhile: nothing decided


def test_a_hook_may_call_back_into_the_board() -> None:
    class Dispatcher(Heard):
        def __init__(self, board: Board) -> None:
            super().__init__()
            self.board = board

        def issue_filed(self, issue_id: str) -> None:
            self.board.move(issue_id, IssueEvent.DISPATCHED, agent_id=f"{issue_id}.0i")

    board = Board(CAPS)
    board.hooks = Dispatcher(board)
    board.create_issue(_issue())
    assert board.snapshot().issues[0]["status"] == "in_progress"


def test_each_write_counts_a_version_and_hands_back_the_board_as_it_stood_right_after() -> None:
    board = Board(CAPS)
    first = board.create_epic("abc", "t", "d")
    second = board.create_issue(_issue(epic_id="ABC"))
    assert (first.snapshot.version, second.snapshot.version) == (1, 2)
    assert first.snapshot.issues == () and len(second.snapshot.issues) == 1
    with pytest.raises(Refusal):
        board.create_epic("abc", "t", "d")
    assert board.version == 2


def test_many_agents_filing_at_once_never_share_an_id() -> None:
    board = Board(BoardCaps(max_epics=1, max_issues=400, max_retries=0))
    board.create_epic("abc", "t", "d")
    ids: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(8)

    def file_fifty() -> None:
        start.wait()
        for _ in range(50):
            issue_id = board.create_issue(_issue(epic_id="ABC")).value[0]
            with lock:
                ids.append(issue_id)

    threads = [threading.Thread(target=file_fifty) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(ids) == sorted(f"ABC-{n}" for n in range(1, 401))
    assert board.version == 401
