"""Applying a compaction at the close of a turn (seed 001, deferred declarations).

The window restarts from the agent's task and the summary the program declared, then each file
the program named is re-read into a file view. A file that cannot be re-read is named in a
Notice with the reason, and the rest still open. The program library is untouched. What the
compacting turn itself produced (its views, its feedback) is pushed after the compacted thread.
"""

from __future__ import annotations

from gg import prompts
from gg.errors import OperationError
from gg.providers.base import Message
from gg.sdk.files import read_region
from gg.sdk.scope import Compaction
from gg.sdk.views import file_view
from gg.state.window import Region, ViewRefusal, ViewSet, Window
from gg.state.workspace import Workspace


def compacted_thread(task: Message | None, compaction: Compaction, workspace: Workspace) -> list[Message]:
    """The messages the window restarts from."""
    thread = [] if task is None else [task]
    thread.append(Message(role="user", content=prompts.render("summary", summary=compaction.summary)))
    views = ViewSet()
    unread: list[str] = []
    for path in compaction.files:
        try:
            record = read_region("compact", workspace, path)
            views.open_file(file_view(workspace.relative(path), Region(), record))
        except (OperationError, ViewRefusal) as refusal:
            unread.append(f"`{path[:200]}`: {refusal.message}")
    thread.extend(Message(role="user", content=view.render()) for view in views.close_turn())
    if unread:
        thread.append(Message(role="user", content=prompts.render("notice-files-not-reopened", files=unread)))
    return thread


def apply_compaction(window: Window, compaction: Compaction, workspace: Workspace) -> tuple[int, int]:
    """Restart `window` from `compaction`; returns the message counts before and after."""
    before = len(window.messages)
    window.restart(compacted_thread(window.task, compaction, workspace))
    return before, len(window.messages)
