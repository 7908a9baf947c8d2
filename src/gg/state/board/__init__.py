"""The run's board (seed 003, "board"): the epics and issues of the run, one store (`board-0`)
that every agent of a run with a board holds, and the lifecycle gg moves each issue through.

The parts: `issue` (the records: an epic, an issue, a patch of one), `store` (the `Board`: epics,
issues, their ids and caps, the dispatch hooks), `lifecycle` (the pure decider of an issue's
status), `handle` (one holder's `BoardHandle`: the rules that differ per agent, and what it
reports), `module` (`BoardModule`: the framework's four answers over a handle, and the holder's
`BoardSeat`).
"""

from gg.state.board.handle import BoardHandle, IssuePolicy
from gg.state.board.issue import Issue, IssuePatch, NewIssue
from gg.state.board.lifecycle import Action, IssueEvent, IssueStatus, LifecycleStep
from gg.state.board.module import BoardModule, BoardSeat
from gg.state.board.store import SETTABLE, Board, BoardHooks

__all__ = [
    "SETTABLE",
    "Action",
    "Board",
    "BoardHandle",
    "BoardHooks",
    "BoardModule",
    "BoardSeat",
    "Issue",
    "IssueEvent",
    "IssuePatch",
    "IssuePolicy",
    "IssueStatus",
    "LifecycleStep",
    "NewIssue",
]
